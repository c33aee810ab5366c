import { describe, expect, it } from 'vitest';
import { resendAccessDetail } from './resend-access';

describe('resendAccessDetail', () => {
  it('names the skipped users with their reason, five at most', () => {
    expect(resendAccessDetail({ detalle_omitidos: [] })).toBe('');
    expect(
      resendAccessDetail({
        detalle_omitidos: [
          { id: 1, usuario: 'ana', motivo: 'con_contrasena' },
          { id: 2, usuario: 'luis', motivo: 'inactivo' },
          { id: 3, usuario: 'eva', motivo: 'sin_correo' },
        ],
      }),
    ).toBe(
      'Omitidos: ana (ya estableció su contraseña), luis (está desactivado), eva (no tiene correo electrónico).',
    );
    const many = Array.from({ length: 7 }, (_, i) => ({
      id: i,
      usuario: `u${i}`,
      motivo: 'inactivo' as const,
    }));
    expect(resendAccessDetail({ detalle_omitidos: many })).toMatch(/u4 \(está desactivado\) y 2 más\.$/);
  });
});
