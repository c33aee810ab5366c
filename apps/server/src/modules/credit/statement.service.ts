/**
 * The «Estado de cuenta» (decision 0134): a client's open invoices with their due dates, what was applied
 * to them, its balance, aging, limit and available credit; as JSON, CSV or PDF. And the distributor's aging
 * of every client. Both count with domain/credit.ts, from the invoices' `saldo` as the invoices module keeps
 * it (decision 0131).
 */
import {
  AGING_BUCKETS,
  AGING_LABELS,
  agingBucket,
  type CreditInvoice,
  daysOverdue,
  dueDate,
  invoiceDay,
} from '@portal/shared/domain/credit';
import { centavosToPesos, centavosToPesosOrNull, formatCentavos } from '@portal/shared/domain/money';
import { orderNumber } from '@portal/shared/domain/order-workflow';
import { ROLES } from '@portal/shared/domain/roles';
import { businessDate, formatIsoDate } from '@portal/shared/domain/time';
import {
  AGING_PER_PAGE,
  type AgingQuery,
  type AgingResponse,
  STATEMENT_PER_PAGE,
  type StatementDownloadQuery,
  type StatementDto,
  type StatementQuery,
} from '@portal/shared/schemas/credit';
import { and, asc, count, isNotNull, type SQL, sql } from 'drizzle-orm';
import type { FastifyReply } from 'fastify';
import type { Db } from '../../db/client.ts';
import { executeNamedOnce, type PageWindow, pageWindow, preparedOnce } from '../../db/prepared.ts';
import {
  clientOpenInvoiceDays,
  clients,
  invoiceApplications,
  invoices,
  orders,
} from '../../db/schema/index.ts';
import { foldedSearch, offsetOf } from '../../db/search.ts';
import { clientNotFound } from '../../lib/client-scope.ts';
import { BOM, csvMoney, csvRow } from '../../lib/csv.ts';
import type { Deps } from '../../lib/deps.ts';
import { badRequest } from '../../lib/errors.ts';
import { drawTable, newDocument, numberPages, type PdfColumn } from '../../lib/pdf-layout.ts';
import { MSG } from '../../messages.ts';
import type { AuthContext } from '../../plugins/auth-guard.ts';
import { type ClientCreditRow, creditOf, openInvoiceDays, openInvoicesOf } from '../orders/credit-check.ts';

type StatementDeps = Pick<Deps, 'db' | 'clock' | 'config'>;

/**
 * The client a statement is about: the distributor's administrator names it (400 when not); a client's own
 * people (roles 2, 3 and 5) read only their own client — another client's id answers 404 like a missing one.
 */
function statementClient(auth: AuthContext, named: number | undefined): number {
  if (auth.user.rol === ROLES.administrador) {
    if (named === undefined) throw badRequest('CLIENT_REQUIRED', MSG.estadoCuentaCliente);
    return named;
  }
  const own = auth.user.idCliente;
  if (own === null || (named !== undefined && named !== own)) throw clientNotFound();
  return own;
}

/** An order held for credit now (the statement's and the aging's count of them). */
const HELD = isNotNull(orders.retenidoCredito);

/** Orders held for credit now, per client. */
async function heldCounts(db: Db, ids: readonly number[]): Promise<Map<number, number>> {
  if (ids.length === 0) return new Map();
  const rows = await preparedOnce(db, 'portal_statement_held', (d) =>
    d
      .select({ id: orders.idCliente, n: count() })
      .from(orders)
      .where(and(sql`${orders.idCliente} = any(${sql.placeholder('ids')}::integer[])`, HELD))
      .groupBy(orders.idCliente),
  ).execute({ ids: [...ids] });
  return new Map(rows.map((r) => [r.id, r.n]));
}

type Application = {
  tipo: 'E' | 'P';
  uuid: string;
  serie: string | null;
  folio: string | null;
  fecha: string;
  importe: number;
};

/** An open invoice as `statementScreen` reads it, with what was applied to it (by application). */
interface StatementInvoice {
  id: number;
  uuid: string;
  serie: string | null;
  folio: string | null;
  orderId: number;
  fecha: string;
  total: number;
  saldo: number | null;
  verificacionSat: string | null;
  /** As `Application`, its type as stored and its date as the CFDI writes it. */
  aplicaciones: (Omit<Application, 'tipo'> & { tipo: string })[];
}

/** The statement's one row: the client's terms, its open invoices a day at a time, its held orders, the invoices. */
interface StatementRow extends ClientCreditRow {
  dias: CreditInvoice[];
  retenidos: number;
  facturas: StatementInvoice[];
}

