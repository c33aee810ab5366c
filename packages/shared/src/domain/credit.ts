/**
 * A client's credit (issue 42 item 4, decision 0134; docs/domain.md "Credit"): a limit and credit days set
 * by the distributor, the balance of its open invoices and their aging. Pure: the server and the screens
 * count the same way.
 *
 * - An invoice (CFDI type I) is due `dias_credito` **calendar** days after its date (`Fecha`, the issuer's
 *   local date as written).
 * - The balance is the sum of the open invoices' `saldo` (their total less the credit notes and payments
 *   applied to them); an invoice is overdue once the business date is after its due date.
 * - Aging: four buckets by days past due; «0–30» holds the invoices not yet due as well as those up to 30
 *   days past due, so the four buckets add up to the balance.
 */
import { addDays } from './time.ts';

/** What happens to an approved order of a client over its limit or with an overdue invoice. */
export const CREDIT_POLICIES = ['avisar', 'retener'] as const;
export type CreditPolicy = (typeof CREDIT_POLICIES)[number];

/** A client's stored policy as the rules read it: anything but `retener` warns. */
export const creditPolicyOf = (stored: string): CreditPolicy => (stored === 'retener' ? 'retener' : 'avisar');

export const CREDIT_POLICY_NAMES: Record<CreditPolicy, string> = {
  avisar: 'Avisar a los autorizadores',
  retener: 'Retener los pedidos aprobados hasta que se liberen',
};

export const DIAS_CREDITO_MAX = 365;
export const DIAS_CREDITO_DEFAULT = 30;

export const AGING_BUCKETS = ['0-30', '31-60', '61-90', '90+'] as const;
export type AgingBucket = (typeof AGING_BUCKETS)[number];

export const AGING_LABELS: Record<AgingBucket, string> = {
  '0-30': '0–30 días',
  '31-60': '31–60 días',
  '61-90': '61–90 días',
  '90+': 'Más de 90 días',
};

/** The badge of a held order in the Surtido queue and the order's views. */
export const CREDIT_HOLD_LABEL = 'Retenido por crédito';

/** The calendar date of an invoice's `Fecha` as written ('2026-11-03T10:15:00' → '2026-11-03'). */
export function invoiceDay(fecha: string): string {
  return fecha.slice(0, 10);
}

/** The due date: the invoice's date plus the client's credit days (calendar days). */
export function dueDate(fecha: string, diasCredito: number): string {
  return addDays(invoiceDay(fecha), diasCredito);
}

/** A calendar day (YYYY-MM-DD) as a number of days since 1970-01-01: two differ by whole days. */
function dayNumber(isoDate: string): number {
  const y = Number(isoDate.slice(0, 4));
  const m = Number(isoDate.slice(5, 7));
  const d = Number(isoDate.slice(8, 10));
  return Date.UTC(y, m - 1, d) / 86_400_000;
}

/** Whole days from `due` to `today` (both YYYY-MM-DD); 0 while not past due. */
export function daysOverdue(due: string, today: string): number {
  return Math.max(0, dayNumber(today) - dayNumber(due));
}

/** The aging bucket of an invoice so many days past due (0: not yet due, or due today). */
export function agingBucket(diasVencido: number): AgingBucket {
  if (diasVencido <= 30) return '0-30';
  if (diasVencido <= 60) return '31-60';
  if (diasVencido <= 90) return '61-90';
  return '90+';
}

/**
 * An invoice as the credit counts it: its date as written and what it still owes (centavos). The server
 * passes the open invoices of one day as one entry (their saldo summed, `facturas` how many): the count
 * depends on the day alone, and a client of thousands of open invoices is then a few hundred entries.
 */
export interface CreditInvoice {
  fecha: string;
  saldo: number;
  /** How many invoices the entry stands for (1 when absent). */
  facturas?: number;
}

/** A client's credit at a date, in centavos. */
export interface CreditSummary {
  /** The sum of the open invoices' saldo. */
  saldo: number;
  /** How many open invoices there are. */
  facturas: number;
  /** The saldo of the invoices past due. */
  vencido: number;
  /** How many open invoices are past due. */
  facturasVencidas: number;
  antiguedad: Record<AgingBucket, number>;
  /** The limit less the balance (may be negative); null without a limit. */
  disponible: number | null;
}

export function emptyAging(): Record<AgingBucket, number> {
  return { '0-30': 0, '31-60': 0, '61-90': 0, '90+': 0 };
}

/** The balance, the overdue amount and the aging of a client's invoices at `today`. */
export function creditSummary(
  invoices: readonly CreditInvoice[],
  terms: { diasCredito: number; limite: number | null; today: string },
): CreditSummary {
  const antiguedad = emptyAging();
  let saldo = 0;
  let facturas = 0;
  let vencido = 0;
  let facturasVencidas = 0;
  // Days past due as day numbers: the same as daysOverdue(dueDate(…), today) without writing and reading a
  // date per entry (a client's statement sums hundreds of days on every request).
  const today = dayNumber(terms.today);
  for (const inv of invoices) {
    if (inv.saldo <= 0) continue;
    const dias = Math.max(0, today - terms.diasCredito - dayNumber(invoiceDay(inv.fecha)));
    saldo += inv.saldo;
    facturas += inv.facturas ?? 1;
    antiguedad[agingBucket(dias)] += inv.saldo;
    if (dias > 0) {
      vencido += inv.saldo;
      facturasVencidas += inv.facturas ?? 1;
    }
  }
  return {
    saldo,
    facturas,
    vencido,
    facturasVencidas,
    antiguedad,
    disponible: terms.limite === null ? null : terms.limite - saldo,
  };
}

/** Why an order approved now would be over the client's credit: its limit, an overdue invoice, or both. */
export interface CreditProblem {
  /** The balance plus the order's total goes over the limit. */
  excedido: boolean;
  /** The client has an invoice past due. */
  vencido: boolean;
}

/** The credit problem of approving an order of `total` centavos, or null when there is none. */
export function creditProblem(
  summary: CreditSummary,
  limite: number | null,
  total: number,
): CreditProblem | null {
  const excedido = limite !== null && summary.saldo + total > limite;
  const vencido = summary.vencido > 0;
  return excedido || vencido ? { excedido, vencido } : null;
}
