import { formatCentavos } from '@portal/shared/domain/money';
import { orderNumber } from '@portal/shared/domain/order-workflow';
import { ROLES } from '@portal/shared/domain/roles';
import type { Tx } from '../../db/client.ts';
import { orderEmail } from '../../lib/emails.ts';
import { addressOf, type Email, enqueueEmail, enqueueEmails } from '../../lib/mailer.ts';
import { type LevelPerson, levelWithStandIns } from './delegation.service.ts';

export interface OrderInfo {
  id: number;
  total: number;
  idCliente: number;
  buyerNombre: string;
}

/**
 * E-mails the client's active authorizers of a role that an order waits for them, and whoever stands in for
 * one of them today (an out-of-office delegate, decision 0053), each person once.
 */
export async function notifyAuthorizers(
  tx: Tx,
  publicUrl: string,
  rol: 2 | 3,
  order: OrderInfo,
  /** Today's business date (delegation windows are read against it). */
  day: string,
): Promise<void> {
  const people = await levelWithStandIns(tx, order.idCliente, rol, day);
  await enqueueEmails(tx, authorizerEmails(publicUrl, rol, order, people));
}

/** The messages of `notifyAuthorizers` for the level's people as read (the purchase reads them in its statement). */
export function authorizerEmails(
  publicUrl: string,
  rol: 2 | 3,
  order: OrderInfo,
  people: readonly LevelPerson[],
): Email[] {
  // Each person once: a delegate may stand in for two of the level, or be one of the level too.
  const recipients = people.filter((r, i, all) => all.findIndex((o) => o.id === r.id) === i);
  const numero = orderNumber(order.id);
  const emails: Email[] = [];
  for (const r of recipients) {
    const to = addressOf(r);
    if (!to) continue;
    emails.push(
      orderEmail(to, r.nombre, {
        subject: `Pedido #${numero} por revisar`,
        paragraphs: [
          rol === ROLES.autorizador
            ? `${order.buyerNombre} envió el pedido #${numero} por ${formatCentavos(order.total)}. Está pendiente de tu revisión.`
            : `El pedido #${numero} de ${order.buyerNombre} por ${formatCentavos(order.total)} fue autorizado y espera tu aprobación final.`,
        ],
        url: `${publicUrl}/autorizador/orden/${order.id}`,
        label: 'Revisar pedido',
      }),
    );
  }
  return emails;
}

/** E-mails the buyer that its order was approved (with its purchase-order PDF) or cancelled (with the reason). */
export async function notifyBuyer(
  tx: Tx,
  publicUrl: string,
  buyer: { email: string; usuario: string; nombre: string },
  order: { id: number; total: number },
  outcome: 'aprobado' | 'cancelado',
  motivo?: string | null,
): Promise<void> {
  const email = buyerEmail(publicUrl, buyer, order, outcome, motivo);
  if (email) await enqueueEmail(tx, email);
}

/** The message of `notifyBuyer`, or null when the buyer has no address (an approval writes it in its statement). */
export function buyerEmail(
  publicUrl: string,
  buyer: { email: string; usuario: string; nombre: string },
  order: { id: number; total: number },
  outcome: 'aprobado' | 'cancelado',
  motivo?: string | null,
): Email | null {
  const to = addressOf(buyer);
  if (!to) return null;
  const numero = orderNumber(order.id);
  const paragraphs =
    outcome === 'aprobado'
      ? [`Tu pedido #${numero} por ${formatCentavos(order.total)} fue aprobado.`]
      : [`Tu pedido #${numero} fue cancelado.`, ...(motivo ? [`Motivo: ${motivo}`] : [])];
  return {
    ...orderEmail(to, buyer.nombre, {
      subject: outcome === 'aprobado' ? `Pedido #${numero} aprobado` : `Pedido #${numero} cancelado`,
      paragraphs,
      url: `${publicUrl}/usuario/historial/${order.id}`,
      label: 'Ver pedido',
    }),
    // The purchase order goes with the approval, rendered when the message is sent (decision 0056).
    ...(outcome === 'aprobado' ? { adjunto: { tipo: 'orden_compra', id_pedido: order.id } as const } : {}),
  };
}