/**
 * Everything the statement shows in one statement, built and planned once: the client's terms, name and RFC,
 * its open invoices summed a day at a time (the kept days the final approval counts its credit from), its
 * orders held for credit now, and its open invoices oldest first — one page of them (`window`), or all — each
 * with the credit notes and payments applied to it; the lists as JSON arrays. The screen made four round
 * trips in two rounds for them, and a round trip is most of what it costs (docs/benchmarks.md finding 70).
 * No row for a missing client.
 */
const statementScreen = (window: PageWindow | null) => () =>
  sql`
  select c.nombre, c.rfc, c.limite_credito as limite, c.dias_credito as "diasCredito",
    c.politica_credito as politica,
    coalesce((
      select json_agg(d) from (
        select k.fecha, k.saldo, k.facturas from ${clientOpenInvoiceDays} k where k.id_cliente = c.id
      ) d
    ), '[]') as dias,
    (
      select count(*)::integer from ${orders}
      where ${orders.idCliente} = c.id and ${HELD}
    ) as retenidos,
    coalesce((
      select json_agg(p order by p.fecha, p.id) from (
        select i.id, i.uuid, i.serie, i.folio, i.order_id as "orderId", i.fecha, i.total, i.saldo,
          i.verificacion_sat as "verificacionSat",
          coalesce((
            select json_agg(x order by a.id)
            from ${invoiceApplications} a
            join ${invoices} s on s.id = a.source_id
            cross join lateral (select s.tipo, s.uuid, s.serie, s.folio, s.fecha, a.importe) x
            where a.invoice_id = i.id
          ), '[]') as aplicaciones
        from ${invoices} i
        where i.id in (
          select ${invoices.id} from ${invoices} where ${openInvoicesOf(sql.placeholder('id'))}
          order by ${invoices.fecha}, ${invoices.id}
          ${window === null ? sql`` : sql`limit ${window.limit}`} ${window?.offset ? sql`offset ${window.offset}` : sql``}
        )
      ) p
    ), '[]') as facturas
  from ${clients} c
  where c.id = ${sql.placeholder('id')}`;

/**
 * A statement counted in centavos (the screen's, the CSV's and the PDF's one source; decision 0138): the
 * summary of the whole client from its open invoices summed per day (`creditOf`, the final approval's own
 * count), and its open invoices oldest first — one page of them (`page`), or all for the downloads —
 * each with its due date and the credit notes and payments applied to it.
 */
async function statementOf(deps: StatementDeps, idCliente: number, page: number | null) {
  const db = deps.db;
  const today = businessDate(deps.clock.now(), deps.config.BUSINESS_TZ);
  const window = page === null ? null : pageWindow(page, STATEMENT_PER_PAGE);
  const [row] = await executeNamedOnce<StatementRow>(
    db,
    `portal_statement_${window?.shape ?? 'all'}`,
    statementScreen(window),
    { id: idCliente, ...window?.values },
  );
  if (!row) throw clientNotFound();
  const credit = creditOf(row, row.dias, today);
  const dias = credit.terms.diasCredito;
  const facturas = row.facturas.map((i) => {
    const vencimiento = dueDate(i.fecha, dias);
    const diasVencido = daysOverdue(vencimiento, today);
    const saldo = i.saldo ?? 0;
    return {
      uuid: i.uuid,
      serie: i.serie,
      folio: i.folio,
      pedido: i.orderId,
      verificacionSat: i.verificacionSat,
      fecha: invoiceDay(i.fecha),
      vencimiento,
      total: i.total,
      pagado: i.total - saldo,
      saldo,
      diasVencido,
      antiguedad: agingBucket(diasVencido),
      aplicaciones: i.aplicaciones.map(
        (a): Application => ({
          tipo: a.tipo === 'E' ? 'E' : 'P',
          uuid: a.uuid,
          serie: a.serie,
          folio: a.folio,
          fecha: invoiceDay(a.fecha),
          importe: a.importe,
        }),
      ),
    };
  });
  return {
    client: { id: idCliente, ...credit.client, ...credit.terms },
    today,
    page: page ?? 1,
    summary: credit.summary,
    held: row.retenidos,
    facturas,
  };
}

type Statement = Awaited<ReturnType<typeof statementOf>>;

const pesosAging = (a: Record<(typeof AGING_BUCKETS)[number], number>) =>
  Object.fromEntries(AGING_BUCKETS.map((b) => [b, centavosToPesos(a[b])])) as Record<
    (typeof AGING_BUCKETS)[number],
    number
  >;

