/**
 * Out-of-office delegation (docs/domain.md "Delegation", decision 0053): while away, an authorizer (rol 2 or
 * 3) names a delegate — another active authorizer of the same client — who acts with the delegator's level
 * inside a window of business dates, both inclusive, at most 90 days. One delegation per delegator.
 */
import { MSG } from '../messages.ts';
import { actionableStatus, type OrderAction, type OrderStatus, transition } from './order-workflow.ts';
import { addDays, formatIsoDate } from './time.ts';

/** The longest window, in days, both ends counted. */
export const DELEGATION_MAX_DAYS = 90;

/**
 * Why a window cannot be saved on business date `today`, or null when it can: `hasta` before `desde`, longer
 * than 90 days, or already over. A window may have started before today (an ongoing one is saved again).
 */
export function delegationWindowProblem(desde: string, hasta: string, today: string): string | null {
  if (hasta < desde) return MSG.rangoFechasInvalido;
  if (addDays(desde, DELEGATION_MAX_DAYS - 1) < hasta) return MSG.delegacionMuyLarga;
  if (hasta < today) return MSG.delegacionTerminada;
  return null;
}

/** True when business date `today` lies in the window (both ends inclusive). */
export function delegationActive(w: { desde: string; hasta: string }, today: string): boolean {
  return w.desde <= today && today <= w.hasta;
}

/** "Apruebas en nombre de Ana Ruiz hasta el 04/12/2026." — the banner on the delegate's list. */
export function onBehalfSentence(nombre: string, hasta: string): string {
  return `Apruebas en nombre de ${nombre} hasta el ${formatIsoDate(hasta)}.`;
}

/** A status event's actor, with the person they acted for: "Luis Pérez en nombre de Ana Ruiz". */
export function actorOnBehalf(actor: string | null, enNombreDe: string | null): string | null {
  if (!actor) return actor;
  return enNombreDe ? `${actor} en nombre de ${enNombreDe}` : actor;
}

/** One way a user may act today: as themselves (`onBehalfOf` null) or with a delegator's role. */
export interface Acting {
  rol: number;
  onBehalfOf: { id: number; nombre: string } | null;
}

/** The statuses a user acts on with any of their ways of acting (own role first), without repeats. */
export function actionableStatuses(actors: readonly Acting[], levels: number): OrderStatus[] {
  const out: OrderStatus[] = [];
  for (const a of actors) {
    const s = actionableStatus(a.rol, levels);
    if (s && !out.includes(s)) out.push(s);
  }
  return out;
}

/**
 * The transition a user may make on an order, with the first way of acting that allows it (their own role
 * before any delegation). When none does: 'STATUS' if some way of acting has a role for this client (the
 * order is simply not in its status any more), else 'ROLE'.
 */
export function transitionAs(
  actors: readonly Acting[],
  status: OrderStatus,
  levels: number,
  action: OrderAction,
): { ok: true; to: OrderStatus; actor: Acting } | { ok: false; reason: 'ROLE' | 'STATUS' } {
  let reason: 'ROLE' | 'STATUS' = 'ROLE';
  for (const actor of actors) {
    const step = transition(actor.rol, status, levels, action);
    if (step.ok) return { ok: true, to: step.to, actor };
    if (step.reason === 'STATUS') reason = 'STATUS';
  }
  return { ok: false, reason };
}
