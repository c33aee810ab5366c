import { describe, expect, it } from 'vitest';
import { canEditLines, ORDER_STATUSES, orderNumber, statusTitle, transition } from './order-workflow.ts';

describe('order workflow', () => {
  it('every (role, status, levels, action) combination', () => {
    const table: string[] = [];
    for (const levels of [0, 1, 2]) {
      for (const rol of [1, 2, 3, 4]) {
        for (const status of ORDER_STATUSES) {
          for (const action of ['aprobar', 'cancelar', 'devolver'] as const) {
            const r = transition(rol, status, levels, action);
            if (r.ok) table.push(`${levels} rol${rol} ${status} ${action} -> ${r.to}`);
          }
        }
      }
    }
    expect(table).toEqual([
      '1 rol2 pendiente aprobar -> aprobado',
      '1 rol2 pendiente cancelar -> cancelado',
      '2 rol2 pendiente aprobar -> espera',
      '2 rol2 pendiente cancelar -> cancelado',
      '2 rol3 espera aprobar -> aprobado',
      '2 rol3 espera cancelar -> cancelado',
      '2 rol3 espera devolver -> pendiente',
    ]);
  });

  it('refusals say why: a role that never acts, or the wrong status', () => {
    expect(transition(1, 'pendiente', 2, 'aprobar')).toEqual({ ok: false, reason: 'ROLE' });
    expect(transition(3, 'pendiente', 1, 'aprobar')).toEqual({ ok: false, reason: 'ROLE' });
    expect(transition(2, 'aprobado', 2, 'cancelar')).toEqual({ ok: false, reason: 'STATUS' });
    expect(transition(3, 'cancelado', 2, 'aprobar')).toEqual({ ok: false, reason: 'STATUS' });
    expect(transition(3, 'pendiente', 2, 'aprobar')).toEqual({ ok: false, reason: 'STATUS' });
    expect(transition(2, 'pendiente', 0, 'aprobar')).toEqual({ ok: false, reason: 'ROLE' });
    // Only the second level sends back; the first level never does, whatever the status.
    expect(transition(2, 'pendiente', 2, 'devolver')).toEqual({ ok: false, reason: 'ROLE' });
    expect(transition(2, 'espera', 2, 'devolver')).toEqual({ ok: false, reason: 'ROLE' });
    expect(transition(3, 'pendiente', 2, 'devolver')).toEqual({ ok: false, reason: 'STATUS' });
    expect(transition(3, 'aprobado', 2, 'devolver')).toEqual({ ok: false, reason: 'STATUS' });
  });

  it('only rol 2 edits, only pendiente', () => {
    expect(canEditLines(2, 'pendiente', 2)).toBe(true);
    expect(canEditLines(2, 'pendiente', 1)).toBe(true);
    expect(canEditLines(2, 'espera', 2)).toBe(false);
    expect(canEditLines(3, 'espera', 2)).toBe(false);
    expect(canEditLines(3, 'pendiente', 2)).toBe(false);
  });

  it('formats numbers and statuses', () => {
    expect(orderNumber(42)).toBe('00042');
    expect(orderNumber(123456)).toBe('123456');
    expect(statusTitle('pendiente')).toBe('Pendiente');
  });
});
