/** Administration (rol 4): one search over users and orders for support, and an order read-only. */
import { z } from 'zod';
import { isMonthKey } from '../domain/months.ts';
import { SEARCH_MAX_LENGTH } from '../limits.ts';
import { MSG } from '../messages.ts';
import { PageQuery } from './form-fields.ts';
import { OrderDetailDto, OrderStatus } from './orders.ts';
import { listSort, type SortValue } from './sort.ts';

/** The fewest characters a support search needs. */
export const SUPPORT_SEARCH_MIN_LENGTH = 2;
/** The most users and the most orders a support search answers. */
export const SUPPORT_SEARCH_LIMIT = 10;

export const SupportSearchQuery = z.object({
  q: z
    .string({ error: MSG.busquedaMuyCorta })
    .trim()
    .min(SUPPORT_SEARCH_MIN_LENGTH, MSG.busquedaMuyCorta)
    .max(SEARCH_MAX_LENGTH, MSG.busquedaMuyLarga),
});
export type SupportSearchQuery = z.infer<typeof SupportSearchQuery>;

export const SupportUserHit = z.object({
  id: z.number().int(),
  usuario: z.string(),
  nombre: z.string(),
  email: z.string(),
  rol: z.number().int(),
  id_cliente: z.number().int(),
  cliente: z.string(),
});
export type SupportUserHit = z.infer<typeof SupportUserHit>;

export const SupportOrderHit = z.object({
  id: z.number().int(),
  status: OrderStatus,
  total: z.number(),
  transaction_date: z.string(),
  usuario: z.string(),
  nombre: z.string(),
  id_cliente: z.number().int(),
  cliente: z.string(),
});
export type SupportOrderHit = z.infer<typeof SupportOrderHit>;

export const SupportSearchResponse = z.object({
  usuarios: z.array(SupportUserHit),
  pedidos: z.array(SupportOrderHit),
});
export type SupportSearchResponse = z.infer<typeof SupportSearchResponse>;

/** GET /api/admin/pedidos/{id}: an order read-only, with its buyer and client. */
export const AdminOrderResponse = z.object({
  pedido: OrderDetailDto,
  comprador: z.object({ id: z.number().int(), usuario: z.string(), nombre: z.string() }),
  cliente: z.object({ id: z.number().int(), nombre: z.string() }),
});
export type AdminOrderResponse = z.infer<typeof AdminOrderResponse>;

/** What the administrator's order list filters by: one status, or both that wait for an authorizer. */
export const AdminOrderFilter = z.enum(['por_autorizar', ...OrderStatus.options], {
  error: MSG.estatusPedidoInvalido,
});
export type AdminOrderFilter = z.infer<typeof AdminOrderFilter>;

/** The administrator's order list sorts by date (newest first, the default) or by total. */
export const ADMIN_ORDERS_SORT = listSort(['fecha', 'total'], 'fecha_desc');
export type AdminOrdersSortField = 'fecha' | 'total';
export type AdminOrdersSort = SortValue<AdminOrdersSortField>;

/** GET /api/admin/pedidos: every client's orders by status (and business month), sorted (newest first). */
export const AdminOrdersQuery = z.object({
  estatus: AdminOrderFilter.default('por_autorizar'),
  /** A business month, YYYY-MM (the overview's figures are the current month's). */
  mes: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z.string().refine(isMonthKey, MSG.mesInvalido).optional(),
  ),
  page: PageQuery,
  orden: ADMIN_ORDERS_SORT.schema,
});
export type AdminOrdersQuery = z.infer<typeof AdminOrdersQuery>;

export const AdminOrdersResponse = z.object({
  pedidos: z.array(SupportOrderHit),
  total: z.number().int(),
  page: z.number().int(),
  per_page: z.number().int(),
});
export type AdminOrdersResponse = z.infer<typeof AdminOrdersResponse>;
