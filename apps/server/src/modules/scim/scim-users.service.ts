import { ROLE_NAMES } from '@portal/shared/domain/roles';
import { and, asc, between, count, eq, ne, type SQL, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { clientSso, clients, users } from '../../db/schema/index.ts';
import { audit } from '../../lib/audit.ts';
import type { Deps } from '../../lib/deps.ts';
import { MSG } from '../../messages.ts';
import { retireAllLinks } from '../auth/auth.repository.ts';
import { withdrawLeaver } from '../users/leavers.ts';
import { createAccounts, sendWelcomeLink } from '../users/users.service.ts';
import { type Filter, parseFilter } from './scim-filter.ts';
import { applyUserPatch, parseUserResource, type UserState } from './scim-patch.ts';
import { groupId, listResponse, ScimError, type ScimRole, URN } from './scim-protocol.ts';
import { type ScimCaller, scimBaseUrl } from './scim-token.service.ts';

/** What SCIM shows of a user and what a change compares. */
const userColumns = {
  id: users.id,
  usuario: users.usuario,
  email: users.email,
  nombre: users.nombre,
  rol: users.rol,
  activo: users.activo,
  scimExternalId: users.scimExternalId,
  passwordHash: users.passwordHash,
  createdAt: users.createdAt,
  updatedAt: users.updatedAt,
};
export type ScimUserRow = {
  id: number;
  usuario: string;
  email: string;
  nombre: string;
  rol: number;
  activo: boolean;
  scimExternalId: string | null;
  passwordHash: string | null;
  createdAt: Date;
  updatedAt: Date;
};

/**
 * The tenant's users SCIM sees: roles 1–3 of the token's client. Administrators never appear — neither the
 * distributor's nor the client's own (rol 5, who may have generated the token): to SCIM they are missing
 * ids, so a provider can neither deactivate nor change them, nor give their role (decision 0122).
 */
export const tenantUsers = (idCliente: number) =>
  and(eq(users.idCliente, idCliente), between(users.rol, 1, 3))!;

const USER_FILTER_ATTRS = new Set(['username', 'externalid', 'emails', 'emails.value', 'active', 'id']);

export function toScimUser(base: string, row: ScimUserRow) {
  const rol = row.rol as ScimRole;
  return {
    schemas: [URN.user],
    id: String(row.id),
    ...(row.scimExternalId !== null ? { externalId: row.scimExternalId } : {}),
    userName: row.usuario,
    name: { formatted: row.nombre },
    displayName: row.nombre,
    emails: row.email ? [{ value: row.email, type: 'work', primary: true }] : [],
    active: row.activo,
    groups: [{ value: groupId(rol), display: ROLE_NAMES[rol], $ref: `${base}/Groups/${groupId(rol)}` }],
    meta: {
      resourceType: 'User',
      created: row.createdAt.toISOString(),
      lastModified: row.updatedAt.toISOString(),
      location: `${base}/Users/${row.id}`,
    },
  };
}

export const userNotFound = (id: string) => new ScimError(404, MSG.scimUsuarioNoEncontrado(id));
const uniqueness = (detail: string) => new ScimError(409, detail, 'uniqueness');

/** A path id as SCIM sends it: the portal's ids are positive integers; anything else is missing. */
export function idOf(raw: string): number | null {
  return /^\d{1,9}$/.test(raw) && Number(raw) > 0 ? Number(raw) : null;
}

function filterSql(f: Filter): SQL {
  switch (f.kind) {
    case 'none':
      return sql`false`;
    case 'and':
      return and(filterSql(f.left), filterSql(f.right))!;
    case 'or':
      return sql`(${filterSql(f.left)} or ${filterSql(f.right)})`;
    case 'eq': {
      const v = f.value;
      if (f.attr === 'active') {
        const b = typeof v === 'boolean' ? v : typeof v === 'string' ? v.toLowerCase() === 'true' : null;
        if (b === null || (typeof v === 'string' && !/^(true|false)$/i.test(v)))
          throw new ScimError(400, MSG.scimFiltroInvalido('active espera true o false'), 'invalidFilter');
        return eq(users.activo, b);
      }
      if (typeof v !== 'string')
        throw new ScimError(400, MSG.scimFiltroInvalido(`${f.attr} espera una cadena`), 'invalidFilter');
      if (f.attr === 'username') return sql`lower(${users.usuario}) = lower(${v})`;
      if (f.attr === 'externalid') return eq(users.scimExternalId, v);
      if (f.attr === 'id') {
        const id = idOf(v);
        return id === null ? sql`false` : eq(users.id, id);
      }
      return sql`lower(${users.email}) = lower(${v})`;
    }
  }
}

/** RFC 7644 §3.4.2.4: a 1-based startIndex (below 1 is 1) and a count (negative is 0, capped). */
export function pageOf(query: { startIndex?: string; count?: string }, max: number) {
  const start = Number.parseInt(query.startIndex ?? '', 10);
  const n = Number.parseInt(query.count ?? '', 10);
  return {
    startIndex: Number.isFinite(start) && start > 0 ? start : 1,
    count: Number.isFinite(n) ? Math.min(Math.max(n, 0), max) : max,
  };
}

/** GET /scim/v2/Users: the tenant's users, oldest first, filtered and paginated. */
export async function listScimUsers(
  deps: Pick<Deps, 'db' | 'config'>,
  caller: ScimCaller,
  query: { filter?: string; startIndex?: string; count?: string },
  max: number,
) {
  const where = and(
    tenantUsers(caller.idCliente),
    query.filter !== undefined ? filterSql(parseFilter(query.filter, USER_FILTER_ATTRS)) : undefined,
  );
  const page = pageOf(query, max);
  const [rows, [total]] = await Promise.all([
    page.count === 0
      ? Promise.resolve([])
      : deps.db
          .select(userColumns)
          .from(users)
          .where(where)
          .orderBy(asc(users.id))
          .limit(page.count)
          .offset(page.startIndex - 1),
    deps.db.select({ n: count() }).from(users).where(where),
  ]);
  const base = scimBaseUrl(deps);
  return listResponse(
    rows.map((r) => toScimUser(base, r)),
    total?.n ?? 0,
    page.startIndex,
  );
}

async function userRow(db: Deps['db'] | Tx, caller: ScimCaller, id: number, lock = false) {
  const q = db
    .select(userColumns)
    .from(users)
    .where(and(eq(users.id, id), tenantUsers(caller.idCliente)));
  const [row] = lock ? await q.for('update') : await q;
  return row ?? null;
}

/** GET /scim/v2/Users/{id}: another client's user, an administrator or a missing id are the same 404. */
export async function getScimUser(deps: Pick<Deps, 'db' | 'config'>, caller: ScimCaller, rawId: string) {
  const id = idOf(rawId);
  const row = id === null ? null : await userRow(deps.db, caller, id);
  if (!row) throw userNotFound(rawId);
  return toScimUser(scimBaseUrl(deps), row);
}

async function usuarioTaken(tx: Tx, usuario: string, exceptId?: number) {
  const [row] = await tx
    .select({ id: users.id })
    .from(users)
    .where(
      and(sql`lower(${users.usuario}) = lower(${usuario})`, exceptId ? ne(users.id, exceptId) : undefined),
    )
    .limit(1);
  return Boolean(row);
}

async function externalIdTaken(tx: Tx, idCliente: number, externalId: string, exceptId?: number) {
  const [row] = await tx
    .select({ id: users.id })
    .from(users)
    .where(
      and(
        eq(users.idCliente, idCliente),
        eq(users.scimExternalId, externalId),
        exceptId ? ne(users.id, exceptId) : undefined,
      ),
    )
    .limit(1);
  return Boolean(row);
}

/** The client signs in with its own provider (decision 0120): its accounts get no password, no welcome. */
async function hasSso(tx: Tx, idCliente: number): Promise<boolean> {
  const [row] = await tx
    .select({ id: clientSso.idCliente })
    .from(clientSso)
    .where(and(eq(clientSso.idCliente, idCliente), eq(clientSso.activo, true)));
  return Boolean(row);
}

async function checkUnique(tx: Tx, caller: ScimCaller, state: UserState, exceptId?: number) {
  if (await usuarioTaken(tx, state.userName, exceptId)) throw uniqueness(MSG.scimUsuarioTomado);
  if (state.externalId !== null && (await externalIdTaken(tx, caller.idCliente, state.externalId, exceptId)))
    throw uniqueness(MSG.scimExternalIdTomado);
}

/** A unique index lost to a concurrent write answers as the check before it would have. */
function rethrowUnique(err: unknown): never {
  if (isUniqueViolation(err, 'users_usuario_unique')) throw uniqueness(MSG.scimUsuarioTomado);
  if (isUniqueViolation(err, 'users_scim_external_unique')) throw uniqueness(MSG.scimExternalIdTomado);
  throw err;
}

/**
 * POST /scim/v2/Users: a joiner. Made through the users module's one way to create accounts
 * (`createAccounts`: rol 1, the client's purchase limit and budget), with its welcome link unless the
 * client signs in with its own provider or the account arrives inactive.
 */
export async function createScimUser(deps: Deps, caller: ScimCaller, body: unknown) {
  const state = parseUserResource(body);
  let id: number;
  try {
    id = await deps.db.transaction(async (tx) => {
      const [client] = await tx.select().from(clients).where(eq(clients.id, caller.idCliente));
      if (!client) throw new ScimError(401, MSG.tokenInvalido);
      await checkUnique(tx, caller, state);
      const welcome = state.active && !(await hasSso(tx, caller.idCliente));
      const [user] = await createAccounts(
        tx,
        client,
        [
          {
            usuario: state.userName,
            email: state.email,
            nombre: state.nombre,
            rol: 1,
            activo: state.active,
            scimExternalId: state.externalId,
            limiteDeCompras: null,
            presupuestoDefault: null,
          },
        ],
        deps.config.PUBLIC_URL,
        deps.clock.now(),
        { welcome },
      );
      if (!user) throw uniqueness(MSG.scimUsuarioTomado);
      await audit(tx, {
        userId: null,
        eventType: 'usuario_creado',
        description: `Usuario creado por aprovisionamiento (SCIM): ${user.usuario} (rol ${user.rol})`,
        metadata: {
          id_usuario: user.id,
          id_cliente: caller.idCliente,
          rol: user.rol,
          correo_bienvenida: user.welcomed,
          origen: 'scim',
          id_token_scim: caller.tokenId,
        },
      });
      return user.id;
    });
  } catch (err) {
    rethrowUnique(err);
  }
  void deps.mailer.flush();
  return getScimUser(deps, caller, String(id));
}

/** A leaver (modules/users/leavers.ts): sessions end, waiting orders withdrawn. */
function leave(tx: Tx, deps: Deps, caller: ScimCaller, user: ScimUserRow): Promise<number[]> {
  return withdrawLeaver(tx, deps, user.id, {
    how: '(SCIM)',
    metadata: { origen: 'scim', id_token_scim: caller.tokenId },
  });
}

/**
 * Writes a user's new state (PUT, PATCH, DELETE): the row, then what follows a change — a leaver's sessions
 * and pending orders, the password links of a changed e-mail, username or state (a reactivated account that
 * never set a password gets a new welcome link unless the client signs in with its provider), and one log
 * entry.
 */
async function writeUser(tx: Tx, deps: Deps, caller: ScimCaller, before: ScimUserRow, after: UserState) {
  await checkUnique(tx, caller, after, before.id);
  const now = deps.clock.now();
  await tx
    .update(users)
    .set({
      usuario: after.userName,
      email: after.email,
      nombre: after.nombre,
      scimExternalId: after.externalId,
      activo: after.active,
      updatedAt: now,
    })
    .where(eq(users.id, before.id));
  const leaver = before.activo && !after.active;
  const withdrawn = leaver ? await leave(tx, deps, caller, before) : [];
  let welcomed = false;
  if (after.email !== before.email || after.userName !== before.usuario || after.active !== before.activo) {
    await retireAllLinks(tx, before.id, now);
    if (after.active && before.passwordHash === null && !(await hasSso(tx, caller.idCliente)))
      welcomed = await sendWelcomeLink(
        tx,
        { id: before.id, usuario: after.userName, nombre: after.nombre, email: after.email },
        deps.config.PUBLIC_URL,
        now,
      );
  }
  const changed = [
    after.userName !== before.usuario && 'usuario',
    after.email !== before.email && 'userId',
    after.nombre !== before.nombre && 'nombre',
    after.externalId !== before.scimExternalId && 'externalId',
    after.active !== before.activo && 'activo',
  ].filter((c): c is string => Boolean(c));
  if (changed.length === 0) return false;
  await audit(tx, {
    userId: null,
    eventType: leaver ? 'usuario_baja_scim' : 'usuario_actualizado',
    description: leaver
      ? `Usuario dado de baja por aprovisionamiento (SCIM): ${after.userName}; ${withdrawn.length} pedido(s) retirado(s)`
      : `Usuario ${!before.activo && after.active ? 'activado' : 'modificado'} por aprovisionamiento (SCIM): ${after.userName}`,
    metadata: {
      id_usuario: before.id,
      id_cliente: caller.idCliente,
      campos: changed,
      activo: after.active,
      origen: 'scim',
      id_token_scim: caller.tokenId,
      ...(leaver ? { pedidos_retirados: withdrawn } : {}),
      ...(welcomed ? { correo_bienvenida: true } : {}),
    },
  });
  return welcomed;
}

/** Reads and locks the user, computes its new state from it, writes it; answers the user as it is now. */
async function changeUser(
  deps: Deps,
  caller: ScimCaller,
  rawId: string,
  next: (before: ScimUserRow) => UserState,
) {
  const id = idOf(rawId);
  if (id === null) throw userNotFound(rawId);
  let welcomed = false;
  try {
    welcomed = await deps.db.transaction(async (tx) => {
      const before = await userRow(tx, caller, id, true);
      if (!before) throw userNotFound(rawId);
      return writeUser(tx, deps, caller, before, next(before));
    });
  } catch (err) {
    rethrowUnique(err);
  }
  if (welcomed) void deps.mailer.flush();
  return getScimUser(deps, caller, rawId);
}

export const stateOf = (row: ScimUserRow): UserState => ({
  userName: row.usuario,
  nombre: row.nombre,
  email: row.email,
  externalId: row.scimExternalId,
  active: row.activo,
});

/** PUT /scim/v2/Users/{id}: the resource replaced (attributes it leaves out keep what the portal needs). */
export function replaceScimUser(deps: Deps, caller: ScimCaller, rawId: string, body: unknown) {
  const state = parseUserResource(body);
  return changeUser(deps, caller, rawId, () => state);
}

/** PATCH /scim/v2/Users/{id}: a PatchOp (RFC 7644 §3.5.2) on the attributes the portal stores. */
export function patchScimUser(deps: Deps, caller: ScimCaller, rawId: string, body: unknown) {
  return changeUser(deps, caller, rawId, (before) => applyUserPatch(stateOf(before), body));
}

/** DELETE /scim/v2/Users/{id}: the account is deactivated (a leaver), never deleted: orders name it. */
export async function deleteScimUser(deps: Deps, caller: ScimCaller, rawId: string): Promise<void> {
  await changeUser(deps, caller, rawId, (before) => ({ ...stateOf(before), active: false }));
}
