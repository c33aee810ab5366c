/**
 * The authorizer's calls (roles 2 and 3): the client's orders, one order for review, approve (with the
 * edits) and cancel. Types come from the shared schemas (type-only imports: no zod in the bundle).
 */
import type { CommentsResponse, OlderCommentsResponse } from '@portal/shared/schemas/comments';
import type { OrderInvoices } from '@portal/shared/schemas/invoices';
import type {
  AuthorizerOrdersResponse,
  AuthorizerOrderView,
  BulkResponse,
  OrderFilter,
  OrderNeighbours,
  OrderSort,
  ReturnOrderBody,
  UpdateOrderBody,
  WorkflowResponse,
} from '@portal/shared/schemas/orders';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { z } from 'zod';
import { api } from '../../../lib/api';
import { freshFromBoot } from '../../../lib/boot-data';
import type { QueueFilter } from '../lib/queue';

export type {
  AuthorizerOrderRow,
  AuthorizerOrderView,
  BulkResponse,
  OrderFilter,
  OrderSort,
} from '@portal/shared/schemas/orders';

export interface OrdersFilters {
  status: OrderFilter;
  q: string;
  page: number;
  orden: OrderSort;
  /** Business dates YYYY-MM-DD, inclusive ('' = open). */
  desde: string;
  hasta: string;
  /**
   * The page is the one right after this order (the last row of the page before it) or right before that
   * one (the first row of the page after it): the server reads it from there instead of counting rows
   * (decision 0076). Only for a step to the next or previous page.
   */
  despues?: number;
  antes?: number;
}

export const authorizerKeys = {
  all: ['autorizador'] as const,
  lists: () => ['autorizador', 'pedidos'] as const,
  /** Keyed by the url path too ("fetches route data keyed by the current url path"). */
  list: (pathname: string, filters: OrdersFilters) => ['autorizador', 'pedidos', pathname, filters] as const,
  order: (id: number) => ['autorizador', 'pedido', id] as const,
  /** Under the order's key: a transition of the order refreshes its neighbours too. */
  neighbours: (id: number, filter: QueueFilter) => ['autorizador', 'pedido', id, 'vecinos', filter] as const,
  /** The order's invoices (decision 0133), under the order's key. */
  invoices: (id: number) => ['autorizador', 'pedido', id, 'facturas'] as const,
};

/** GET /api/pedidos/{id}/facturas: the order's CFDIs with their match (decision 0133). */
export function orderInvoicesQuery(id: number) {
  return queryOptions({
    queryKey: authorizerKeys.invoices(id),
    queryFn: ({ signal }) => api.get<OrderInvoices>(`/api/pedidos/${id}/facturas`, { signal }),
  });
}

export function fetchOrders(filters: OrdersFilters, signal?: AbortSignal): Promise<AuthorizerOrdersResponse> {
  const params = new URLSearchParams({ page: String(filters.page), status: filters.status });
  const q = filters.q.trim();
  if (q) params.set('q', q);
  if (filters.orden !== 'fecha_desc') params.set('orden', filters.orden);
  if (filters.desde) params.set('desde', filters.desde);
  if (filters.hasta) params.set('hasta', filters.hasta);
  if (filters.despues) params.set('despues', String(filters.despues));
  else if (filters.antes) params.set('antes', String(filters.antes));
  return api.get<AuthorizerOrdersResponse>(`/api/pedidos?${params}`, { signal });
}

/** One page of the list (the screen asks again on every entry: never an old list from another visit). */
export function ordersListQuery(pathname: string, filters: OrdersFilters) {
  return queryOptions({
    queryKey: authorizerKeys.list(pathname, filters),
    queryFn: ({ signal }) => fetchOrders(filters, signal),
    placeholderData: keepPreviousData,
    // The boot's answer, of seconds ago, is this entry's (decision 0141).
    staleTime: freshFromBoot,
  });
}

export function fetchOrder(id: number, signal?: AbortSignal): Promise<AuthorizerOrderView> {
  return api.get<AuthorizerOrderView>(`/api/pedidos/${id}`, { signal });
}

/** One order for review (asked again on every entry: the boot's answer of seconds ago is this entry's). */
export function approverOrderQuery(id: number) {
  return queryOptions({
    queryKey: authorizerKeys.order(id),
    queryFn: ({ signal }) => fetchOrder(id, signal),
    staleTime: freshFromBoot,
  });
}

/** The order's neighbours under the list's filter (asked again on every entry, as the order). */
export function neighboursQuery(id: number, filter: QueueFilter) {
  return queryOptions({
    queryKey: authorizerKeys.neighbours(id, filter),
    queryFn: ({ signal }) => fetchNeighbours(id, filter, signal),
    staleTime: freshFromBoot,
  });
}

/** The order's neighbours in the list under the same filter, sort and period, and the next one to act on. */
export function fetchNeighbours(
  id: number,
  filter: QueueFilter,
  signal?: AbortSignal,
): Promise<OrderNeighbours> {
  const params = new URLSearchParams({ status: filter.status });
  if (filter.q) params.set('q', filter.q);
  if (filter.orden !== 'fecha_desc') params.set('orden', filter.orden);
  if (filter.desde) params.set('desde', filter.desde);
  if (filter.hasta) params.set('hasta', filter.hasta);
  return api.get<OrderNeighbours>(`/api/pedidos/${id}/siguiente?${params}`, { signal });
}

/** POST /api/update/compra: the lines kept with their (possibly edited) quantities, the date, the comment. */
export type ApproveInput = z.input<typeof UpdateOrderBody>;

export function approveOrder(input: ApproveInput): Promise<WorkflowResponse> {
  return api.post<WorkflowResponse>('/api/update/compra', input);
}

export function cancelOrder(id: number, motivo: string): Promise<WorkflowResponse> {
  const reason = motivo.trim();
  return api.post<WorkflowResponse>(`/api/cancelar/compra/${id}`, reason ? { motivo: reason } : {});
}

/** POST /api/pedidos/{id}/devolver: the Super Autorizador sends the order back to level 1 (decision 0111). */
export function returnOrder(id: number, comentario: string): Promise<WorkflowResponse> {
  return api.post<WorkflowResponse>(`/api/pedidos/${id}/devolver`, {
    comentario: comentario.trim(),
  } satisfies ReturnOrderBody);
}

/** POST /api/pedidos/{id}/comentarios: an approver comments on an order of the client (any status). */
export function addOrderComment(id: number, texto: string): Promise<CommentsResponse> {
  return api.post<CommentsResponse>(`/api/pedidos/${id}/comentarios`, { texto });
}

/** GET /api/pedidos/{id}/comentarios?antes=: the page of the order's comments older than one. */
export function approverOlderComments(id: number, antes: number): Promise<OlderCommentsResponse> {
  return api.get<OlderCommentsResponse>(`/api/pedidos/${id}/comentarios?antes=${antes}`);
}

/** Approves each order as it stands (no edits), each on its own: one result per order. */
export function bulkApprove(ids: number[]): Promise<BulkResponse> {
  return api.post<BulkResponse>('/api/pedidos/aprobar-lote', { ids });
}

/** Cancels each order with one optional reason, each on its own: one result per order. */
export function bulkCancel(ids: number[], motivo: string): Promise<BulkResponse> {
  const reason = motivo.trim();
  return api.post<BulkResponse>('/api/pedidos/cancelar-lote', reason ? { ids, motivo: reason } : { ids });
}
