import { formatCentavos } from '@portal/shared/domain/money';
import {
  actionableStatus,
  type OrderStatus,
  orderNumber,
  waitingFor,
} from '@portal/shared/domain/order-workflow';
import { businessDate, formatDateTime } from '@portal/shared/domain/time';
import { and, asc, eq, gt, inArray } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { selectOrdersWithParties } from '../../db/orders-with-parties.ts';
import { approvalReminders, clients, orderEvents, orders, users } from '../../db/schema/index.ts';
import type { Deps } from '../../lib/deps.ts';
import { orderEmail } from '../../lib/emails.ts';
import { defineMailJob } from '../../lib/mail-jobs.ts';
import { addressOf, enqueueEmail } from '../../lib/mailer.ts';
import { levelWithStandIns } from './delegation.service.ts';

/** The reminder job's queue (decision 0051). */
export const REMINDER_QUEUE = 'recordatorios-autorizadores';
/** 09:00 Monday to Friday, read in the business time zone (config.BUSINESS_TZ). */
export const REMINDER_CRON = '0 9 * * 1-5';

/** True on Monday to Friday of the business calendar. */
export function isBusinessWeekday(now: Date, tz: string): boolean {
  const day = new Date(`${businessDate(now, tz)}T12:00:00Z`).getUTCDay();
  return day >= 1 && day <= 5;
}

export interface WaitingOrder {
  id: number;
  idCliente: number;
  status: OrderStatus;
  total: number;
  comprador: string;
  /** Since when it waits on its level. */
  desde: Date;
  /** The client's hours it has waited more than. */
  horas: number;
}

interface Recipient {
  id: number;
  email: string;
  usuario: string;
  nombre: string;
}

/**
 * Who is reminded of the orders of a client waiting at a level: its active users of the level's role, except
 * that an approver who is out of office today is replaced by their delegate (decision 0053).
 */
async function recipientsFor(db: Db, idCliente: number, rol: 2 | 3, fecha: string): Promise<Recipient[]> {
  const people = await levelWithStandIns(db, idCliente, rol, fecha);
  const approvers = people.filter((p) => p.delegatorId === null);
  const standIns = people.filter((p) => p.delegatorId !== null);
  const away = new Set(standIns.map((s) => s.delegatorId));
  return [...approvers.filter((a) => !away.has(a.id)), ...standIns];
}

/**
 * The open orders of active clients with the setting on (`horas`: the client's column of hours, the
 * reminders' by default; 0 = off) that have waited on their level longer than the client's hours.
 */
export async function overdueOrders(
  db: Db,
  now: Date,
  horas: typeof clients.recordatorioHoras | typeof clients.escalarHoras = clients.recordatorioHoras,
): Promise<WaitingOrder[]> {
  const rows = await selectOrdersWithParties(db, {
    id: orders.id,
    idCliente: orders.idCliente,
    status: orders.status,
    total: orders.total,
    transactionDate: orders.transactionDate,
    niveles: clients.cantidadAutorizadores,
    horas,
    comprador: users.nombre,
  })
    .where(and(inArray(orders.status, ['pendiente', 'espera']), eq(clients.activo, true), gt(horas, 0)))
    .orderBy(asc(orders.id));
  const open = rows.filter((r) => actionableStatus(r.status === 'pendiente' ? 2 : 3, r.niveles) === r.status);
  if (open.length === 0) return [];
  const events = await db
    .select({ orderId: orderEvents.orderId, a: orderEvents.toStatus, fecha: orderEvents.createdAt })
    .from(orderEvents)
    .where(
      and(
        inArray(
          orderEvents.orderId,
          open.map((r) => r.id),
        ),
        inArray(orderEvents.toStatus, ['pendiente', 'espera']),
      ),
    )
    .orderBy(asc(orderEvents.id));
  const byOrder = new Map<number, { a: string | null; fecha: string }[]>();
  for (const e of events) {
    const list = byOrder.get(e.orderId) ?? [];
    list.push({ a: e.a, fecha: e.fecha.toISOString() });
    byOrder.set(e.orderId, list);
  }
  const out: WaitingOrder[] = [];
  for (const r of open) {
    const status = r.status as OrderStatus;
    const waiting = waitingFor(status, byOrder.get(r.id) ?? [], r.transactionDate.toISOString());
    if (!waiting) continue;
    const desde = new Date(waiting.desde);
    if (now.getTime() - desde.getTime() <= r.horas * 3_600_000) continue;
    out.push({
      id: r.id,
      idCliente: r.idCliente,
      status,
      total: r.total,
      comprador: r.comprador,
      desde,
      horas: r.horas,
    });
  }
  return out;
}

