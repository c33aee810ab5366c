/** The administrator area: one module per screen, one lazy chunk for the area. */
import { budgetRequestsQuery } from '../../../features/admin/budget-requests/api';
import { allClientsQuery } from '../../../features/admin/clients/client-select';
import { adminOverviewQuery } from '../../../features/admin/overview/api';
import { unsentAccessQuery } from '../../../features/admin/users/api';
import type { FirstData } from '../../../lib/boot-data';

export { Ampliaciones } from './ampliaciones';
export { Areas } from './areas';
export { Clientes } from './clientes';
export { Credito, CreditoCliente } from './credito';
export { Direcciones } from './direcciones';
export { Integraciones } from './integraciones';
export { Inventario } from './inventario';
export { Logs } from './logs';
export { Pedido, Pedidos } from './pedido';
export { Principal } from './principal';
export { Reclamos } from './reclamos';
export { Semanas } from './semanas';
export { Sincronizar } from './sincronizar';
export { Surtido } from './surtido';
export { UsuarioProductos } from './usuario-productos';
export { Usuarios } from './usuarios';

/**
 * What some screens show first, asked for at boot (decision 0141): the home's figures and pending budget
 * requests, the clients to pick, the unsent-access banner (both screens draw their content once it has
 * answered).
 */
export const firstData: Record<string, FirstData> = {
  Principal: () => [adminOverviewQuery, budgetRequestsQuery('pendiente', 1), unsentAccessQuery],
  Usuarios: () => [allClientsQuery, unsentAccessQuery],
};
