import type { ClientPermission } from '@portal/shared/domain/client-admin';
import { formatMXN } from '@portal/shared/domain/money';
import { ROLES } from '@portal/shared/domain/roles';
import type { SessionResponse } from '@portal/shared/schemas/auth';
import type { ShopperSession } from '@portal/shared/schemas/shopping';
import { CLIENT_SCREENS, withClient } from '../../lib/chosen-client';

export type NavIcon =
  | 'productos'
  | 'historial'
  | 'listas'
  | 'pedido-rapido'
  | 'carrito'
  | 'pedidos'
  | 'clientes'
  | 'semanas'
  | 'inventario'
  | 'usuarios'
  | 'logs'
  | 'tablero'
  | 'surtido'
  | 'reclamos'
  | 'integraciones'
  | 'reglas'
  | 'personal'
  | 'areas'
  | 'ampliaciones'
  | 'direcciones'
  | 'recepcion'
  | 'credito';

export interface NavItem {
  label: string;
  to: string;
  icon: NavIcon;
  /** A small count beside the label (units in the cart). */
  count?: number;
}

/** A category link of rol 1, with its budget in category mode. */
export interface CategoryNavItem {
  label: string;
  to: string;
  /** @tabler/icons-react component name (the category's `icono`). */
  icono: string;
  /** 'used / total assigned' in category mode ('Sin presupuesto' when it has none); null otherwise. */
  budget: { text: string; percent: number | null } | null;
}

export interface DownloadItem {
  label: string;
  href: string;
}

/**
 * A client administrator's links (rol 5, decision 0122): its home, its Tablero, its users, its delivery
 * addresses (decision 0126), then the screens
 * of what its client allows it to change (`permisos`: the HR list with `usuarios`, the access weeks with
 * `semanas`, the approval rules with `reglas`, the áreas and the budget top-ups with `presupuestos`; the
 * products are assigned from each buyer's row in Usuarios), and its log.
 */
function clientAdminItems(permisos: readonly ClientPermission[]): NavItem[] {
  const items: NavItem[] = [
    { label: 'Mi empresa', to: '/cliente/principal', icon: 'clientes' },
    { label: 'Tablero', to: '/cliente/tablero', icon: 'tablero' },
    { label: 'Usuarios', to: '/cliente/usuarios', icon: 'usuarios' },
    // Read by every client administrator; changed with `usuarios` (decision 0126).
    { label: 'Direcciones de entrega', to: '/cliente/direcciones', icon: 'direcciones' },
    // Read by every client administrator (decision 0134).
    { label: 'Estado de cuenta', to: '/cliente/estado-de-cuenta', icon: 'credito' },
  ];
  if (permisos.includes('usuarios'))
    items.push({ label: 'Lista de personal', to: '/cliente/sincronizar', icon: 'personal' });
  if (permisos.includes('semanas'))
    items.push({ label: 'Semanas de acceso', to: '/cliente/semanas', icon: 'semanas' });
  if (permisos.includes('reglas'))
    items.push({ label: 'Reglas de aprobación', to: '/cliente/reglas', icon: 'reglas' });
  // The áreas and their budget top-ups (decision 0123) are budgets: with `presupuestos`.
  if (permisos.includes('presupuestos'))
    items.push(
      { label: 'Áreas', to: '/cliente/areas', icon: 'areas' },
      { label: 'Ampliaciones', to: '/cliente/ampliaciones', icon: 'ampliaciones' },
    );
  items.push({ label: 'Registros del sistema', to: '/cliente/registros', icon: 'logs' });
  return items;
}

/**
 * The sidebar links of a role. For rol 1 the category links follow
 * 'Todos los productos' (see categoryNavItems), then 'Pedido rápido', 'Mis listas' and 'Historial';
 * 'Carrito' shows the units in the cart. A client administrator's depend on what its client allows
 * (`permisos`; none until they are read).
 */
