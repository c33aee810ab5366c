import type { TrackingLink } from '@portal/shared/domain/fulfilment';
import { formatCentavos } from '@portal/shared/domain/money';
import { orderNumber } from '@portal/shared/domain/order-workflow';
import { ROLES } from '@portal/shared/domain/roles';
import { and, eq } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { clients, orderEvents, orderLines, orderShipmentLines, users } from '../../db/schema/index.ts';
import { orderEmail } from '../../lib/emails.ts';
import { addressOf, type Email } from '../../lib/mailer.ts';

export interface OrderInfo {
  id: number;
  total: number;
  idCliente: number;
  buyerNombre: string;
}

/**
 * What a "por revisar" e-mail says of the order, as the approve dialog does (decision 0112): its lines, what
 * is left of the buyer's month after it, and what approving does.
 */
export interface ReviewSummary {
  /** The order's lines: name, quantity and amount before IVA (centavos). */
  lineas: readonly { nombre: string; cantidad: number; importe: number }[];
  /** What is left of the buyer's month after the order: the whole budget (`categoria` null), or each of its categories. */
  queda: readonly { categoria: string | null; restante: number }[];
  /** What approving does, in the approve dialog's words (`approvalOutcome`). */
  resultado: string;
}

/** The lines an e-mail lists; the rest are counted. */
const SUMMARY_LINES = 10;

function summaryParagraphs(order: OrderInfo, s: ReviewSummary): string[] {
  const shown = s.lineas.slice(0, SUMMARY_LINES);
  const more = s.lineas.length - shown.length;
  const left = (q: ReviewSummary['queda'][number]) => {
    const where = q.categoria === null ? '' : ` en ${q.categoria}`;
    return q.restante >= 0
      ? `Queda después${where}: ${formatCentavos(q.restante)} del presupuesto del mes de ${order.buyerNombre}.`
      : `Excede el presupuesto del mes de ${order.buyerNombre}${where} por ${formatCentavos(-q.restante)}.`;
  };
  return [
    ...shown.map((l) => `${l.cantidad} × ${l.nombre}: ${formatCentavos(l.importe)}`),
    ...(more > 0 ? [`…y ${more} ${more === 1 ? 'producto' : 'productos'} más.`] : []),
    `Total con IVA: ${formatCentavos(order.total)}`,
    ...s.queda.map(left),
    s.resultado,
    'Los botones abren el pedido en el portal: nada se aprueba ni se cancela hasta que lo confirmes ahí.',
  ];
}

/** Someone an order waits for: one of the level's authorizers, or whoever stands in for one today. */
export interface Reviewer {
  id: number;
  email: string;
  usuario: string;
  nombre: string;
}

/**
 * E-mails the level's people (its active authorizers and today's stand-ins, decision 0053, as the caller read
 * them) that an order waits for them, each person once.
 */
export function authorizerEmails(
  publicUrl: string,
  rol: 2 | 3,
  order: OrderInfo,
  people: readonly Reviewer[],
  summary: ReviewSummary | null = null,
): Email[] {
  const numero = orderNumber(order.id);
  const url = `${publicUrl}/autorizador/orden/${order.id}`;
  const paragraphs = [
    rol === ROLES.autorizador
      ? `${order.buyerNombre} envió el pedido #${numero} por ${formatCentavos(order.total)}. Está pendiente de tu revisión.`
      : `El pedido #${numero} de ${order.buyerNombre} por ${formatCentavos(order.total)} fue autorizado y espera tu aprobación final.`,
    ...(summary ? summaryParagraphs(order, summary) : []),
  ];
  // The buttons open the order with the dialog already open (through sign-in when needed); the
  // approval or cancellation is still confirmed there: a link never acts by itself.
  const actions = summary
    ? [
        { url: `${url}?accion=aprobar`, label: 'Aprobar' },
        { url: `${url}?accion=cancelar`, label: 'Cancelar' },
      ]
    : [];
  return toEachOnce(people, (to, r) =>
    orderEmail(to, r.nombre, {
      subject: `Pedido #${numero} por revisar`,
      paragraphs,
      url,
      label: 'Revisar pedido',
      actions,
      para: { userId: r.id, tipo: 'por_revisar' },
    }),
  );
}