function statementDto(s: Statement): StatementDto {
  return {
    cliente: { id: s.client.id, nombre: s.client.nombre, rfc: s.client.rfc },
    fecha: s.today,
    limite_credito: centavosToPesosOrNull(s.client.limite),
    dias_credito: s.client.diasCredito,
    politica_credito: s.client.politica,
    saldo: centavosToPesos(s.summary.saldo),
    vencido: centavosToPesos(s.summary.vencido),
    disponible: centavosToPesosOrNull(s.summary.disponible),
    antiguedad: pesosAging(s.summary.antiguedad),
    pedidos_retenidos: s.held,
    facturas: s.facturas.map((f) => ({
      uuid: f.uuid,
      serie: f.serie,
      folio: f.folio,
      pedido: f.pedido,
      verificacion_sat: f.verificacionSat,
      fecha: f.fecha,
      vencimiento: f.vencimiento,
      total: centavosToPesos(f.total),
      pagado: centavosToPesos(f.pagado),
      saldo: centavosToPesos(f.saldo),
      dias_vencido: f.diasVencido,
      antiguedad: f.antiguedad,
      aplicaciones: f.aplicaciones.map((a) => ({ ...a, importe: centavosToPesos(a.importe) })),
    })),
    total: s.summary.facturas,
    page: s.page,
    per_page: STATEMENT_PER_PAGE,
  };
}

/** GET /api/estado-cuenta. */
export async function statement(
  deps: StatementDeps,
  auth: AuthContext,
  query: StatementQuery,
): Promise<StatementDto> {
  return statementDto(await statementOf(deps, statementClient(auth, query.cliente), query.page));
}

const folioOf = (d: { serie: string | null; folio: string | null; uuid: string }) =>
  [d.serie, d.folio].filter(Boolean).join('-') || d.uuid;

export const STATEMENT_HEADER = [
  'Factura',
  'UUID',
  'Pedido',
  'Fecha',
  'Vencimiento',
  'Total',
  'Pagado',
  'Saldo',
  'Días vencida',
  'Antigüedad',
  'Notas de crédito y pagos',
];

const appliedCell = (f: Statement['facturas'][number]) =>
  f.aplicaciones
    .map(
      (a) =>
        `${a.tipo === 'E' ? 'Nota de crédito' : 'Pago'} ${folioOf(a)} ${formatIsoDate(a.fecha)}: ${formatCentavos(a.importe)}`,
    )
    .join('; ');

function statementCsv(s: Statement): string {
  const rows = s.facturas.map((f) =>
    csvRow([
      folioOf(f),
      f.uuid,
      `#${orderNumber(f.pedido)}`,
      f.fecha,
      f.vencimiento,
      csvMoney(f.total),
      csvMoney(f.pagado),
      csvMoney(f.saldo),
      f.diasVencido,
      AGING_LABELS[f.antiguedad],
      appliedCell(f),
    ]),
  );
  // The totals under the rows, each in the Saldo column.
  const total = (label: string, value: string) => csvRow([label, '', '', '', '', '', '', value]);
  const totals = [
    csvRow([]),
    total('Saldo', csvMoney(s.summary.saldo)),
    total('Vencido', csvMoney(s.summary.vencido)),
    ...AGING_BUCKETS.map((b) => total(AGING_LABELS[b], csvMoney(s.summary.antiguedad[b]))),
    total('Límite de crédito', s.client.limite === null ? 'Sin límite' : csvMoney(s.client.limite)),
    total('Crédito disponible', s.summary.disponible === null ? '' : csvMoney(s.summary.disponible)),
  ];
  return BOM + csvRow(STATEMENT_HEADER) + rows.join('') + totals.join('');
}

/** The PDF's table (Letter width less the margins: 532 points). */
const PDF_COLUMNS: readonly PdfColumn[] = [
  { title: 'Factura', width: 70, align: 'left' },
  { title: 'Pedido', width: 46, align: 'left' },
  { title: 'Fecha', width: 52, align: 'left' },
  { title: 'Vence', width: 52, align: 'left' },
  { title: 'Total', width: 68, align: 'right' },
  { title: 'Pagado', width: 68, align: 'right' },
  { title: 'Saldo', width: 68, align: 'right' },
  { title: 'Días', width: 34, align: 'right' },
  { title: 'Antigüedad', width: 74, align: 'left' },
];

