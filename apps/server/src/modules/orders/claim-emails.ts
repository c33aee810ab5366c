/**
 * The e-mails of claims (decision 0127): the operators hear of a claim opened, the buyer of the operator's
 * decision. Each is also an item of the person's bell ("Envíos y recepciones").
 */
import {
  CLAIM_REASON_LABELS,
  CLAIM_RESOLUTION_LABELS,
  type ClaimReason,
  type ClaimResolution,
} from '@portal/shared/domain/claims';
import { formatCentavos } from '@portal/shared/domain/money';
import { orderNumber } from '@portal/shared/domain/order-workflow';
import { eq, inArray } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { users } from '../../db/schema/index.ts';
import { orderEmail } from '../../lib/emails.ts';
import { addressOf, type Email } from '../../lib/mailer.ts';
import { operatorsAndBuyer, toEachOnce } from './notifications.ts';

/** The lines an e-mail lists; the rest are counted. */
const SHOWN_LINES = 10;

/** A claim as its e-mails describe it. */
export interface ClaimSummary {
  numero: number;
  /** The shipment whose receipt opened it, else null (opened by hand). */
  envio: number | null;
  resolucion: ClaimResolution;
  nota: string | null;
  lineas: readonly { nombre: string; cantidad: number; motivo: ClaimReason }[];
}

function lineParagraphs(lineas: ClaimSummary['lineas']): string[] {
  const shown = lineas.slice(0, SHOWN_LINES);
  const more = lineas.length - shown.length;
  return [
    ...shown.map((l) => `${l.cantidad} × ${l.nombre} (${CLAIM_REASON_LABELS[l.motivo]})`),
    ...(more > 0 ? [`…y ${more} ${more === 1 ? 'producto' : 'productos'} más.`] : []),
  ];
}

/**
 * To the operators (every active rol-4 user with an address, as the receipt's note goes; docs/domain.md
 * "E-mail"): a claim was opened, with its lines, what the buyer asks for and the note.
 */
export async function claimOpenedEmails(
  tx: Tx,
  publicUrl: string,
  order: { id: number },
  claim: ClaimSummary,
  /** Who opened it: the buyer, or a receiver named by the client (decision 0130). */
  by: number,
): Promise<Email[]> {
  const { buyer, operators } = await operatorsAndBuyer(tx, by);
  const numero = orderNumber(order.id);
  const who = `${buyer?.nombre ?? 'El comprador'} (${buyer?.cliente ?? ''})`;
  const paragraphs = [
    claim.envio === null
      ? `${who} abrió el reclamo ${claim.numero} del pedido #${numero}.`
      : `${who} abrió el reclamo ${claim.numero} del pedido #${numero} al recibir el envío ${claim.envio}.`,
    ...lineParagraphs(claim.lineas),
    `Solicita: ${CLAIM_RESOLUTION_LABELS[claim.resolucion]}.`,
    ...(claim.nota ? [`Nota: ${claim.nota}`] : []),
    'Decídelo en el portal: acéptalo (reposición o crédito), recházalo con un motivo o pide la devolución.',
  ];
  return toEachOnce(operators, (to, op) =>
    orderEmail(to, op.nombre, {
      subject: `Pedido #${numero}: reclamo ${claim.numero} abierto`,
      paragraphs,
      url: `${publicUrl}/administrador/pedidos/${order.id}`,
      label: 'Ver pedido',
      para: { userId: op.id, tipo: 'envio' },
    }),
  );
}

/** What the operator decided, as the buyer's e-mail says it. */
export type ClaimOutcome =
  | { accion: 'reposicion'; envio: number; nota: string | null }
  | { accion: 'credito'; credito: number; nota: string | null }
  | { accion: 'rechazar'; motivo: string }
  | { accion: 'devolucion'; guia: string; paqueteria: string | null; nota: string | null };

