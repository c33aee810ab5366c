/**
 * Who is administering (decision 0122): the distributor's administrator (rol 4) works on every client and
 * may make every change; a client administrator (rol 5) works on its own client only, on its accounts of
 * roles 1–3, and makes only the changes its client allows (`permisos_cliente`). The administrator's screens
 * are the same for both: they read a scope (scope-context.tsx) and leave out what it cannot use, so no
 * screen of rol 5 calls a route that answers it 403. Pure: unit-tested.
 */
import { CLIENT_PERMISSIONS, type ClientPermission } from '@portal/shared/domain/client-admin';
import {
  CLIENT_ROLES,
  ROLE_NAMES,
  ROLES,
  ROLES_A_CLIENT_ADMIN_GIVES,
  type Rol,
} from '@portal/shared/domain/roles';
import type { ClientDto } from '@portal/shared/schemas/clients';

export interface AdminScope {
  /** The client administrator's own client; null for the distributor's administrator (any client). */
  client: ClientDto | null;
  /** What may be changed: every permission for the distributor, the client's `permisos_cliente` for rol 5. */
  permisos: readonly ClientPermission[];
}

export const DISTRIBUTOR_SCOPE: AdminScope = { client: null, permisos: CLIENT_PERMISSIONS };

/** A client administrator's scope: its client, with what that client allows. */
export function clientScope(client: ClientDto): AdminScope {
  return { client, permisos: client.permisos_cliente };
}

/** The distributor's administrator: every client, and the screens only it has (imports, products, 2FA resets…). */
export function isDistributor(scope: AdminScope): boolean {
  return scope.client === null;
}

/** Accounts may be created, changed, deactivated, and have their password or access reset. */
export function mayChangeUsers(scope: AdminScope): boolean {
  return scope.permisos.includes('usuarios');
}

/** Budgets and purchase limits may be changed. */
export function mayChangeBudgets(scope: AdminScope): boolean {
  return scope.permisos.includes('presupuestos');
}

/** The buyers' products may be assigned (one at a time, a category, a copy, many users at once). */
export function mayAssign(scope: AdminScope): boolean {
  return scope.permisos.includes('asignaciones');
}

/** Access weeks may be added, generated, switched on or off and deleted. */
export function mayChangeWeeks(scope: AdminScope): boolean {
  return scope.permisos.includes('semanas');
}

/** The approval levels and the rules by amount may be changed (PUT /api/cliente/reglas). */
export function mayChangeRules(scope: AdminScope): boolean {
  return scope.permisos.includes('reglas');
}

/**
 * The client's single sign-on and SCIM token may be set (the distributor's dialogs on its own client): who
 * enters as which of the client's accounts is its identity provider's word, so only when the distributor
 * allows `identidad`.
 */
export function mayChangeIdentity(scope: AdminScope): boolean {
  return scope.permisos.includes('identidad');
}

/** The client's fiscal data may be changed (PUT /api/clientes/{id}/datos-fiscales, decision 0128). */
export function mayChangeFiscal(scope: AdminScope): boolean {
  return scope.permisos.includes('fiscales');
}

/** The scope's area of the web app: '/administrador' for the distributor, '/cliente' for rol 5. */
export function areaPath(scope: AdminScope): '/administrador' | '/cliente' {
  return isDistributor(scope) ? '/administrador' : '/cliente';
}

/**
 * The page of a buyer's products (the assignments), in the scope's area; the distributor's carries the
 * client, so its way back is to that client's users.
 */
export function userProductsPath(scope: AdminScope, user: { id: number; id_cliente: number | null }): string {
  const path = `${areaPath(scope)}/usuarios/usuario/${user.id}/productos`;
  return isDistributor(scope) && user.id_cliente ? `${path}?cliente=${user.id_cliente}` : path;
}

const GIVEN_BY_CLIENT: readonly number[] = ROLES_A_CLIENT_ADMIN_GIVES;

/**
 * An account the scope reaches (GET /api/usuarios/{id}): any account of a client for the distributor; for a
 * client administrator those of roles 1–3 (never another client administrator, nor itself).
 */
export function mayOpen(scope: AdminScope, user: { rol: number }): boolean {
  return isDistributor(scope) || GIVEN_BY_CLIENT.includes(user.rol);
}

/** An account the scope may change: one it reaches, when it may change accounts at all. */
export function mayManage(scope: AdminScope, user: { rol: number }): boolean {
  return mayChangeUsers(scope) && mayOpen(scope, user);
}

/** A buyer (rol 1) whose products the scope may assign. */
export function mayAssignTo(scope: AdminScope, user: { rol: number }): boolean {
  return mayAssign(scope) && user.rol === ROLES.usuario;
}

/**
 * An account the users list lets the scope check: one it may change, or a buyer whose products it may
 * assign ('Asignar productos…' takes the checked buyers).
 */
export function maySelect(scope: AdminScope, user: { rol: number }): boolean {
  return mayManage(scope, user) || mayAssignTo(scope, user);
}

export interface RoleOption {
  value: string;
  label: string;
}

const option = (rol: Rol): RoleOption => ({ value: String(rol), label: ROLE_NAMES[rol] });

/**
 * The users form's roles: Usuario and Autorizador; Super Autorizador where the client has two levels (or the
 * user already is one); Administrador de cliente only for the distributor (a client administrator gives
 * roles 1–3, decision 0122), or for an account that already is one.
 */
export function roleOptions(
  scope: AdminScope,
  client: Pick<ClientDto, 'cantidad_autorizadores'>,
  currentRol: number | null,
): RoleOption[] {
  const roles: Rol[] = [ROLES.usuario, ROLES.autorizador];
  if (client.cantidad_autorizadores === 2 || currentRol === ROLES.superAutorizador)
    roles.push(ROLES.superAutorizador);
  if (isDistributor(scope) || currentRol === ROLES.administradorCliente)
    roles.push(ROLES.administradorCliente);
  return roles.map(option);
}

/** The users list's role filter: every role an account of a client may have. */
export const ROLE_FILTERS: RoleOption[] = [
  { value: 'todos', label: 'Todos los roles' },
  ...CLIENT_ROLES.map(option),
];
