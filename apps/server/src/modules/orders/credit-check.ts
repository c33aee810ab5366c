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
import { executeNamedOnce, prepared } from '../../db/prepared.ts';
import { clientOpenInvoiceDays, clients, invoices } from '../../db/schema/index.ts';
import { MSG } from '../../messages.ts';

export interface CreditTerms {
  limite: number | null;
  diasCredito: number;
  politica: CreditPolicy;
}

export interface ClientCredit {
  /** The client's name and RFC (the statement shows them). */
  client: { nombre: string; rfc: string | null };
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
 * thousands open (finding 47: 6,786 invoices read and counted one by one made an approval cost 99 ms). The
 * days kept by the invoices' triggers (`client_open_invoice_days`, decision 0148): summing the open invoices
 * instead cost 20 ms a call for a client with 65,000 (finding 66).
 */
export async function openInvoiceDays(
  db: Db | Tx,
  ids: readonly number[],
): Promise<Map<number, CreditInvoice[]>> {
  const byClient = new Map<number, CreditInvoice[]>();
  if (ids.length === 0) return byClient;
  // A named statement over an array of clients: built and planned once (finding 59).
  const rows = await prepared(db, 'portal_open_invoice_days', (d) =>
    d
      .select({
        idCliente: clientOpenInvoiceDays.idCliente,
        fecha: clientOpenInvoiceDays.fecha,
        saldo: clientOpenInvoiceDays.saldo,
        facturas: clientOpenInvoiceDays.facturas,
      })
      .from(clientOpenInvoiceDays)
      .where(sql`${clientOpenInvoiceDays.idCliente} = any(${sql.placeholder('ids')}::integer[])`),
  ).execute({ ids: [...ids] });
  for (const { idCliente, ...entry } of rows) {
    const list = byClient.get(idCliente);
    if (list) list.push(entry);
    else byClient.set(idCliente, [entry]);
  }
  return byClient;
}

/**
 * The days kept for clients' open invoices that disagree with the invoices (empty when the triggers of
 * migration 0071 kept them): checked by the tests after every kind of invoice write, like the running totals'
 * recounts.
 */
export async function openInvoiceDayDrift(db: Db | Tx): Promise<unknown[]> {
  const result = await db.execute(sql`
    with counted as (
      select ${invoices.idCliente} as id_cliente, left(${invoices.fecha}, 10) as fecha,
        sum(${invoices.saldo})::bigint as saldo, count(*)::int as facturas
      from ${invoices} where ${OPEN} group by 1, 2
    )
    select coalesce(k.id_cliente, c.id_cliente) as id_cliente, coalesce(k.fecha, c.fecha) as fecha,
      k.saldo as guardado, k.facturas as guardadas, c.saldo, c.facturas
    from ${clientOpenInvoiceDays} k full join counted c on c.id_cliente = k.id_cliente and c.fecha = k.fecha
    where k.saldo is distinct from c.saldo or k.facturas is distinct from c.facturas
    order by 1, 2`);
  return (result as unknown as { rows: unknown[] }).rows;
}

/**
 * The client's terms, name and RFC with its open invoices a day at a time (the kept days, decision 0148), in
 * one statement built and planned once (two before: each round trip is dear, docs/benchmarks.md finding 63):
 * one row per day, or one row of nulls for a client with nothing open; none for a missing client.
 */
const creditOfClient = () => sql`
  select c.nombre, c.rfc, c.limite_credito as limite, c.dias_credito as "diasCredito",
    c.politica_credito as politica, d.fecha, d.saldo, d.facturas
  from ${clients} c
  left join ${clientOpenInvoiceDays} d on d.id_cliente = c.id
  where c.id = ${sql.placeholder('id')}`;

/** A client's row as `creditOfClient` and the statement's screen read it: its terms, name and RFC. */
export interface ClientCreditRow {
  nombre: string;
  rfc: string | null;
  limite: number | null;
  diasCredito: number;
  politica: string;
}

/** The client's credit from its row and its open invoices a day at a time, at the business date `today`. */
export function creditOf(
  client: ClientCreditRow,
  open: readonly CreditInvoice[],
  today: string,
): ClientCredit {
  const terms: CreditTerms = {
    limite: client.limite,
    diasCredito: client.diasCredito,
    politica: creditPolicyOf(client.politica),
  };
  const summary = creditSummary(open, { diasCredito: terms.diasCredito, limite: terms.limite, today });
  return { client: { nombre: client.nombre, rfc: client.rfc }, terms, summary };
}

/** The client's credit terms and the summary of its open invoices at the business date `today`. */
export async function clientCredit(
  db: Db | Tx,
  idCliente: number,
  today: string,
): Promise<ClientCredit | null> {
  const rows = await executeNamedOnce<
    ClientCreditRow & { fecha: string | null; saldo: number | null; facturas: number | null }
  >(db, 'portal_client_credit', creditOfClient, { id: idCliente });
  const [client] = rows;
  if (!client) return null;
  const open: CreditInvoice[] = [];
  for (const r of rows)
    if (r.fecha !== null) open.push({ fecha: r.fecha, saldo: r.saldo ?? 0, facturas: r.facturas ?? 0 });
  return creditOf(client, open, today);
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
