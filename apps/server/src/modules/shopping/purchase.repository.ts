/**
 * The purchase's writes as one statement of data-modifying CTEs (decisions 0073 and 0086): the order (its
 * number taken with the snapshot, its delivery address copied whole from the client's address book entry
 * the buyer chose or has as default, else from the buyer's profile: decisions 0094 and 0126), its lines (snapshotted from the cart read under the buyer's lock), its
 * events, its log entries, the cart's delete, the authorizers' e-mails and the running totals' move, in one
 * round trip inside the purchase's transaction.
 */
import type { LogEventType } from '@portal/shared/domain/log-events';
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { executeNamedOnce } from '../../db/prepared.ts';
import {
  cartItems,
  clientAddresses,
  orderEvents,
  orderLines,
  orders,
  systemLogs,
  users,
} from '../../db/schema/index.ts';
import { type Email, outboxCtes, outboxRows } from '../../lib/mailer.ts';
import { wantingEndpoints } from '../integration/webhook-outbox.ts';
import { PLACED_TOTALS } from '../orders/lifecycle.ts';
import type { CartLine } from './buyer-state.ts';

export interface PurchaseRows {
  /** The order's number, taken from the sequence by the purchase's read (`PurchaseRead`). */
  id: number;
  buyerId: number;
  idCliente: number;
  status: string;
  surtidoEstatus: string | null;
  totals: { subtotal: number; iva: number; total: number };
  at: Date;
  nota: string | null;
  /**
   * The address book entry the buyer chose (checked under its lock); null: its default, when it has an
   * active one, else its profile's address.
   */
  direccion: number | null;
  cart: readonly CartLine[];
  /** The client's rule that approved the order at purchase, if one did (the approval event's changes). */
  rule: Record<string, unknown> | null;
  /** The 'creado' event's status (pendiente when a rule approves it at once). */
  createdTo: string;
  /** The log entries' metadata besides the order's id (who and from where, the amounts). */
  createdMeta: Record<string, unknown>;
  approvedMeta: Record<string, unknown> | null;
  /** The e-mails the order's creation sends (to the level it waits for), written to the outbox with it. */
  emails: readonly Email[];
}

/** "#00042": the order's number as the log's descriptions write it (padStart, never cut). */
const NUMBER = sql`repeat('0', greatest(0, 5 - length(o.id::text))) || o.id::text`;

/** What the purchase's statement answers besides writing. */
export interface PurchaseWritten {
  /** The webhook endpoints that want the order's events (read in the same statement). */
  wanting: { creado: number[]; aprobado: number[] };
}

/**
 * Writes the order and everything that goes with it in one statement, the running totals' move included
 * (over the rows the statement writes; the caller holds the totals' shared lock from its read), and reads
 * which webhook endpoints want the order's events.
 */
export async function insertPurchase(tx: Tx, r: PurchaseRows): Promise<PurchaseWritten> {
  const lines = JSON.stringify(
    r.cart.map((l) => ({
      product_id: l.id,
      clave_interna: l.claveInterna,
      clave_cliente: l.claveCliente,
      nombre: l.nombre,
      unidad_de_medida: l.unidadDeMedida,
      id_categoria: l.idCategoria,
      categoria: l.categoria,
      precio: l.precio,
      impuesto: l.impuesto,
      cantidad: l.cantidad,
    })),
  );
  const created = {
    lineas: r.cart.map((l) => ({ id_producto: l.id, cantidad: l.cantidad })),
    total: r.totals.total,
  };
  const approved = r.rule !== null;
  // A named prepared statement on the transaction's connection: parsed and planned once per connection, and
  // built once per process (its values are placeholders).
  const [row] = await executeNamedOnce<{ id: number; creado: number[]; aprobado: number[] }>(
    tx,
    'portal_purchase',
    purchaseStatement,
    {
      id: r.id,
      buyerId: r.buyerId,
      idCliente: r.idCliente,
      status: r.status,
      surtidoEstatus: r.surtidoEstatus,
      subtotal: r.totals.subtotal,
      iva: r.totals.iva,
      total: r.totals.total,
      lineas: r.cart.length,
      at: r.at,
      nota: r.nota,
      direccion: r.direccion,
      lines,
      createdTo: r.createdTo,
      created: JSON.stringify(created),
      rule: JSON.stringify(r.rule),
      approved,
      createdText: ` creado (${r.status})`,
      createdMeta: JSON.stringify(r.createdMeta),
      approvedMeta: JSON.stringify(r.approvedMeta ?? {}),
      emails: outboxRows(r.emails),
    } satisfies Record<PurchaseValue, unknown>,
  );
  return { wanting: { creado: row!.creado, aprobado: row!.aprobado } };
}