function statementPdf(s: Statement): PDFKit.PDFDocument {
  const title = `Estado de cuenta · ${s.client.nombre}`;
  const c = newDocument({ Title: `${title} ${s.today}` });
  const { doc } = c;
  doc.fillColor('black').font('Helvetica-Bold').fontSize(18).text('Estado de cuenta', c.left, c.y, {
    width: c.width,
  });
  const limite = s.client.limite === null ? 'Sin límite' : formatCentavos(s.client.limite);
  doc
    .font('Helvetica')
    .fontSize(10)
    .text(`${s.client.nombre}${s.client.rfc ? ` · RFC ${s.client.rfc}` : ''}`, c.left, doc.y + 4, {
      width: c.width,
    })
    .text(`Fecha: ${formatIsoDate(s.today)} · Días de crédito: ${s.client.diasCredito}`, c.left, doc.y + 2, {
      width: c.width,
    })
    .text(
      `Saldo: ${formatCentavos(s.summary.saldo)} · Vencido: ${formatCentavos(s.summary.vencido)} · Límite: ${limite}${
        s.summary.disponible === null ? '' : ` · Disponible: ${formatCentavos(s.summary.disponible)}`
      }`,
      c.left,
      doc.y + 2,
      { width: c.width },
    )
    .text(
      `Antigüedad: ${AGING_BUCKETS.map((b) => `${AGING_LABELS[b]} ${formatCentavos(s.summary.antiguedad[b])}`).join(' · ')}`,
      c.left,
      doc.y + 2,
      { width: c.width },
    );
  c.y = doc.y + 12;
  drawTable(
    c,
    PDF_COLUMNS,
    s.facturas.map((f) => [
      folioOf(f) + (f.aplicaciones.length > 0 ? `\n${appliedCell(f)}` : ''),
      `#${orderNumber(f.pedido)}`,
      formatIsoDate(f.fecha),
      formatIsoDate(f.vencimiento),
      formatCentavos(f.total),
      formatCentavos(f.pagado),
      formatCentavos(f.saldo),
      String(f.diasVencido),
      AGING_LABELS[f.antiguedad],
    ]),
  );
  numberPages(c, `${title} ${formatIsoDate(s.today)}`);
  doc.end();
  return doc;
}

/** GET /api/estado-cuenta/descarga: `estado-de-cuenta-<cliente>-<fecha>.csv|pdf`. */
export async function sendStatement(
  deps: StatementDeps,
  reply: FastifyReply,
  auth: AuthContext,
  query: StatementDownloadQuery,
): Promise<FastifyReply> {
  const s = await statementOf(deps, statementClient(auth, query.cliente), null);
  const fileName = `estado-de-cuenta-${s.client.id}-${s.today}.${query.formato}`;
  reply
    .header('Cache-Control', 'private, no-store')
    .header('Content-Disposition', `attachment; filename="${fileName}"`);
  if (query.formato === 'csv')
    return reply.header('Content-Type', 'text/csv; charset=utf-8').send(statementCsv(s));
  return reply.header('Content-Type', 'application/pdf').send(statementPdf(s));
}

/**
 * GET /api/credito/clientes (rol 4): every client by name, 25 a page, with its balance, overdue amount,
 * aging, limit, policy and held orders; counted per page with the statement's own function.
 */
export async function clientsAging(deps: StatementDeps, query: AgingQuery): Promise<AgingResponse> {
  const db = deps.db;
  const today = businessDate(deps.clock.now(), deps.config.BUSINESS_TZ);
  const conditions: SQL[] = [];
  const search = foldedSearch([clients.nombre], query.q);
  if (search) conditions.push(search);
  if (query.con_saldo === 'si')
    conditions.push(
      sql`exists (select 1 from ${invoices} where ${invoices.idCliente} = ${clients.id} and ${invoices.tipo} = 'I' and ${invoices.saldo} > 0)`,
    );
  const where = conditions.length > 0 ? and(...conditions) : undefined;
  const [rows, [totals]] = await Promise.all([
    db
      .select({
        id: clients.id,
        nombre: clients.nombre,
        limite: clients.limiteCredito,
        dias: clients.diasCredito,
        politica: clients.politicaCredito,
      })
      .from(clients)
      .where(where)
      .orderBy(asc(clients.nombre), asc(clients.id))
      .limit(AGING_PER_PAGE)
      .offset(offsetOf(query.page, AGING_PER_PAGE)),
    db.select({ n: count() }).from(clients).where(where),
  ]);
  const ids = rows.map((r) => r.id);
  // The page's clients' open invoices summed a day at a time, as the final approval reads them.
  const [open, held] = await Promise.all([openInvoiceDays(db, ids), heldCounts(db, ids)]);
  return {
    clientes: rows.map((r) => {
      const { terms, summary } = creditOf(
        { nombre: r.nombre, rfc: null, limite: r.limite, diasCredito: r.dias, politica: r.politica },
        open.get(r.id) ?? [],
        today,
      );
      return {
        id: r.id,
        nombre: r.nombre,
        saldo: centavosToPesos(summary.saldo),
        vencido: centavosToPesos(summary.vencido),
        antiguedad: pesosAging(summary.antiguedad),
        limite_credito: centavosToPesosOrNull(terms.limite),
        disponible: centavosToPesosOrNull(summary.disponible),
        dias_credito: terms.diasCredito,
        politica_credito: terms.politica,
        pedidos_retenidos: held.get(r.id) ?? 0,
      };
    }),
    total: totals?.n ?? 0,
    page: query.page,
    per_page: AGING_PER_PAGE,
  };
}
