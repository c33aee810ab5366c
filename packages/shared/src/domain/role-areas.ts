/**
 * Where each role belongs: its area, its home after sign-in, and which areas it may open. Apart from the
 * roles' names and lists (roles.ts, which re-exports all of this) because the sign-in screen's code needs
 * only this part (docs/decisions/0029-front-end-budget.md).
 */
export type Rol = 1 | 2 | 3 | 4 | 5;

export const ROLE_AREAS = {
  1: 'usuario',
  2: 'autorizador',
  3: 'autorizador',
  4: 'administrador',
  5: 'cliente',
} as const;

/** A role area: `/usuario`, `/autorizador`, `/administrador`, `/cliente`. */
export type Area = (typeof ROLE_AREAS)[Rol];

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
export function areaAllows(area: Area, rol: number): boolean {
  if (area === 'usuario') return rol === 1;
  if (area === 'autorizador') return rol === 2 || rol === 3;
  if (area === 'cliente') return rol === 5;
  return rol === 4;
}

export function isRol(value: unknown): value is Rol {
  return value === 1 || value === 2 || value === 3 || value === 4 || value === 5;
}
