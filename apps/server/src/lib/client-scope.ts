/**
 * What an administrator's request may reach (decision 0122): the distributor's administrator (rol 4) every
 * client; a client administrator (rol 5) only its own client, its accounts of roles 1–3, and only the
 * changes its client allows. Another client's ids answer like missing ones.
 */
import {
  CLIENT_PERMISSION_NAMES,
  type ClientPermission,
  isClientPermission,
} from '@portal/shared/domain/client-admin';
import { ROLES } from '@portal/shared/domain/roles';
import { eq } from 'drizzle-orm';
import type { Db, Tx } from '../db/client.ts';
import { clients } from '../db/schema/index.ts';
import { MSG } from '../messages.ts';
import { badRequest, forbidden, notFound } from './errors.ts';

/** Who acts: the signed-in account (AuthContext's `user`). */
type Actor = { user: { rol: number; idCliente: number | null } };

export function isClientAdmin(auth: Actor): boolean {
  return auth.user.rol === ROLES.administradorCliente;
}

/** The one client a client administrator works on; null for the distributor's administrator (any). */
export function ownClientOf(auth: Actor): number | null {
  return isClientAdmin(auth) ? auth.user.idCliente : null;
}

export const clientNotFound = () => notFound(MSG.clienteNoEncontrado, 'CLIENT_NOT_FOUND');

/**
 * The client a request names, for a client administrator: its own when the request names none, 404 when it
 * names another. The distributor's administrator gets what was named.
 */
export function scopedClient(auth: Actor, idCliente: number | undefined | null): number | undefined {
  const own = ownClientOf(auth);
  if (own === null) return idCliente ?? undefined;
  if (idCliente !== undefined && idCliente !== null && idCliente !== own) throw clientNotFound();
  return own;
}

/**
 * The one client a request works on: a client administrator's own; the distributor's must be named (400)
 * and exist (404).
 */
export async function requiredClient(
  db: Db | Tx,
  auth: Actor,
  idCliente: number | undefined | null,
): Promise<number> {
  const id = scopedClient(auth, idCliente);
  if (id === undefined)
    throw badRequest('VALIDATION', MSG.debesSeleccionarCliente, { id_cliente: MSG.debesSeleccionarCliente });
  const [c] = await db.select({ id: clients.id }).from(clients).where(eq(clients.id, id));
  if (!c) throw clientNotFound();
  return id;
}

/** A request's query or body with its client fixed as `scopedClient` fixes it. */
export function withScopedClient<T extends { id_cliente?: number | undefined }>(auth: Actor, values: T): T {
  return { ...values, id_cliente: scopedClient(auth, values.id_cliente) };
}

/**
 * An account a request names is within reach: any account of a client for the distributor's administrator;
 * for a client administrator, accounts of roles 1–3 of its own client (never itself nor another rol 5).
 */
export function userInScope(auth: Actor, user: { idCliente: number | null; rol: number }): boolean {
  if (user.rol === ROLES.administrador) return false;
  const own = ownClientOf(auth);
  if (own === null) return true;
  return user.idCliente === own && user.rol !== ROLES.administradorCliente;
}

/** The permissions the client gives its administrators, read now (a change applies at once). */
export async function clientPermissions(db: Db | Tx, idCliente: number): Promise<ClientPermission[]> {
  const [row] = await db
    .select({ permisos: clients.permisosCliente })
    .from(clients)
    .where(eq(clients.id, idCliente))
    .limit(1);
  return (row?.permisos ?? []).filter(isClientPermission);
}

/** Whether the actor may make this change: always for rol 4; for rol 5, when its client allows it. */
export async function clientAllows(db: Db | Tx, auth: Actor, permiso: ClientPermission): Promise<boolean> {
  if (!isClientAdmin(auth)) return true;
  if (auth.user.idCliente === null) return false;
  return (await clientPermissions(db, auth.user.idCliente)).includes(permiso);
}

/** 403 with the permission's name when a client administrator's client does not allow the change. */
export async function requireClientPermission(
  db: Db | Tx,
  auth: Actor,
  permiso: ClientPermission,
): Promise<void> {
  if (!(await clientAllows(db, auth, permiso)))
    throw forbidden(MSG.permisoClienteFalta(CLIENT_PERMISSION_NAMES[permiso]), 'CLIENT_PERMISSION');
}
