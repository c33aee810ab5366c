/** The roles: their numbers, names and lists; where each belongs is role-areas.ts (re-exported here). */
import type { Rol } from './role-areas.ts';

export const ROLES = {
  usuario: 1,
  autorizador: 2,
  superAutorizador: 3,
  administrador: 4,
  /** A client company's own administrator: its people, within what the distributor allows (decision 0122). */
  administradorCliente: 5,
} as const;

export { type Area, areaAllows, homeFor, isRol, ROLE_AREAS, type Rol } from './role-areas.ts';

export const ROLE_NAMES: Record<Rol, string> = {
  1: 'Usuario',
  2: 'Autorizador',
  3: 'Super Autorizador',
  4: 'Administrador',
  5: 'Administrador de cliente',
};

/** The roles an account of a client may have (rol 4, the distributor's administrator, has no client). */
export const CLIENT_ROLES = [1, 2, 3, 5] as const;

/** The roles a client administrator may give (never 4 or 5: decision 0122). */
export const ROLES_A_CLIENT_ADMIN_GIVES = [1, 2, 3] as const;