/** The purchase statement's values (placeholders of `purchaseStatement`). */
type PurchaseValue =
  | 'id'
  | 'buyerId'
  | 'idCliente'
  | 'status'
  | 'surtidoEstatus'
  | 'subtotal'
  | 'iva'
  | 'total'
  | 'lineas'
  | 'at'
  | 'nota'
  | 'direccion'
  | 'lines'
  | 'createdTo'
  | 'created'
  | 'rule'
  | 'approved'
  | 'createdText'
  | 'createdMeta'
  | 'approvedMeta'
  | 'emails';
const v = (name: PurchaseValue) => sql.placeholder(name);

/** The purchase's statement, every value a placeholder (built once, `executeNamedOnce`). */
const purchaseStatement = () => sql`
    with o as (
      insert into ${orders} (id, id_user, id_cliente, status, surtido_estatus, subtotal, iva, total, lineas,
        transaction_date, nota, entrega, id_area)
      select ${v('id')}, ${v('buyerId')}, ${v('idCliente')}, ${v('status')}, ${v('surtidoEstatus')},
        ${v('subtotal')}, ${v('iva')}, ${v('total')}, ${v('lineas')}, ${v('at')}, ${v('nota')},
        case when a.id is null
          then jsonb_build_object('direccion_entrega', u.direccion_entrega, 'calle', u.calle, 'colonia', u.colonia,
            'ciudad', u.ciudad, 'estado', u.estado, 'cp', u.cp)
          else jsonb_build_object('id_direccion', a.id, 'nombre', a.nombre, 'calle', a.calle,
            'numero_exterior', a.numero_exterior, 'numero_interior', a.numero_interior, 'colonia', a.colonia,
            'municipio', a.municipio, 'ciudad', a.ciudad, 'estado', a.estado, 'cp', a.cp,
            'contacto', a.contacto, 'telefono', a.telefono, 'horario', a.horario)
        end,
        u.id_area
      from ${users} u
      left join ${clientAddresses} a on a.id = coalesce(${v('direccion')}::integer, u.id_direccion)
        and a.id_cliente = u.id_cliente and a.activo
      where u.id = ${v('buyerId')}
      returning *
    ), l as (
      insert into ${orderLines} (order_id, product_id, clave_interna, clave_cliente, nombre, unidad_de_medida,
        id_categoria, categoria, precio, impuesto, cantidad)
      select o.id, x.product_id, x.clave_interna, x.clave_cliente, x.nombre, x.unidad_de_medida, x.id_categoria,
        x.categoria, x.precio, x.impuesto, x.cantidad
      from o, rows from (jsonb_to_recordset(${v('lines')}::jsonb) as (product_id integer, clave_interna text,
        clave_cliente text, nombre text, unidad_de_medida text, id_categoria integer, categoria text,
        precio bigint, impuesto boolean, cantidad integer)) with ordinality as x(product_id, clave_interna,
        clave_cliente, nombre, unidad_de_medida, id_categoria, categoria, precio, impuesto, cantidad, n)
      order by x.n
      returning *
    ), e as (
      insert into ${orderEvents} (order_id, actor_id, tipo, from_status, to_status, changes)
      select o.id, v.actor, v.tipo, v.de, v.a, v.changes
      from o, (values
        (1, ${v('buyerId')}::integer, 'creado', null::text, ${v('createdTo')}::text, ${v('created')}::jsonb),
        (2, null::integer, 'aprobado', 'pendiente', 'aprobado', ${v('rule')}::jsonb)
      ) as v(n, actor, tipo, de, a, changes)
      where v.n = 1 or ${v('approved')}::boolean
      order by v.n
      returning 1
    ), g as (
      insert into ${systemLogs} (user_id, event_type, description, metadata, id_pedido, id_cliente)
      select ${v('buyerId')}::integer, v.tipo, 'Pedido #' || ${NUMBER} || v.texto,
        v.meta || jsonb_build_object('id_pedido', o.id), o.id, ${v('idCliente')}::integer
      from o, (values
        (1, ${'pedido_creado' satisfies LogEventType}::text, ${v('createdText')}::text, ${v('createdMeta')}::jsonb),
        (2, ${'pedido_aprobado' satisfies LogEventType}::text, ': aprobado por la regla de aprobación automática',
          ${v('approvedMeta')}::jsonb)
      ) as v(n, tipo, texto, meta)
      where v.n = 1 or ${v('approved')}::boolean
      order by v.n
      returning 1
    ), d as (
      delete from ${cartItems} where user_id = ${v('buyerId')} returning 1
    ), ${outboxCtes(v('emails'))}, ${PLACED_TOTALS}
    select o.id, (select count(*) from l) as lines, (select count(*) from e) as events,
      (select count(*) from g) as logs, (select count(*) from d) as cart, (select count(*) from m) as emails,
      (select count(*) from sales) as sales, (select count(*) from spend) as spend,
      (select count(*) from area_spend) as area_spend, ${wantingEndpoints(v('idCliente'), 'pedido.creado')} as creado,
      ${wantingEndpoints(v('idCliente'), 'pedido.aprobado')} as aprobado
    from o`;