/**
 * One message to each person, once: a delegate may stand in for two of the level, or be one of the level too.
 * A person without an address still gets the bell's item when the message is one (`aviso`, decision 0114);
 * its e-mail is not sent (`to` is empty).
 */
export function toEachOnce(people: readonly Reviewer[], build: (to: string, r: Reviewer) => Email): Email[] {
  const emails: Email[] = [];
  for (const [i, r] of people.entries()) {
    if (people.findIndex((o) => o.id === r.id) !== i) continue;
    const to = addressOf(r) ?? '';
    const email = build(to, r);
    if (to || email.aviso) emails.push(email);
  }
  return emails;
}

/**
 * E-mails level 1 that the Super Autorizador sent an order back to it (decision 0111), with the comment:
 * each person once.
 */
export function returnedEmails(
  publicUrl: string,
  order: OrderInfo,
  by: string,
  comentario: string,
  people: readonly Reviewer[],
): Email[] {
  const numero = orderNumber(order.id);
  return toEachOnce(people, (to, r) =>
    orderEmail(to, r.nombre, {
      subject: `Pedido #${numero} devuelto al primer nivel`,
      paragraphs: [
        `${by} devolvió al primer nivel el pedido #${numero} de ${order.buyerNombre} por ${formatCentavos(order.total)}. Está otra vez pendiente de tu revisión.`,
        `Comentario: ${comentario}`,
        'Corrígelo y vuelve a autorizarlo, o cancélalo.',
      ],
      url: `${publicUrl}/autorizador/orden/${order.id}`,
      label: 'Revisar pedido',
      para: { userId: r.id, tipo: 'por_revisar' },
    }),
  );
}

/**
 * To the buyer: its order was approved (with its purchase-order PDF) or cancelled (with the reason). Without
 * an address only the bell's item is written (decision 0114).
 */
export function buyerEmail(
  publicUrl: string,
  buyer: { id: number; email: string; usuario: string; nombre: string },
  order: { id: number; total: number },
  outcome: 'aprobado' | 'cancelado',
  motivo?: string | null,
): Email {
  const to = addressOf(buyer) ?? '';
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
      para: { userId: buyer.id, tipo: 'pedido' },
    }),
    // The purchase order goes with the approval, rendered when the message is sent (decision 0056).
    ...(outcome === 'aprobado' ? { adjunto: { tipo: 'orden_compra', id_pedido: order.id } as const } : {}),
  };
}

/** To the buyer: the order is on its way, with the carrier's reference when there is one. */
export async function shippedEmail(
  tx: Tx,
  publicUrl: string,
  order: { id: number; idUser: number; total: number },
  guia: TrackingLink | null,
): Promise<Email[]> {
  const [buyer] = await tx
    .select({ email: users.email, usuario: users.usuario, nombre: users.nombre })
    .from(users)
    .where(eq(users.id, order.idUser));
  if (!buyer) return [];
  const to = addressOf(buyer) ?? '';
  const numero = orderNumber(order.id);
  return [
    orderEmail(to, buyer.nombre, {
      subject: `Pedido #${numero} enviado`,
      paragraphs: [
        `Tu pedido #${numero} por ${formatCentavos(order.total)} va en camino.`,
        guia ? `Guía de envío: ${guia.texto}` : 'El envío no tiene guía de rastreo.',
        ...(guia?.url ? [`Rastreo: ${guia.url}`] : []),
        'Cuando lo recibas, confírmalo en el portal con «Recibido» y anota si faltó o llegó dañado algún artículo.',
      ],
      url: `${publicUrl}/usuario/historial/${order.id}`,
      label: 'Ver pedido',
      para: { userId: order.idUser, tipo: 'envio' },
    }),
  ];
}

