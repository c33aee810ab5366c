export const ROLES = { usuario: 1, autorizador: 2, superAutorizador: 3, administrador: 4 } as const;
export type Rol = 1 | 2 | 3 | 4;

export const ROLE_NAMES: Record<Rol, string> = {
  1: 'Usuario',
  2: 'Autorizador',
  3: 'Super Autorizador',
  4: 'Administrador',
};

export const ROLE_AREAS = { 1: 'usuario', 2: 'autorizador', 3: 'autorizador', 4: 'administrador' } as const;

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
    default:
      return '/login';
  }
}

/** Which roles may open an area. */
export function areaAllows(area: 'usuario' | 'autorizador' | 'administrador', rol: number): boolean {
  if (area === 'usuario') return rol === 1;
  if (area === 'autorizador') return rol === 2 || rol === 3;
  return rol === 4;
}

export function isRol(value: unknown): value is Rol {
  return value === 1 || value === 2 || value === 3 || value === 4;
}
