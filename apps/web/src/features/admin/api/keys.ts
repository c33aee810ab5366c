/**
 * The query keys of the whole administrator area, one registry. Every key of a resource starts with the
 * same prefix, so one invalidation refreshes its lists, dropdowns and details.
 */
import type { FulfilmentSort } from '@portal/shared/schemas/fulfilment';
import type { InventorySort } from '@portal/shared/schemas/inventory';

export interface ProductListParams {
  page: number;
  q: string;
  categoria: number | null;
  activo: 'todos' | 'activos' | 'inactivos';
  /** The server's sort (`orden`, decision 0067); the server's default when absent. */
  orden?: InventorySort;
}

/** The system log's filters as the API takes them (GET /api/logs and /api/logs/exportar). */
export interface LogFilters {
  page: number;
  event_type: string | null;
  /** The acting user's id (older links: `?usuario=12`). */
  user_id: number | null;
  /** The acting user's username or name, any part of it. */
  usuario: string | null;
  id_cliente: number | null;
  /** An order number as typed: "#00012" or "12". */
  pedido: string | null;
  desde: string | null;
  hasta: string | null;
}

export interface FulfilmentFilters {
  page: number;
  cliente: number | null;
  surtido: string | null;
  exportado: 'si' | 'no' | null;
  /** Only orders with a late line (decision 0125). */
  atrasado?: 'si' | null;
  /** Only orders held for credit (decision 0134). */
  retenido?: 'si' | null;
  desde: string | null;
  hasta: string | null;
  /** By the order's date (decision 0067); newest first when absent. */
  orden?: FulfilmentSort;
}

export const adminKeys = {
  /** Integration tokens, webhook endpoints and their deliveries (prefix ['admin', 'integracion']). */
  integration: ['admin', 'integracion'] as const,
  tokens: (page: number) => ['admin', 'integracion', 'tokens', page] as const,
  webhooks: (page: number) => ['admin', 'integracion', 'webhooks', page] as const,
  deliveries: (id: number, page: number) => ['admin', 'integracion', 'entregas', id, page] as const,
  /** The prefix of every client list, the dropdowns included. */
  clients: ['admin', 'clientes'] as const,
  /** Every client, for the dropdowns (clients/client-select). */
  allClients: ['admin', 'clientes', 'todos'] as const,
  clientsPage: (page: number, q: string, orden: string) =>
    ['admin', 'clientes', 'lista', { page, q, orden }] as const,
  /** A client's single sign-on (GET/PUT/DELETE /api/clients/{id}/sso; decision 0120). */
  clientSso: (id: number) => ['admin', 'clientes', 'sso', id] as const,
  users: ['admin', 'usuarios'] as const,
  usersPage: (idCliente: number, page: number, q: string, filters: Record<string, string | number | null>) =>
    ['admin', 'usuarios', 'lista', idCliente, { page, q, ...filters }] as const,
  user: (id: number) => ['admin', 'usuarios', 'detalle', id] as const,
  /** A user's out-of-office delegation (GET/PUT/DELETE /api/usuarios/{id}/delegacion). */
  userDelegation: (id: number) => ['admin', 'usuarios', 'delegacion', id] as const,
  /** The prefix of every user's products (an assignment import or a bulk assignment touches many). */
  allUserProducts: ['admin', 'usuario-productos'] as const,
  userProducts: (id: number) => ['admin', 'usuario-productos', id] as const,
  userProductsPage: (id: number, page: number, q: string, categoria: number | null) =>
    ['admin', 'usuario-productos', id, { page, q, categoria }] as const,
  /** A client's áreas with this month's figures (GET /api/areas; decision 0123). */
  areas: (idCliente: number) => ['admin', 'areas', idCliente] as const,
  /** A client's address book (GET /api/direcciones; decision 0126), and a buyer's choice of it. */
  addresses: (idCliente: number) => ['admin', 'direcciones', idCliente] as const,
  userAddresses: (id: number) => ['admin', 'direcciones', 'usuario', id] as const,
  /** A user's «Receptor de mercancía» and its addresses (decision 0130). */
  userReceiver: (id: number) => ['admin', 'receptor', id] as const,
  weeks: (idCliente: number) => ['admin', 'semanas', idCliente] as const,
  weeksPage: (idCliente: number, page: number) => ['admin', 'semanas', idCliente, page] as const,
  weeksMonth: (idCliente: number, mes: string) => ['admin', 'semanas', idCliente, 'mes', mes] as const,
  /** The prefix of a client's products and categories. */
  inventory: (idCliente: number) => ['admin', 'inventario', idCliente] as const,
  products: (idCliente: number, params: ProductListParams) =>
    ['admin', 'inventario', idCliente, 'productos', params] as const,
  /** A client's categories: the inventory screen and the category budgets of the user form. */
  categories: (idCliente: number) => ['admin', 'inventario', idCliente, 'categorias'] as const,
  imports: ['admin', 'importaciones'] as const,
  importsPage: (idCliente: number, page: number) =>
    ['admin', 'importaciones', 'lista', idCliente, page] as const,
  import: (id: number) => ['admin', 'importaciones', 'detalle', id] as const,
  logs: (filters: LogFilters) => ['admin', 'logs', 'lista', filters] as const,
  logTypes: ['admin', 'logs', 'tipos'] as const,
  overview: ['admin', 'resumen'] as const,
  /** A client administrator's own client, its accounts by role and its pending budgets (GET /api/cliente). */
  clientHome: ['admin', 'cliente'] as const,
  /** The prefix of the budget changes above a client's cap (GET /api/presupuestos/solicitudes; decision 0122). */
  budgetRequests: ['admin', 'presupuestos'] as const,
  budgetRequestsPage: (estado: string | null, page: number) =>
    ['admin', 'presupuestos', { estado, page }] as const,
  /** The support search over users and orders (GET /api/buscar). */
  search: (q: string) => ['admin', 'buscar', q] as const,
  /** Every client's orders by status, read-only (GET /api/admin/pedidos). */
  orders: (estatus: string, mes: string | null, page: number, orden = 'fecha_desc') =>
    ['admin', 'pedidos', 'lista', { estatus, mes, page, orden }] as const,
  /** Any order, read-only (GET /api/admin/pedidos/{id}). */
  order: (id: number) => ['admin', 'pedidos', id] as const,
  /** An order's CFDIs (GET /api/surtido/{id}/facturas; decision 0131): under the order's key. */
  orderInvoices: (id: number) => ['admin', 'pedidos', id, 'facturas'] as const,
  /** The prefix of the fulfilment queue's pages (GET /api/surtido). */
  fulfilment: ['admin', 'surtido'] as const,
  fulfilmentPage: (filters: FulfilmentFilters) => ['admin', 'surtido', filters] as const,
  /** The prefix of the claims' pages (GET /api/surtido/reclamos; decision 0127). */
  claims: ['admin', 'reclamos'] as const,
  claimsPage: (estado: string, page: number) => ['admin', 'reclamos', estado, page] as const,
};
