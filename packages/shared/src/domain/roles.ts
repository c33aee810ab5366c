export const ROLES = {
  usuario: 1,
  autorizador: 2,
  superAutorizador: 3,
  administrador: 4,
  /** A client company's own administrator: its people, within what the distributor allows (decision 0122). */
  administradorCliente: 5,
} as const;
export type Rol = 1 | 2 | 3 | 4 | 5;

export const ROLE_NAMES: Record<Rol, string> = {
  1: 'Usuario',
  2: 'Autorizador',
  3: 'Super Autorizador',
  4: 'Administrador',
  5: 'Administrador de cliente',
};

export const ROLE_AREAS = {
  1: 'usuario',
  2: 'autorizador',
  3: 'autorizador',
  4: 'administrador',
  5: 'cliente',
} as const;

/** The roles an account of a client may have (rol 4, the distributor's administrator, has no client). */
export const CLIENT_ROLES = [1, 2, 3, 5] as const;

/** The roles a client administrator may give (never 4 or 5: decision 0122). */
export const ROLES_A_CLIENT_ADMIN_GIVES = [1, 2, 3] as const;

/** Where a role lands after sign-in. */
export function homeFor(rol: number | null | undefined): string {
  switch (rol) {
    case 1:
      return '/usuario/principal';
    case 2:
    case 3:
      return '/autorizador/principal';
    case 4:
      return '/administrador/principal';
    case 5:
      return '/cliente/principal';
    default:
      return '/login';
  }
}

/** Which roles may open an area. */
export function areaAllows(
  area: 'usuario' | 'autorizador' | 'administrador' | 'cliente',
  rol: number,
): boolean {
  if (area === 'usuario') return rol === 1;
  if (area === 'autorizador') return rol === 2 || rol === 3;
  if (area === 'cliente') return rol === 5;
  return rol === 4;
}

export function isRol(value: unknown): value is Rol {
  return value === 1 || value === 2 || value === 3 || value === 4 || value === 5;
}
