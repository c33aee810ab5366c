import type { TopupDto } from '@portal/shared/schemas/areas';
import { describe, expect, it } from 'vitest';
import { decisionText, topupTargetText } from './topup-item';

const request: TopupDto = {
  id: 1,
  usuario: { id: 2, nombre: 'Ana Ruiz', usuario: 'ana' },
  area: null,
  categoria: null,
  mes: '2026-03',
  importe: 150,
  motivo: 'Papel',
  estado: 'pendiente',
  respuesta: null,
  decidido_por: null,
  decidido_en: null,
  created_at: '2026-03-02T18:00:00.000Z',
  puede_decidir: true,
};

describe('a top-up request in words', () => {
  it('names the budget asked for, in the buyer’s words or an approver’s', () => {
    const area = { id: 4, nombre: 'Mantenimiento', codigo: 'MANT' };
    expect(topupTargetText({ area, categoria: null }, true)).toBe(
      'Presupuesto del área Mantenimiento (MANT)',
    );
    expect(topupTargetText({ area: null, categoria: null }, true)).toBe('Tu presupuesto');
    expect(topupTargetText({ area: null, categoria: { id: 3, nombre: 'Papelería' } }, false)).toBe(
      'Su presupuesto de Papelería',
    );
  });

  it('says who decided, when, and the answer; nothing while pending', () => {
    expect(decisionText(request)).toBeNull();
    const decided = {
      ...request,
      estado: 'aprobada' as const,
      decidido_por: 'Rita Rangel',
      decidido_en: '2026-03-03T16:30:00.000Z',
    };
    expect(decisionText(decided)).toBe('Aprobó Rita Rangel el 03/03/2026 10:30');
    expect(decisionText({ ...decided, estado: 'rechazada', respuesta: 'Ya no hay' })).toBe(
      'Rechazó Rita Rangel el 03/03/2026 10:30: «Ya no hay»',
    );
  });
});
