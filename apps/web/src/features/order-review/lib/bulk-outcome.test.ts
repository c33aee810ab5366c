import { describe, expect, it } from 'vitest';
import { bulkOutcome } from './bulk-outcome';

describe('bulkOutcome', () => {
  it('one level: approved', () => {
    expect(bulkOutcome([{ status: 'pendiente' }], 1)).toBe(
      'Quedarán aprobados y se avisará a cada usuario por correo.',
    );
  });

  it('two levels: pendiente rows wait for the second approval, espera rows are approved', () => {
    expect(bulkOutcome([{ status: 'pendiente' }], 2)).toBe(
      'Quedarán en espera de la aprobación final del Super Autorizador.',
    );
    expect(bulkOutcome([{ status: 'espera' }], 2)).toBe(
      'Quedarán aprobados y se avisará a cada usuario por correo.',
    );
  });

  it("a delegate's selection of both levels says both", () => {
    expect(bulkOutcome([{ status: 'pendiente' }, { status: 'espera' }], 2)).toMatch(
      /^Los pendientes quedarán en espera .*; los que estaban en espera quedarán aprobados/,
    );
  });
});
