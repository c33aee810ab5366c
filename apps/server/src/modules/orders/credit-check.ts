/**
 * A client's credit as the database has it now (decision 0134): its terms and the summary of its open
 * invoices (domain/credit.ts counts). Read by the order's seam at the final approval, by the approver's view
 * of an order, and by the statements.
 */
import {
  type CreditInvoice,
  type CreditPolicy,
  type CreditProblem,
  type CreditSummary,
  creditPolicyOf,
  creditProblem,
  creditSummary,
} from '@portal/shared/domain/credit';
import { formatCentavos } from '@portal/shared/domain/money';
import { and, eq, type Placeholder, type SQL, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { prepared } from '../../db/prepared.ts';
import { clients, invoices } from '../../db/schema/index.ts';
import { MSG } from '../../messages.ts';

export interface CreditTerms {
  limite: number | null;
  diasCredito: number;
  politica: CreditPolicy;
}

export interface ClientCredit {
  terms: CreditTerms;
  summary: CreditSummary;
}

/** The predicate of the partial index `invoices_open_fecha_idx` (migration 0064): ingresos with a saldo. */
const OPEN = sql`${invoices.tipo} = 'I' and ${invoices.saldo} > 0`;

/**
 * A client's open invoices (ingresos with a saldo): the predicate of the partial index `invoices_open_fecha_idx`
 * (migration 0064), as literals — a parameter would not prove it in a generic plan. The credit's sums and
 * the statement's pages read them through it.
 */
export function openInvoicesOf(idCliente: number | Placeholder): SQL | undefined {
  return and(eq(invoices.idCliente, idCliente), OPEN);
}

/**
 * Clients' open invoices a day at a time, by client (the credit depends on the day alone, domain/credit.ts):
 * every final approval, every statement and the distributor's aging read this, and a client may have
 * thousands open (finding 47: 6,786 invoices read and counted one by one made an approval cost 99 ms). From
 * the partial index of open invoices (migration 0064), the index alone.
 */
export async function openInvoiceDays(
  db: Db | Tx,
  ids: readonly number[],
): Promise<Map<number, CreditInvoice[]>> {
  const byClient = new Map<number, CreditInvoice[]>();
  if (ids.length === 0) return byClient;
  const day = sql<string>`left(${invoices.fecha}, 10)`;
  // A named statement over an array of clients: built and planned once (finding 59).
  const rows = await prepared(db, 'portal_open_invoice_days', (d) =>
    d
      .select({
        idCliente: invoices.idCliente,
        fecha: day,
        saldo: sql<number>`sum(${invoices.saldo})::bigint`.mapWith(Number),
        facturas: sql<number>`count(*)::int`.mapWith(Number),
      })
      .from(invoices)
      .where(and(sql`${invoices.idCliente} = any(${sql.placeholder('ids')}::integer[])`, OPEN))
      .groupBy(invoices.idCliente, day),
  ).execute({ ids: [...ids] });
  for (const { idCliente, ...entry } of rows) {
    const list = byClient.get(idCliente);
    if (list) list.push(entry);
    else byClient.set(idCliente, [entry]);
  }
  return byClient;
}

/** The client's credit terms and the summary of its open invoices at the business date `today`. */
export async function clientCredit(
  db: Db | Tx,
  idCliente: number,
  today: string,
): Promise<ClientCredit | null> {
  const [client] = await prepared(db, 'portal_client_credit_terms', (d) =>
    d
      .select({
        limite: clients.limiteCredito,
        diasCredito: clients.diasCredito,
        politica: clients.politicaCredito,
      })
      .from(clients)
      .where(eq(clients.id, sql.placeholder('id'))),
  ).execute({ id: idCliente });
  if (!client) return null;
  const open = await openInvoiceDays(db, [idCliente]);
  const terms: CreditTerms = {
    limite: client.limite,
    diasCredito: client.diasCredito,
    politica: creditPolicyOf(client.politica),
  };
  const summary = creditSummary(open.get(idCliente) ?? [], {
    diasCredito: terms.diasCredito,
    limite: terms.limite,
    today,
  });
  return { terms, summary };
}

/** The problem of approving an order of `total` centavos now, in words (one sentence per problem). */
export function creditProblemText(credit: ClientCredit, total: number, problem: CreditProblem): string {
  const parts: string[] = [];
  if (problem.excedido && credit.terms.limite !== null)
    parts.push(
      MSG.creditoExcedido(
        formatCentavos(credit.summary.saldo),
        formatCentavos(total),
        formatCentavos(credit.terms.limite),
      ),
    );
  if (problem.vencido)
    parts.push(MSG.creditoVencido(credit.summary.facturasVencidas, formatCentavos(credit.summary.vencido)));
  return parts.join(' ');
}

/**
 * Clients' credit read once for a batch of approvals (the bulk approval), by client and business date: an
 * approval writes no invoice, so every order of the batch meets the same credit, and reading a client's open
 * invoices is most of a final approval's cost when it has thousands (finding 50).
 */
export type CreditMemo = Map<string, Promise<ClientCredit | null>>;

/**
 * What approving an order of `total` centavos would meet: the problem in words and whether it holds. With a
 * `memo`, the client's credit is read once for all the approvals that share it.
 */
export async function approvalCredit(
  db: Db | Tx,
  idCliente: number,
  total: number,
  today: string,
  memo?: CreditMemo,
): Promise<{ problem: CreditProblem; motivo: string; retener: boolean; credit: ClientCredit } | null> {
  const key = `${idCliente} ${today}`;
  let read = memo?.get(key);
  if (!read) {
    read = clientCredit(db, idCliente, today);
    if (memo) {
      memo.set(key, read);
      // A failed read (its transaction gone) is not kept: the next approval reads again.
      read.catch(() => memo.delete(key));
    }
  }
  const credit = await read;
  if (!credit) return null;
  const problem = creditProblem(credit.summary, credit.terms.limite, total);
  if (!problem) return null;
  return {
    problem,
    motivo: creditProblemText(credit, total, problem),
    retener: credit.terms.politica === 'retener',
    credit,
  };
}