/** Claims (user, business date) and enqueues the digest in one transaction; false when already claimed. */
async function sendDigest(
  tx: Tx,
  publicUrl: string,
  tz: string,
  fecha: string,
  to: string,
  recipient: Recipient,
  waiting: WaitingOrder[],
): Promise<boolean> {
  const claimed = await tx
    .insert(approvalReminders)
    .values({ userId: recipient.id, fecha, pedidos: waiting.length })
    .onConflictDoNothing()
    .returning({ userId: approvalReminders.userId });
  if (claimed.length === 0) return false;
  const n = waiting.length;
  const lines = waiting.map(
    (o) =>
      `#${orderNumber(o.id)} · ${o.comprador} · ${formatCentavos(o.total)} · esperando desde ${formatDateTime(o.desde, tz)} · ${publicUrl}/autorizador/orden/${o.id}`,
  );
  await enqueueEmail(
    tx,
    orderEmail(to, recipient.nombre, {
      subject: n === 1 ? 'Tienes 1 pedido por revisar' : `Tienes ${n} pedidos por revisar`,
      paragraphs: [
        n === 1
          ? 'Este pedido espera tu revisión desde hace más tiempo del acordado:'
          : 'Estos pedidos esperan tu revisión desde hace más tiempo del acordado:',
        ...lines,
      ],
      url: `${publicUrl}/autorizador/principal`,
      label: 'Ver pedidos por revisar',
      para: { userId: recipient.id, tipo: 'por_revisar' },
    }),
  );
  return true;
}

/**
 * The reminder job's core (docs/domain.md "Reminders"): on a business weekday, e-mails each approver one
 * digest of the orders waiting on them longer than their client's `recordatorio_horas`. At most one digest
 * per person and business date, whoever runs it and however often. Returns how many digests it enqueued.
 */
export async function runReminders(
  deps: { db: Db; publicUrl: string; tz: string },
  now: Date,
): Promise<number> {
  if (!isBusinessWeekday(now, deps.tz)) return 0;
  const fecha = businessDate(now, deps.tz);
  const waiting = await overdueOrders(deps.db, now);
  const groups = new Map<string, { idCliente: number; rol: 2 | 3; orders: WaitingOrder[] }>();
  for (const o of waiting) {
    const rol = o.status === 'pendiente' ? 2 : 3;
    const key = `${o.idCliente}:${rol}`;
    const group = groups.get(key) ?? { idCliente: o.idCliente, rol, orders: [] };
    group.orders.push(o);
    groups.set(key, group);
  }
  // One digest per person: a delegate may be reminded for their own level and a delegator's.
  const digests = new Map<number, { recipient: Recipient; orders: WaitingOrder[] }>();
  for (const group of groups.values()) {
    for (const recipient of await recipientsFor(deps.db, group.idCliente, group.rol, fecha)) {
      const digest = digests.get(recipient.id) ?? { recipient, orders: [] };
      for (const o of group.orders) if (!digest.orders.includes(o)) digest.orders.push(o);
      digests.set(recipient.id, digest);
    }
  }
  let sent = 0;
  for (const { recipient, orders: list } of digests.values()) {
    const to = addressOf(recipient);
    if (!to) continue;
    list.sort((a, b) => a.desde.getTime() - b.desde.getTime() || a.id - b.id);
    const done = await deps.db.transaction((tx) =>
      sendDigest(tx, deps.publicUrl, deps.tz, fecha, to, recipient, list),
    );
    if (done) sent++;
  }
  return sent;
}

/** Declares the reminder queue and its daily schedule (called while the app is built). */
export function defineReminderJobs(deps: Deps): void {
  defineMailJob(deps, {
    name: REMINDER_QUEUE,
    cron: REMINDER_CRON,
    expireInSeconds: 15 * 60,
    run: runReminders,
  });
}
