/**
 * What a client's own administrators (rol 5) may change, as the distributor decides per client
 * (`permisos_cliente`, decision 0122). Reading the client's users, log, reports and requests needs none.
 */
export const CLIENT_PERMISSIONS = [
  'usuarios',
  'presupuestos',
  'asignaciones',
  'semanas',
  'reglas',
  'identidad',
  'fiscales',
] as const;
export type ClientPermission = (typeof CLIENT_PERMISSIONS)[number];

/** The permissions' names on the client form and in refusals. */
export const CLIENT_PERMISSION_NAMES: Record<ClientPermission, string> = {
  usuarios: 'Usuarios (alta, cambios, baja, contraseñas y accesos)',
  presupuestos: 'Presupuestos y límites de compra',
  asignaciones: 'Productos asignados',
  semanas: 'Semanas de acceso',
  reglas: 'Reglas de autorización por monto y niveles',
  identidad: 'Inicio de sesión de la empresa (SSO) y aprovisionamiento (SCIM)',
  fiscales: 'Datos fiscales (RFC, régimen, uso de CFDI y correos de facturación)',
};

/**
 * What a new client allows its administrators: managing its people, nothing about money nor how its people
 * sign in (`identidad`: its identity provider decides who enters as which of its accounts).
 */
export const CLIENT_PERMISSIONS_DEFAULT: readonly ClientPermission[] = ['usuarios'];

export function isClientPermission(value: unknown): value is ClientPermission {
  return typeof value === 'string' && (CLIENT_PERMISSIONS as readonly string[]).includes(value);
}

/** The states of a budget change waiting for the distributor (above the client's `tope_presupuesto`). */
export const BUDGET_REQUEST_STATES = ['pendiente', 'aprobada', 'rechazada', 'reemplazada'] as const;
export type BudgetRequestState = (typeof BUDGET_REQUEST_STATES)[number];

export const BUDGET_REQUEST_STATE_NAMES: Record<BudgetRequestState, string> = {
  pendiente: 'Pendiente',
  aprobada: 'Aprobada',
  rechazada: 'Rechazada',
  reemplazada: 'Reemplazada por otra',
};

/**
 * A client administrator's budget for a user is above the cap when the cap is set, the new monthly budget
 * (centavos; the sum of the categories in category mode) is above it, and it rises: lowering a budget, or
 * keeping one the distributor already set above the cap, never waits.
 */
export function budgetNeedsApproval(
  topeCentavos: number | null,
  nextCentavos: number,
  currentCentavos: number | null,
): boolean {
  if (topeCentavos === null) return false;
  if (nextCentavos <= topeCentavos) return false;
  return currentCentavos === null || nextCentavos > currentCentavos;
}
