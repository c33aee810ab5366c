import { describe, expect, it } from 'vitest';
import { bulkOutcome, bulkSummaryTitle } from './bulk-outcome';

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

describe('bulkSummaryTitle', () => {
  it('says a first-level approval passed the orders to the second level, never that it approved them', () => {
    const espera = { ok: true, estatus: 'espera' };
    const aprobado = { ok: true, estatus: 'aprobado' };
    const failed = { ok: false, estatus: null };
    expect(bulkSummaryTitle([espera, espera], 'aprobar')).toBe(
      '2 pedidos pasaron a espera del segundo nivel',
    );
    expect(bulkSummaryTitle([espera], 'aprobar')).toBe('1 pedido pasó a espera del segundo nivel');
    expect(bulkSummaryTitle([aprobado, aprobado], 'aprobar')).toBe('2 pedidos aprobados');
    expect(bulkSummaryTitle([aprobado, espera, failed], 'aprobar')).toBe(
      '1 pedido aprobado; 1 pedido pasó a espera del segundo nivel; 1 no se pudo procesar',
    );
    expect(bulkSummaryTitle([failed, failed], 'aprobar')).toBe('2 no se pudieron procesar');
    expect(bulkSummaryTitle([{ ok: true, estatus: 'cancelado' }], 'cancelar')).toBe('1 pedido cancelado');
    expect(bulkSummaryTitle([failed], 'cancelar')).toBe('1 no se pudo procesar');
  });
});
