import {
  DELIVERY_PARTS,
  deliveryAddress,
  deliveryContact,
  type OrderDelivery,
} from '@portal/shared/domain/delivery';
import type { FulfilmentState } from '@portal/shared/domain/fulfilment';
import { pesosToCentavos } from '@portal/shared/domain/money';
import type { ClaimDto } from '@portal/shared/schemas/claims';
import type { V1Claim, V1Order, V1OrderCredit } from '@portal/shared/schemas/integration';
import type { OrderStatus } from '@portal/shared/schemas/orders';
import { asc, eq, inArray, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { claimsOf } from '../../db/order-claims.ts';
import { shipmentsOf } from '../../db/order-shipments.ts';
import { selectOrdersWithParties } from '../../db/orders-with-parties.ts';
import { allOn } from '../../db/prepared.ts';
import { areas, clients, orderEvents, orderLines, orders, users } from '../../db/schema/index.ts';

/**
 * The one serializer of an order for integrations: the v1 API's list and detail and every webhook body
 * (decision 0059). Amounts are integer centavos exactly as stored; lines are the purchase's frozen
 * snapshot. A field added to the v1 order is added here and in `V1Order`
 * (packages/shared/src/schemas/integration.ts), and reaches the API and the webhooks at once.
 * Answers in the order of `ids`; an id without a row is left out. Runs in a caller's transaction too (its
 * three reads then one after the other).
 */
export async function v1Orders(db: Db | Tx, ids: number[]): Promise<V1Order[]> {
  if (ids.length === 0) return [];
  const [heads, lines, events] = await allOn(db, [
    selectOrdersWithParties(db, {
      id: orders.id,
      status: orders.status,
      fecha: orders.transactionDate,
      subtotal: orders.subtotal,
      iva: orders.iva,
      total: orders.total,
      nota: orders.nota,
      motivo: orders.cancelReason,
      surtido: orders.surtidoEstatus,
      guia: orders.guia,
      notaRecepcion: orders.notaRecepcion,
      buyerId: users.id,
      usuario: users.usuario,
      buyerNombre: users.nombre,
      email: users.email,
      areaTexto: users.area,
      entrega: orders.entrega,
      paqueteria: orders.paqueteria,
      retenido: orders.retenidoCredito,
      clientId: clients.id,
      clientNombre: clients.nombre,
      // The área the order was charged to (decision 0123), if any.
      area: sql<V1Order['centro_de_costo']>`(select json_build_object('id', a.id, 'codigo', a.codigo,
        'nombre', a.nombre, 'cuenta_contable', a.cuenta_contable) from ${areas} a where a.id = ${orders.idArea})`,
    }).where(inArray(orders.id, ids)),
    db
      .select()
      .from(orderLines)
      .where(inArray(orderLines.orderId, ids))
      .orderBy(asc(orderLines.orderId), asc(orderLines.id)),
    db
      .select({
        id: orderEvents.id,
        orderId: orderEvents.orderId,
        tipo: orderEvents.tipo,
        de: orderEvents.fromStatus,
        a: orderEvents.toStatus,
        fecha: orderEvents.createdAt,
        actor: users.nombre,
        motivo: orderEvents.reason,
      })
      .from(orderEvents)
      .leftJoin(users, eq(users.id, orderEvents.actorId))
      .where(inArray(orderEvents.orderId, ids))
      .orderBy(asc(orderEvents.orderId), asc(orderEvents.id)),
  ]);
  const shipments = await shipmentsOf(db, ids);
  const claims = await claimsOf(db, ids);
  const byId = new Map(heads.map((h) => [h.id, h]));
  return ids.flatMap((id) => {
    const h = byId.get(id);
    if (!h) return [];
    const eventos = events.filter((e) => e.orderId === id);
    return [
      {
        id: h.id,
        numero: String(h.id).padStart(5, '0'),
        estatus: h.status as OrderStatus,
        fecha: h.fecha.toISOString(),
        moneda: 'MXN' as const,
        subtotal_centavos: h.subtotal,
        iva_centavos: h.iva,
        total_centavos: h.total,
        nota: h.nota,
        motivo_cancelacion: h.motivo,
        surtido: h.surtido as FulfilmentState | null,
        guia: h.guia,
        paqueteria: h.paqueteria,
        nota_recepcion: h.notaRecepcion,
        entrega: v1Delivery(h.entrega),
        comprador: {
          id: h.buyerId,
          usuario: h.usuario,
          nombre: h.buyerNombre,
          email: h.email,
          area: h.areaTexto,
          direccion_entrega: h.entrega.direccion_entrega ?? '',
        },
        cliente: { id: h.clientId, nombre: h.clientNombre },
        centro_de_costo: h.area,
        credito: v1Credit(h.retenido, eventos),
        lineas: lines
          .filter((l) => l.orderId === id)
          .map((l) => ({
            id: l.id,
            id_producto: l.productId,
            clave_interna: l.claveInterna,
            clave_cliente: l.claveCliente,
            nombre: l.nombre,
            unidad_de_medida: l.unidadDeMedida,
            categoria: l.categoria,
            cantidad: l.cantidad,
            precio_unitario_centavos: l.precio,
            impuesto: l.impuesto,
            importe_centavos: l.precio * l.cantidad,
            enviado: l.enviado,
            cancelado: l.cancelado,
            motivo_cancelacion: l.motivoCancelacion,
            fecha_promesa: l.fechaPromesa,
            acreditado: l.acreditado,
            reclamado: l.reclamado,
          })),
        envios: shipments.get(id) ?? [],
        reclamos: (claims.get(id) ?? []).map(v1Claim),
        eventos: eventos.map((e) => ({
          id: e.id,
          tipo: e.tipo,
          de: e.de,
          a: e.a,
          fecha: e.fecha.toISOString(),
          actor: e.actor,
          motivo: e.motivo,
        })),
      },
    ];
  });
}

/**
 * The order's credit state (decision 0136) from what it stores: the hold's reason on the order
 * (`retenido_credito`, decision 0134) and its history's `retenido_credito`, `liberado_credito` and
 * `aviso_credito` events (oldest first), so a released order still says why and when it was held.
 */
function v1Credit(
  held: string | null,
  events: readonly { tipo: string; fecha: Date; motivo: string | null }[],
): V1OrderCredit {
  const last = (tipo: string) => events.filter((e) => e.tipo === tipo).at(-1);
  const hold = last('retenido_credito');
  const release = last('liberado_credito');
  return {
    retenido: held !== null,
    motivo: held ?? hold?.motivo ?? null,
    retenido_desde: hold?.fecha.toISOString() ?? null,
    liberado_en: held === null && release ? release.fecha.toISOString() : null,
    aviso: last('aviso_credito')?.motivo ?? null,
  };
}

/** A claim as the integrations get it: its credit in integer centavos, as every v1 amount (decision 0127). */
export function v1Claim({ credito, ...claim }: ClaimDto): V1Claim {
  return { ...claim, credito_centavos: pesosToCentavos(credito) };
}

/** The parts every order's copy has (decision 0094); an address book copy has the rest too (0126). */
const PROFILE_PARTS = ['direccion_entrega', 'calle', 'colonia', 'ciudad', 'estado', 'cp'] as const;

/**
 * The order's copied delivery address: every part ('' when not given) and the whole line (decision 0094);
 * a copy of an address book entry also its id, label, numbers, municipio and who receives (decision 0126).
 */
function v1Delivery(entrega: OrderDelivery): V1Order['entrega'] {
  const book = typeof entrega.id_direccion === 'number';
  const keys = book ? DELIVERY_PARTS : PROFILE_PARTS;
  const parts = Object.fromEntries(keys.map((k) => [k, entrega[k] ?? ''])) as Record<
    (typeof PROFILE_PARTS)[number],
    string
  >;
  const whole = { ...parts, completa: deliveryAddress(entrega) };
  return book
    ? { id_direccion: entrega.id_direccion, ...whole, contacto_completo: deliveryContact(entrega) }
    : whole;
}