/**
 * Who an e-mail to the operators goes to (the active administrators, rol 4; the portal has no separate
 * operators' mailbox) and how it names the order's buyer (name and client).
 */
export async function operatorsAndBuyer(tx: Tx, idUser: number) {
  const [buyer] = await tx
    .select({ nombre: users.nombre, cliente: clients.nombre })
    .from(users)
    .innerJoin(clients, eq(clients.id, users.idCliente))
    .where(eq(users.id, idUser));
  const operators = await tx
    .select({ id: users.id, email: users.email, usuario: users.usuario, nombre: users.nombre })
    .from(users)
    .where(and(eq(users.rol, ROLES.administrador), eq(users.activo, true)));
  return { buyer, operators };
}

/**
 * To the operators: the note on receipt of who received (`by`: the buyer, or a receiver named by the client,
 * decision 0130). The operators are the active administrators (rol 4) with an address (docs/domain.md
 * "E-mail"); the portal has no separate operators' mailbox.
 */
export async function receiptNoteEmails(
  tx: Tx,
  publicUrl: string,
  order: { id: number },
  nota: string,
  by: number,
): Promise<Email[]> {
  const { buyer, operators } = await operatorsAndBuyer(tx, by);
  const numero = orderNumber(order.id);
  return toEachOnce(operators, (to, op) =>
    orderEmail(to, op.nombre, {
      subject: `Pedido #${numero} recibido con una nota`,
      paragraphs: [
        `${buyer?.nombre ?? 'El comprador'} (${buyer?.cliente ?? ''}) confirmó que recibió el pedido #${numero} y dejó esta nota:`,
        nota,
      ],
      url: `${publicUrl}/administrador/pedidos/${order.id}`,
      label: 'Ver pedido',
      para: { userId: op.id, tipo: 'envio' },
    }),
  );
}

/** What one shipment carries, as its e-mail lists it: quantity and product, in line order. */
async function shipmentLines(tx: Tx, shipmentId: number) {
  return tx
    .select({ nombre: orderLines.nombre, cantidad: orderShipmentLines.cantidad })
    .from(orderShipmentLines)
    .innerJoin(orderLines, eq(orderLines.id, orderShipmentLines.orderLineId))
    .where(eq(orderShipmentLines.shipmentId, shipmentId))
    .orderBy(orderLines.id);
}

/**
 * To the buyer: a shipment of the order left (decision 0125), with its lines, its guía and, when units are
 * still to ship, that more will follow. The remisión of the shipment is in the order's page.
 */
export async function shipmentEmail(
  tx: Tx,
  publicUrl: string,
  order: { id: number; idUser: number },
  envio: { id: number; numero: number },
  guia: TrackingLink | null,
  surtido: 'parcial' | 'enviado',
): Promise<Email[]> {
  const [buyer] = await tx
    .select({ email: users.email, usuario: users.usuario, nombre: users.nombre })
    .from(users)
    .where(eq(users.id, order.idUser));
  if (!buyer) return [];
  const numero = orderNumber(order.id);
  const lines = await shipmentLines(tx, envio.id);
  const shown = lines.slice(0, SUMMARY_LINES);
  const more = lines.length - shown.length;
  return [
    orderEmail(addressOf(buyer) ?? '', buyer.nombre, {
      subject:
        surtido === 'parcial'
          ? `Pedido #${numero}: envío ${envio.numero} en camino (parcial)`
          : `Pedido #${numero}: envío ${envio.numero} en camino`,
      paragraphs: [
        surtido === 'parcial'
          ? `Parte de tu pedido #${numero} va en camino. Lo demás se enviará después.`
          : `El último envío de tu pedido #${numero} va en camino.`,
        ...shown.map((l) => `${l.cantidad} × ${l.nombre}`),
        ...(more > 0 ? [`…y ${more} ${more === 1 ? 'producto' : 'productos'} más.`] : []),
        guia ? `Guía de envío: ${guia.texto}` : 'El envío no tiene guía de rastreo.',
        ...(guia?.url ? [`Rastreo: ${guia.url}`] : []),
      ],
      url: `${publicUrl}/usuario/historial/${order.id}`,
      label: 'Ver pedido',
      para: { userId: order.idUser, tipo: 'envio' },
    }),
  ];
}

