/**
 * A client's approval rules by amount (docs/domain.md "Approval rules by amount", decision 0049). Amounts in
 * centavos of the order's total (IVA included); null turns a rule off.
 * - `autoHasta`: at purchase, an order whose total is at most this amount is approved at once.
 * - `segundoNivelDesde` (two levels only): a level-1 approval of a total below it completes the order; at
 *   or above it the order goes to the Super Autorizador (espera).
 * Both compare the order's total plus `previos`: what the same buyer placed in the client's window before it
 * (`ventana_reglas_horas`, decision 0100), so a cart split in several orders meets the rules as one.
 */
import { formatCentavos } from './money.ts';
import type { OrderStatus } from './order-workflow.ts';

export interface ApprovalRules {
  autoHasta: number | null;
  segundoNivelDesde: number | null;
}

/** What an event records of the rule that decided a step. */
export type RuleApplied = (
  | { regla: 'aprobacion_automatica'; hasta: number }
  | { regla: 'segundo_nivel'; desde: number }
) & {
  /** The buyer's orders in the window before this one (centavos), when there were any. */
  previos?: number;
};

/** `previos` on the recorded rule only when it counted something. */
function withPrevious<T extends RuleApplied>(rule: T, previos: number): T {
  return previos > 0 ? { ...rule, previos } : rule;
}

/**
 * The status of a new order: aprobado with no levels or under the automatic rule (its total with the buyer's
 * orders of the window before it, `previos`), else pendiente.
 */
export function statusAtPurchase(
  levels: number,
  total: number,
  rules: ApprovalRules,
  previos = 0,
): { status: OrderStatus; rule: RuleApplied | null } {
  if (levels === 0) return { status: 'aprobado', rule: null };
  if (rules.autoHasta !== null && previos + total <= rules.autoHasta)
    return {
      status: 'aprobado',
      rule: withPrevious({ regla: 'aprobacion_automatica', hasta: rules.autoHasta }, previos),
    };
  return { status: 'pendiente', rule: null };
}

/**
 * Where an approval takes the order: the workflow's step (`to`), except that a level-1 approval (pendiente
 * → espera) of a total below the second-level amount completes it — its total with the buyer's orders of the
 * window before it (`previos`).
 */
export function approvalTarget(
  to: OrderStatus,
  from: OrderStatus,
  total: number,
  rules: ApprovalRules,
  previos = 0,
): { to: OrderStatus; rule: RuleApplied | null } {
  if (
    from === 'pendiente' &&
    to === 'espera' &&
    rules.segundoNivelDesde !== null &&
    previos + total < rules.segundoNivelDesde
  )
    return {
      to: 'aprobado',
      rule: withPrevious({ regla: 'segundo_nivel', desde: rules.segundoNivelDesde }, previos),
    };
  return { to, rule: null };
}

/**
 * The rules in a plain sentence for the client form, or null when none is on; with a window (hours, > 0) it
 * also says that the buyer's orders of that window add up.
 */
export function rulesSentence(rules: ApprovalRules, ventanaHoras = 0): string | null {
  const { autoHasta, segundoNivelDesde } = rules;
  const auto = autoHasta === null ? null : `Pedidos hasta ${formatCentavos(autoHasta)} se aprueban solos`;
  const window =
    ventanaHoras > 0
      ? ` Se suman los pedidos del mismo comprador de ${ventanaHoras === 1 ? 'la última hora' : `las últimas ${ventanaHoras} horas`}.`
      : '';
  if (segundoNivelDesde === null) return auto && `${auto}.${window}`;
  const second = formatCentavos(segundoNivelDesde);
  return auto
    ? `${auto}; desde ${second} requieren Super Autorizador.${window}`
    : `Pedidos desde ${second} requieren Super Autorizador; los menores los aprueba el Autorizador.${window}`;
}

/** The refusal of a pair of rules for a client with this many levels, or null when they are valid. */
export function rulesProblem(
  levels: number,
  rules: ApprovalRules,
): 'AUTO_NOT_BELOW_SECOND' | 'SECOND_NEEDS_TWO_LEVELS' | null {
  if (rules.segundoNivelDesde !== null && levels !== 2) return 'SECOND_NEEDS_TWO_LEVELS';
  if (
    rules.autoHasta !== null &&
    rules.segundoNivelDesde !== null &&
    rules.autoHasta >= rules.segundoNivelDesde
  )
    return 'AUTO_NOT_BELOW_SECOND';
  return null;
}

/**
 * What an approval does, in the approve dialog's words (and the review e-mail's, decision 0112): to Espera
 * for the Super Autorizador, or Aprobado — by the second-level rule when it decided (`target` of
 * `approvalTarget`). Amounts in centavos; `previos` as `approvalTarget` took it, `ventanaHoras` the client's
 * window.
 */
export function approvalOutcome(input: {
  target: { to: OrderStatus; rule: RuleApplied | null };
  total: number;
  previos: number;
  ventanaHoras: number;
  comprador: string;
}): string {
  const { target, total, previos, comprador } = input;
  // "con los pedidos de Ana de las 24 horas anteriores ($1,200.00) suma $4,800.00"
  const withPrevious = `con los pedidos de ${comprador} de las ${input.ventanaHoras} horas anteriores (${formatCentavos(previos)}) suma ${formatCentavos(previos + total)}`;
  if (target.to === 'espera')
    return `El pedido pasará a Espera para la aprobación final del Super Autorizador${previos > 0 ? `: ${withPrevious}.` : '.'}`;
  if (target.rule?.regla === 'segundo_nivel')
    return `El pedido quedará Aprobado: ${previos > 0 ? `${withPrevious}, menos que` : 'su total es menor a'} ${formatCentavos(target.rule.desde)}, el monto que requiere Super Autorizador. Se avisará a ${comprador} por correo.`;
  return `El pedido quedará Aprobado y se avisará a ${comprador} por correo.`;
}