export function navItemsFor(
  rol: number,
  comprador?: ShopperSession,
  chosenClient?: number | null,
  permisos: readonly ClientPermission[] = [],
  /** «Receptor de mercancía» (decision 0130): «Recepción» in the rol-1 and rol-2–3 areas. */
  receptor = false,
): NavItem[] {
  const client = (path: string) => withClient(path, chosenClient ?? null);
  const receiving = (area: string): NavItem[] =>
    receptor ? [{ label: 'Recepción', to: `/${area}/recepcion`, icon: 'recepcion' }] : [];
  switch (rol) {
    case ROLES.usuario:
      return [
        { label: 'Todos los productos', to: '/usuario/principal', icon: 'productos' },
        { label: 'Pedido rápido', to: '/usuario/pedido-rapido', icon: 'pedido-rapido' },
        { label: 'Mis listas', to: '/usuario/listas', icon: 'listas' },
        { label: 'Historial', to: '/usuario/historial', icon: 'historial' },
        {
          label: 'Carrito',
          to: '/usuario/carrito',
          icon: 'carrito',
          count: comprador?.presupuesto.productos_totales ?? 0,
        },
        ...receiving('usuario'),
      ];
    case ROLES.autorizador:
    case ROLES.superAutorizador:
      return [
        { label: 'Pedidos', to: '/autorizador/principal', icon: 'pedidos' },
        { label: 'Tablero', to: '/autorizador/tablero', icon: 'tablero' },
        { label: 'Ampliaciones', to: '/autorizador/ampliaciones', icon: 'ampliaciones' },
        { label: 'Estado de cuenta', to: '/autorizador/estado-de-cuenta', icon: 'credito' },
        ...receiving('autorizador'),
      ];
    case ROLES.administrador:
      return [
        { label: 'Tablero', to: '/administrador/tablero', icon: 'tablero' },
        { label: 'Surtido', to: '/administrador/surtido', icon: 'surtido' },
        { label: 'Reclamos', to: '/administrador/reclamos', icon: 'reclamos' },
        { label: 'Crédito y cobranza', to: '/administrador/credito', icon: 'credito' },
        { label: 'Clientes', to: '/administrador/clientes', icon: 'clientes' },
        // The client chosen on these screens follows the administrator through their links.
        { label: 'Semanas de acceso', to: client(CLIENT_SCREENS.semanas), icon: 'semanas' },
        { label: 'Inventario', to: client(CLIENT_SCREENS.inventario), icon: 'inventario' },
        { label: 'Usuarios', to: client(CLIENT_SCREENS.usuarios), icon: 'usuarios' },
        { label: 'Direcciones de entrega', to: client(CLIENT_SCREENS.direcciones), icon: 'direcciones' },
        { label: 'Áreas', to: client(CLIENT_SCREENS.areas), icon: 'areas' },
        { label: 'Ampliaciones', to: client(CLIENT_SCREENS.ampliaciones), icon: 'ampliaciones' },
        { label: 'Registros del sistema', to: '/administrador/logs', icon: 'logs' },
        { label: 'Integraciones', to: '/administrador/integraciones', icon: 'integraciones' },
      ];
    case ROLES.administradorCliente:
      return clientAdminItems(permisos);
    default:
      return [];
  }
}

/** One link per category with an assigned product; in category mode each shows 'used / total assigned'. */
export function categoryNavItems(comprador: ShopperSession | undefined): CategoryNavItem[] {
  if (!comprador) return [];
  const byCategory = comprador.presupuesto.tipo_presupuesto === 'categoria';
  return comprador.categorias.map((c) => {
    const total = c.presupuesto ?? 0;
    const used = c.utilizado ?? 0;
    return {
      label: c.nombre,
      to: `/usuario/categoria/${c.id}`,
      icono: c.icono,
      budget: !byCategory
        ? null
        : total > 0
          ? {
              text: `${formatMXN(used, false)} / ${formatMXN(total, false)}`,
              percent: Math.min(100, (used / total) * 100),
            }
          : { text: 'Sin presupuesto', percent: null },
    };
  });
}

/** 'Calendario' and 'Manual' downloads for users, when their client has them. */
export function downloadsFor(session: SessionResponse): DownloadItem[] {
  const { user } = session;
  if (user.rol !== ROLES.usuario || !user.cliente) return [];
  const items: DownloadItem[] = [];
  if (user.cliente.calendario) items.push({ label: 'Calendario', href: user.cliente.calendario });
  if (user.cliente.manual) items.push({ label: 'Manual', href: user.cliente.manual });
  return items;
}

export function panelTitleFor(rol: number): string {
  if (rol === ROLES.usuario) return 'Panel Usuario';
  if (rol === ROLES.autorizador || rol === ROLES.superAutorizador) return 'Panel Autorizador';
  if (rol === ROLES.administrador) return 'Panel Administrador';
  if (rol === ROLES.administradorCliente) return 'Panel Empresa';
  return 'Portal de Compras';
}

/** Whether a link is the current page (or a page below it, e.g. a detail page of Historial); its query aside. */
export function isActive(pathname: string, link: string): boolean {
  const to = link.split('?')[0]!;
  if (pathname === to) return true;
  const section = to.replace(/\/principal$/, '');
  if (to.endsWith('/principal')) return pathname === section || pathname === `${section}/`;
  return pathname.startsWith(`${to}/`);
}