/**
 * To the buyer and to the approvers who approved the order: units of a line were cancelled as unavailable
 * (decision 0125), with the reason and the order's new total; their amount no longer counts in the month.
 */
export async function lineCancelledEmails(
  tx: Tx,
  publicUrl: string,
  order: { id: number; idUser: number; total: number },
  linea: { cantidad: number; nombre: string },
  motivo: string,
  totalAnterior: number,
): Promise<Email[]> {
  const numero = orderNumber(order.id);
  const buyer = await tx
    .select({ id: users.id, email: users.email, usuario: users.usuario, nombre: users.nombre })
    .from(users)
    .where(eq(users.id, order.idUser));
  const approvers = await tx
    .selectDistinct({ id: users.id, email: users.email, usuario: users.usuario, nombre: users.nombre })
    .from(orderEvents)
    .innerJoin(users, eq(users.id, orderEvents.actorId))
    .where(and(eq(orderEvents.orderId, order.id), eq(orderEvents.tipo, 'aprobado'), eq(users.activo, true)));
  const paragraphs = [
    `Se cancelaron ${linea.cantidad} de «${linea.nombre}» del pedido #${numero} porque no hay existencia.`,
    `Motivo: ${motivo}`,
    `El total del pedido pasó de ${formatCentavos(totalAnterior)} a ${formatCentavos(order.total)}; la diferencia ya no cuenta en el presupuesto del mes.`,
  ];
  return [
    ...toEachOnce(buyer, (to, b) =>
      orderEmail(to, b.nombre, {
        subject: `Pedido #${numero}: se canceló un producto sin existencia`,
        paragraphs,
        url: `${publicUrl}/usuario/historial/${order.id}`,
        label: 'Ver pedido',
        para: { userId: b.id, tipo: 'pedido' },
      }),
    ),
    ...toEachOnce(
      approvers.filter((a) => a.id !== order.idUser),
      (to, a) =>
        orderEmail(to, a.nombre, {
          subject: `Pedido #${numero}: se canceló un producto sin existencia`,
          paragraphs,
          url: `${publicUrl}/autorizador/orden/${order.id}`,
          label: 'Ver pedido',
          para: { userId: a.id, tipo: 'pedido' },
        }),
    ),
  ];
}

/**
 * «Factura disponible» (decision 0133): to each of the client's billing addresses (`correos_facturacion`) when
 * an invoice (tipo I) is registered for one of its orders: the order, the folio, the UUID, the total and the
 * SAT's verification link; nothing that signs anyone in.
 */
export async function invoiceAvailableEmails(
  tx: Tx,
  order: { id: number; idCliente: number },
  factura: { uuid: string; serie: string | null; folio: string | null; total: number },
  verificacion: string,
): Promise<Email[]> {
  const [client] = await tx
    .select({ correos: clients.correosFacturacion, razonSocial: clients.razonSocial, nombre: clients.nombre })
    .from(clients)
    .where(eq(clients.id, order.idCliente));
  const numero = orderNumber(order.id);
  const folio = [factura.serie, factura.folio].filter(Boolean).join('-');
  return (client?.correos ?? []).map((to) =>
    orderEmail(to, client?.razonSocial ?? client?.nombre ?? '', {
      subject: `Factura disponible del pedido #${numero}`,
      paragraphs: [
        `La factura ${folio ? `${folio} ` : ''}del pedido #${numero} por ${formatCentavos(factura.total)} está disponible en el portal.`,
        `Folio fiscal (UUID): ${factura.uuid}`,
        'Quien hizo el pedido, sus autorizadores y el administrador de la empresa pueden descargar el XML y el PDF desde el pedido.',
      ],
      url: verificacion,
      label: 'Verificar en el SAT',
    }),
  );
}
