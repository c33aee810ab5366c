/**
 * Query keys of the administrator's clients, users, product assignments and weeks. Every key of a
 * resource starts with the same prefix, so one invalidation refreshes its lists, dropdowns and details.
 */
export const adminKeys = {
  /** Also the prefix of the clients dropdown (clients/client-select). */
  clients: ['admin', 'clientes'] as const,
  clientsPage: (page: number, q: string) => ['admin', 'clientes', 'lista', { page, q }] as const,
  users: ['admin', 'usuarios'] as const,
  usersPage: (idCliente: number, page: number, q: string) =>
    ['admin', 'usuarios', 'lista', idCliente, { page, q }] as const,
  user: (id: number) => ['admin', 'usuarios', 'detalle', id] as const,
  categories: (idCliente: number) => ['admin', 'categorias', idCliente] as const,
  userProducts: (id: number) => ['admin', 'usuario-productos', id] as const,
  userProductsPage: (id: number, page: number, q: string) =>
    ['admin', 'usuario-productos', id, { page, q }] as const,
  weeks: (idCliente: number) => ['admin', 'semanas', idCliente] as const,
  weeksPage: (idCliente: number, page: number) => ['admin', 'semanas', idCliente, page] as const,
};
