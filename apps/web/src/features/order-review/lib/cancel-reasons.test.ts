import { describe, expect, it } from 'vitest';
import { cancelReason } from './cancel-reasons';

describe('cancelReason', () => {
  it('a preset is sent as it reads; no choice sends no reason', () => {
    expect(cancelReason('Duplicado', 'ignorado')).toEqual({ ok: true, motivo: 'Duplicado' });
    expect(cancelReason('', '')).toEqual({ ok: true, motivo: '' });
  });

  it('"Otro" requires its text, trimmed', () => {
    expect(cancelReason('otro', '   ')).toEqual({ ok: false, error: 'Escribe el motivo de la cancelación.' });
    expect(cancelReason('otro', '  Ya se surtió por otro medio ')).toEqual({
      ok: true,
      motivo: 'Ya se surtió por otro medio',
    });
  });
});
