/**
 * The operators' daily digest of late lines (issue 41 item 2, decision 0125): every morning each active
 * operator (rol 4, with an address) gets one e-mail listing the lines promised before today that still have
 * units to ship, oldest promise first. At most one digest per operator and business date, whoever runs it and
 * however often (claimed on `late_line_digests` in the transaction that writes the e-mail); no late line, no
 * e-mail.
 */
import { orderNumber } from '@portal/shared/domain/order-workflow';
import { ROLES } from '@portal/shared/domain/roles';
import { businessDate, formatIsoDate } from '@portal/shared/domain/time';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { clients, lateLineDigests, orderLines, orders, users } from '../../db/schema/index.ts';
import type { Deps } from '../../lib/deps.ts';
import { orderEmail } from '../../lib/emails.ts';
import { defineMailJob } from '../../lib/mail-jobs.ts';
import { addressOf, enqueueEmail } from '../../lib/mailer.ts';
import { lateLine } from './fulfilment.service.ts';

export const LATE_DIGEST_QUEUE = 'resumen-atrasos';
/** 08:00 every day, read in the business time zone. */
export const LATE_DIGEST_CRON = '0 8 * * *';
/** The lines one digest lists; the rest are counted (the queue's «Atrasado» filter has them all). */
const DIGEST_LINES = 100;

/** The late lines of approved orders on `today` (business date), oldest promise first. */
export async function lateLines(db: Db, today: string) {
  return db
    .select({
      orderId: orderLines.orderId,
      nombre: orderLines.nombre,
      pendiente: sql<number>`${orderLines.cantidad} - ${orderLines.enviado}`,
      promesa: orderLines.fechaPromesa,
      cliente: clients.nombre,
    })
    .from(orderLines)
    .innerJoin(orders, eq(orders.id, orderLines.orderId))
    .innerJoin(clients, eq(clients.id, orders.idCliente))
    .where(and(lateLine(today), eq(orders.status, 'aprobado')))
    .orderBy(asc(orderLines.fechaPromesa), asc(orderLines.orderId), asc(orderLines.id));
}

/** Sends the digests due at `now`; answers how many e-mails it wrote. */
export async function runLateDigests(
  deps: { db: Db; publicUrl: string; tz: string },
  now: Date,
): Promise<number> {
  const fecha = businessDate(now, deps.tz);
  const late = await lateLines(deps.db, fecha);
  if (late.length === 0) return 0;
  const operators = await deps.db
    .select({ id: users.id, email: users.email, usuario: users.usuario, nombre: users.nombre })
    .from(users)
    .where(and(eq(users.rol, ROLES.administrador), eq(users.activo, true)))
    .orderBy(asc(users.id));
  const shown = late.slice(0, DIGEST_LINES);
  const more = late.length - shown.length;
  const n = late.length;
  const paragraphs = [
    n === 1
      ? 'Esta línea pasó su fecha prometida y aún no se envía:'
      : `Estas ${n} líneas pasaron su fecha prometida y aún no se envían:`,
    ...shown.map(
      (l) =>
        `#${orderNumber(l.orderId)} · ${l.cliente} · ${Number(l.pendiente)} × ${l.nombre} · prometida el ${formatIsoDate(l.promesa!)}`,
    ),
    ...(more > 0 ? [`…y ${more} más.`] : []),
  ];
  let sent = 0;
  for (const op of operators) {
    const to = addressOf(op);
    if (!to) continue;
    const done = await deps.db.transaction(async (tx) => {
      const claimed = await tx
        .insert(lateLineDigests)
        .values({ userId: op.id, fecha, lineas: n })
        .onConflictDoNothing()
        .returning({ userId: lateLineDigests.userId });
      if (claimed.length === 0) return false;
      await enqueueEmail(
        tx,
        orderEmail(to, op.nombre, {
          subject: n === 1 ? '1 línea atrasada por enviar' : `${n} líneas atrasadas por enviar`,
          paragraphs,
          url: `${deps.publicUrl}/administrador/surtido?atrasado=si`,
          label: 'Ver pedidos atrasados',
          para: { userId: op.id, tipo: 'envio' },
        }),
      );
      return true;
    });
    if (done) sent++;
  }
  return sent;
}

/** Declares the digest's queue and its daily schedule (called while the app is built). */
export function defineLateDigestJob(deps: Deps): void {
  defineMailJob(deps, {
    name: LATE_DIGEST_QUEUE,
    cron: LATE_DIGEST_CRON,
    expireInSeconds: 15 * 60,
    run: runLateDigests,
  });
}
