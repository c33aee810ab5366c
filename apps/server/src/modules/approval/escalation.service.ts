/**
 * Escalation (issue 43, item 3; decision 0113; docs/domain.md "Escalation"): an order that has waited on its
 * level longer than its client's `escalar_horas` is escalated once per wait — an order event `escalado` and
 * an e-mail to the next person: today's stand-ins of the level when there are any, else the level's
 * approvers, else the portal's administrators when the level has nobody. The job runs every 15 minutes;
 * running it twice, or on two instances at once, escalates each wait once (the order's row is locked and the
 * wait's event checked under the lock).
 */
import { formatCentavos } from '@portal/shared/domain/money';
import { orderNumber } from '@portal/shared/domain/order-workflow';
import { ROLES } from '@portal/shared/domain/roles';
import { businessDate, formatDateTime } from '@portal/shared/domain/time';
import { and, eq, gte } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { clients, orderEvents, orders, users } from '../../db/schema/index.ts';
import { audit } from '../../lib/audit.ts';
import type { Deps } from '../../lib/deps.ts';
import { orderEmail } from '../../lib/emails.ts';
import { defineMailJob } from '../../lib/mail-jobs.ts';
import { type Email, enqueueEmails } from '../../lib/mailer.ts';
import { toEachOnce } from '../orders/notifications.ts';
import { levelWithStandIns } from './delegation.service.ts';
import { overdueOrders, type WaitingOrder } from './reminders.service.ts';

/** The escalation job's queue. */
export const ESCALATION_QUEUE = 'escalamiento-pedidos';
/** Every 15 minutes: an order escalates at most a quarter of an hour after its client's hours. */
/** The default schedule (`ESCALATION_CRON` in docs/configuration.md). */
export const ESCALATION_CRON = '*/15 * * * *';

interface Person {
  id: number;
  email: string;
  usuario: string;
  nombre: string;
}

/** Who hears of an escalated order, and whether they are the portal's administrators (no one was left). */
async function nextPeople(
  tx: Tx,
  o: WaitingOrder,
  fecha: string,
): Promise<{ people: Person[]; admins: boolean }> {
  const rol = o.status === 'pendiente' ? ROLES.autorizador : ROLES.superAutorizador;
  const level = await levelWithStandIns(tx, o.idCliente, rol, fecha);
  const standIns = level.filter((p) => p.delegatorId !== null);
  if (standIns.length > 0) return { people: standIns, admins: false };
  if (level.length > 0) return { people: level, admins: false };
  const admins = await tx
    .select({ id: users.id, email: users.email, usuario: users.usuario, nombre: users.nombre })
    .from(users)
    .where(and(eq(users.rol, ROLES.administrador), eq(users.activo, true)));
  return { people: admins, admins: true };
}

/** Whole hours from `desde` to `now`. */
const hoursBetween = (desde: Date, now: Date) => Math.floor((now.getTime() - desde.getTime()) / 3_600_000);

function escalationEmails(
  publicUrl: string,
  tz: string,
  o: WaitingOrder,
  horas: number,
  to: { people: Person[]; admins: boolean },
): Email[] {
  const numero = orderNumber(o.id);
  const waitsOn =
    o.status === 'pendiente' ? 'la revisión del Autorizador' : 'la aprobación final del Super Autorizador';
  return toEachOnce(to.people, (address, p) =>
    orderEmail(address, p.nombre, {
      subject: `Pedido #${numero}: lleva ${horas} h esperando`,
      paragraphs: [
        `El pedido #${numero} de ${o.comprador} por ${formatCentavos(o.total)} espera ${waitsOn} desde el ${formatDateTime(o.desde, tz)} (${horas} h).`,
        to.admins
          ? 'Su cliente no tiene a nadie activo en ese nivel: asigna a alguien o atiende el pedido con el cliente.'
          : `Su cliente pide avisar cuando un pedido espera más de ${o.horas} h.`,
      ],
      url: to.admins
        ? `${publicUrl}/administrador/pedidos/${o.id}`
        : `${publicUrl}/autorizador/orden/${o.id}`,
      label: 'Ver pedido',
      para: { userId: p.id, tipo: 'por_revisar' },
    }),
  );
}

/** Escalates one wait of one order in its own transaction; false when it had moved on or was escalated already. */
async function escalateOne(
  db: Db,
  deps: { publicUrl: string; tz: string },
  o: WaitingOrder,
  now: Date,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select({ status: orders.status })
      .from(orders)
      .where(eq(orders.id, o.id))
      .for('update');
    if (row?.status !== o.status) return false;
    const [done] = await tx
      .select({ id: orderEvents.id })
      .from(orderEvents)
      .where(
        and(
          eq(orderEvents.orderId, o.id),
          eq(orderEvents.tipo, 'escalado'),
          gte(orderEvents.createdAt, o.desde),
        ),
      )
      .limit(1);
    if (done) return false;
    const horas = hoursBetween(o.desde, now);
    const to = await nextPeople(tx, o, businessDate(now, deps.tz));
    // The wait's own event: `a` stays empty, so it never counts as reaching a status (waitingFor).
    await tx.insert(orderEvents).values({
      orderId: o.id,
      actorId: null,
      tipo: 'escalado',
      fromStatus: o.status,
      toStatus: null,
      changes: { horas, avisados: [...new Set(to.people.map((p) => p.id))], administradores: to.admins },
      createdAt: now,
    });
    await audit(tx, {
      userId: null,
      eventType: 'pedido_escalado',
      description: `Pedido #${orderNumber(o.id)} escalado tras ${horas} h esperando`,
      metadata: { id_pedido: o.id, estatus: o.status, horas, avisados: to.people.map((p) => p.id) },
    });
    await enqueueEmails(tx, escalationEmails(deps.publicUrl, deps.tz, o, horas, to));
    return true;
  });
}

/**
 * The escalation job's core: every open order of an active client with escalation on that has waited on its
 * level more than the client's hours, and has not escalated since it reached that level, escalates once.
 * Returns how many escalated.
 */
export async function runEscalations(
  deps: { db: Db; publicUrl: string; tz: string },
  now: Date,
): Promise<number> {
  let escalated = 0;
  for (const o of await overdueOrders(deps.db, now, clients.escalarHoras))
    if (await escalateOne(deps.db, deps, o, now)) escalated++;
  return escalated;
}

/** Declares the escalation queue and its schedule (called while the app is built). */
export function defineEscalationJobs(deps: Deps): void {
  defineMailJob(deps, {
    name: ESCALATION_QUEUE,
    cron: deps.config.ESCALATION_CRON,
    expireInSeconds: 10 * 60,
    run: runEscalations,
  });
}