function outcomeParagraphs(numero: string, claim: number, o: ClaimOutcome): string[] {
  switch (o.accion) {
    case 'reposicion':
      return [
        `Aceptamos el reclamo ${claim} de tu pedido #${numero}: te enviaremos las unidades de reposición (envío ${o.envio}), sin costo para tu presupuesto.`,
        ...(o.nota ? [`Nota: ${o.nota}`] : []),
        'Cuando lleguen, registra su recepción en el pedido.',
      ];
    case 'credito':
      return [
        `Aceptamos el reclamo ${claim} de tu pedido #${numero} con un crédito de ${formatCentavos(o.credito)}.`,
        'El importe ya no cuenta en tu presupuesto: si el mes del pedido ya terminó, se suma a tu presupuesto de este mes.',
        ...(o.nota ? [`Nota: ${o.nota}`] : []),
      ];
    case 'rechazar':
      return [`Rechazamos el reclamo ${claim} de tu pedido #${numero}.`, `Motivo: ${o.motivo}`];
    case 'devolucion':
      return [
        `Para resolver el reclamo ${claim} de tu pedido #${numero} necesitamos que nos devuelvas la mercancía.`,
        `Guía de devolución: ${o.paqueteria ? `${o.paqueteria} ` : ''}${o.guia}`,
        ...(o.nota ? [`Nota: ${o.nota}`] : []),
      ];
  }
}

const OUTCOME_SUBJECT: Record<ClaimOutcome['accion'], string> = {
  reposicion: 'aceptado',
  credito: 'aceptado',
  rechazar: 'rechazado',
  devolucion: 'devolución solicitada',
};

/** To the buyer: the operator's decision on a claim, linking to the order like the other buyer e-mails. */
export async function claimDecidedEmail(
  tx: Tx,
  publicUrl: string,
  order: { id: number; idUser: number },
  claim: number,
  outcome: ClaimOutcome,
): Promise<Email[]> {
  const [buyer] = await tx
    .select({ email: users.email, usuario: users.usuario, nombre: users.nombre })
    .from(users)
    .where(eq(users.id, order.idUser));
  if (!buyer) return [];
  const numero = orderNumber(order.id);
  return [
    orderEmail(addressOf(buyer) ?? '', buyer.nombre, {
      subject: `Pedido #${numero}: reclamo ${claim} ${OUTCOME_SUBJECT[outcome.accion]}`,
      paragraphs: outcomeParagraphs(numero, claim, outcome),
      url: `${publicUrl}/usuario/historial/${order.id}`,
      label: 'Ver pedido',
      para: { userId: order.idUser, tipo: 'envio' },
    }),
  ];
}

/**
 * To the buyer when a receiver named by the client (decision 0130) received a shipment of its order: who
 * received it and, with differences, the claim it opened.
 */
export async function receivedForBuyerEmail(
  tx: Tx,
  publicUrl: string,
  order: { id: number; idUser: number },
  receipt: { envio: number; receptorId: number; reclamo: ClaimSummary | null; nota: string | null },
): Promise<Email[]> {
  const people = await tx
    .select({ id: users.id, email: users.email, usuario: users.usuario, nombre: users.nombre })
    .from(users)
    .where(inArray(users.id, [order.idUser, receipt.receptorId]));
  const buyer = people.find((p) => p.id === order.idUser);
  const receptor = people.find((p) => p.id === receipt.receptorId)?.nombre ?? 'el receptor';
  if (!buyer) return [];
  const numero = orderNumber(order.id);
  const { reclamo } = receipt;
  const paragraphs = [
    `Tu envío ${receipt.envio} del pedido #${numero} fue recibido por ${receptor}.`,
    ...(reclamo
      ? [
          `Llegó con diferencias: se abrió el reclamo ${reclamo.numero} (solicita ${CLAIM_RESOLUTION_LABELS[reclamo.resolucion].toLowerCase()}).`,
          ...lineParagraphs(reclamo.lineas),
        ]
      : ['Llegó completo y en buen estado.']),
    ...(receipt.nota ? [`Nota: ${receipt.nota}`] : []),
  ];
  return [
    orderEmail(addressOf(buyer) ?? '', buyer.nombre, {
      subject: `Pedido #${numero}: envío ${receipt.envio} recibido por ${receptor}`,
      paragraphs,
      url: `${publicUrl}/usuario/historial/${order.id}`,
      label: 'Ver pedido',
      para: { userId: order.idUser, tipo: 'envio' },
    }),
  ];
}
