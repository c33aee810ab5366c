import { describe, expect, it } from 'vitest';
import { MSG } from '../messages.ts';
import {
  actionableStatuses,
  actorOnBehalf,
  delegationActive,
  delegationWindowProblem,
  onBehalfSentence,
  transitionAs,
} from './delegation.ts';

const self2 = { rol: 2, onBehalfOf: null };
const for3 = { rol: 3, onBehalfOf: { id: 9, nombre: 'Ana Ruiz' } };

describe('delegation windows', () => {
  it('refuses a window that ends before it starts, lasts over 90 days or is over; one that started may be saved', () => {
    expect(delegationWindowProblem('2026-12-02', '2026-12-01', '2026-11-25')).toBe(MSG.rangoFechasInvalido);
    expect(delegationWindowProblem('2026-12-01', '2027-02-28', '2026-11-25')).toBeNull(); // 90 days
    expect(delegationWindowProblem('2026-12-01', '2027-03-01', '2026-11-25')).toBe(MSG.delegacionMuyLarga);
    expect(delegationWindowProblem('2026-11-20', '2026-11-24', '2026-11-25')).toBe(MSG.delegacionTerminada);
    expect(delegationWindowProblem('2026-11-20', '2026-11-25', '2026-11-25')).toBeNull();
    expect(delegationWindowProblem('2026-11-25', '2026-11-25', '2026-11-25')).toBeNull();
  });

  it('is active on both end dates and not outside them', () => {
    const w = { desde: '2026-12-01', hasta: '2026-12-03' };
    expect(
      ['2026-11-30', '2026-12-01', '2026-12-03', '2026-12-04'].map((d) => delegationActive(w, d)),
    ).toEqual([false, true, true, false]);
  });

  it('says whom the delegate acts for and names both in events', () => {
    expect(onBehalfSentence('Ana Ruiz', '2026-12-04')).toBe(
      'Apruebas en nombre de Ana Ruiz hasta el 04/12/2026.',
    );
    expect(actorOnBehalf('Luis Pérez', 'Ana Ruiz')).toBe('Luis Pérez en nombre de Ana Ruiz');
    expect(actorOnBehalf('Luis Pérez', null)).toBe('Luis Pérez');
    expect(actorOnBehalf(null, 'Ana Ruiz')).toBeNull();
  });
});

describe('acting with a delegator’s level', () => {
  it('adds the delegator’s status to what the delegate acts on', () => {
    expect(actionableStatuses([self2], 2)).toEqual(['pendiente']);
    expect(actionableStatuses([self2, for3], 2)).toEqual(['pendiente', 'espera']);
    // One level: a super authorizer acts on nothing, so their delegation adds nothing.
    expect(actionableStatuses([self2, for3], 1)).toEqual(['pendiente']);
    expect(
      actionableStatuses(
        [
          { rol: 3, onBehalfOf: null },
          { rol: 2, onBehalfOf: { id: 4, nombre: 'X' } },
        ],
        2,
      ),
    ).toEqual(['espera', 'pendiente']);
  });

  it('uses one’s own role first, then the delegation; a missed status is STATUS, no role at all is ROLE', () => {
    expect(transitionAs([self2, for3], 'pendiente', 2, 'aprobar')).toEqual({
      ok: true,
      to: 'espera',
      actor: self2,
    });
    expect(transitionAs([self2, for3], 'espera', 2, 'aprobar')).toEqual({
      ok: true,
      to: 'aprobado',
      actor: for3,
    });
    expect(transitionAs([self2, for3], 'espera', 2, 'cancelar')).toEqual({
      ok: true,
      to: 'cancelado',
      actor: for3,
    });
    expect(transitionAs([self2], 'espera', 2, 'aprobar')).toEqual({ ok: false, reason: 'STATUS' });
    expect(transitionAs([self2, for3], 'aprobado', 2, 'aprobar')).toEqual({ ok: false, reason: 'STATUS' });
    expect(transitionAs([{ rol: 3, onBehalfOf: null }], 'pendiente', 1, 'aprobar')).toEqual({
      ok: false,
      reason: 'ROLE',
    });
  });
});
