/** TanStack Query keys of the administrator's inventory, logs and overview screens. */
export interface ProductListParams {
  page: number;
  q: string;
  categoria: number | null;
  activo: 'todos' | 'activos' | 'inactivos';
}

export interface LogFilters {
  page: number;
  event_type: string | null;
  user_id: number | null;
  desde: string | null;
  hasta: string | null;
}

export const adminBKeys = {
  inventory: (idCliente: number) => ['admin', 'inventario', idCliente] as const,
  products: (idCliente: number, params: ProductListParams) =>
    ['admin', 'inventario', idCliente, 'productos', params] as const,
  categories: (idCliente: number) => ['admin', 'inventario', idCliente, 'categorias'] as const,
  logs: (filters: LogFilters) => ['admin', 'logs', 'lista', filters] as const,
  logTypes: ['admin', 'logs', 'tipos'] as const,
  overview: ['admin', 'resumen'] as const,
};
