import { ROLES } from '@portal/shared/domain/roles';
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { areas, clients, users } from '../../db/schema/index.ts';
import { audit } from '../../lib/audit.ts';
import type { Deps } from '../../lib/deps.ts';
import { MSG } from '../../messages.ts';
import { roleAllowed } from '../users/users.service.ts';
import { type Filter, parseFilter } from './scim-filter.ts';
import {
  groupId,
  groupName,
  listResponse,
  roleOfGroup,
  SCIM_ROLES,
  ScimError,
  type ScimRole,
  URN,
} from './scim-protocol.ts';
import { type ScimCaller, scimBaseUrl } from './scim-token.service.ts';
import { idOf, pageOf, tenantUsers } from './scim-users.service.ts';

/**
 * The groups are the roles 1–3, fixed (decision 0121): `rol-1` Usuario, `rol-2` Autorizador, `rol-3` Super
 * Autorizador. A user is a member of their role's group; adding them to another group sets that role, and
 * removing them from their role's group puts them back to rol 1. After them come the client's áreas
 * (decision 0123), `area-{id}` named as the área: adding a user to one puts them in that área (a user is in
 * one área at most), removing them leaves them in none. Áreas are created in the portal, never by SCIM.
 */
type Group = { kind: 'rol'; rol: ScimRole } | { kind: 'area'; id: number; nombre: string };

const idOfGroup = (g: Group) => (g.kind === 'rol' ? groupId(g.rol) : `area-${g.id}`);
const nameOfGroup = (g: Group) => (g.kind === 'rol' ? groupName(g.rol) : g.nombre);

/** Every group of the tenant: the three roles, then its áreas by id. */
async function groupsOf(db: Deps['db'] | Tx, caller: ScimCaller): Promise<Group[]> {
  const list = await db
    .select({ id: areas.id, nombre: areas.nombre })
    .from(areas)
    .where(eq(areas.idCliente, caller.idCliente))
    .orderBy(asc(areas.id));
  return [
    ...SCIM_ROLES.map((rol) => ({ kind: 'rol' as const, rol })),
    ...list.map((a) => ({ kind: 'area' as const, ...a })),
  ];
}

/** The group of an id (`rol-2`, `area-7` of the tenant), or null. */
async function groupOf(db: Deps['db'] | Tx, caller: ScimCaller, rawId: string): Promise<Group | null> {
  if (/^rol-[123]$/.test(rawId)) return { kind: 'rol', rol: roleOfGroup(rawId)! };
  const m = /^area-([1-9][0-9]{0,9})$/.exec(rawId);
  if (!m) return null;
  const [a] = await db
    .select({ id: areas.id, nombre: areas.nombre })
    .from(areas)
    .where(and(eq(areas.id, Number(m[1])), eq(areas.idCliente, caller.idCliente)));
  return a ? { kind: 'area', ...a } : null;
}
const GROUP_FILTER_ATTRS = new Set(['displayname', 'id', 'externalid']);

const groupNotFound = (id: string) => new ScimError(404, MSG.scimGrupoNoEncontrado(id));

async function membersOf(db: Deps['db'] | Tx, caller: ScimCaller, group: Group) {
  return db
    .select({ id: users.id, usuario: users.usuario })
    .from(users)
    .where(
      and(
        tenantUsers(caller.idCliente),
        group.kind === 'rol' ? eq(users.rol, group.rol) : eq(users.idArea, group.id),
      ),
    )
    .orderBy(asc(users.id));
}

async function toScimGroup(
  deps: Pick<Deps, 'db' | 'config'>,
  caller: ScimCaller,
  group: Group,
  members: boolean,
) {
  const base = scimBaseUrl(deps);
  return {
    schemas: [URN.group],
    id: idOfGroup(group),
    displayName: nameOfGroup(group),
    ...(members
      ? {
          members: (await membersOf(deps.db, caller, group)).map((m) => ({
            value: String(m.id),
            display: m.usuario,
            $ref: `${base}/Users/${m.id}`,
          })),
        }
      : {}),
    meta: { resourceType: 'Group', location: `${base}/Groups/${idOfGroup(group)}` },
  };
}

function matches(f: Filter, group: Group): boolean {
  switch (f.kind) {
    case 'none':
      return false;
    case 'and':
      return matches(f.left, group) && matches(f.right, group);
    case 'or':
      return matches(f.left, group) || matches(f.right, group);
    case 'eq':
      if (typeof f.value !== 'string') return false;
      if (f.attr === 'displayname') return nameOfGroup(group).toLowerCase() === f.value.toLowerCase();
      return idOfGroup(group) === f.value;
  }
}

const withoutMembers = (query: { excludedAttributes?: string; attributes?: string }) =>
  /(^|,)\s*members\s*(,|$)/i.test(query.excludedAttributes ?? '') ||
  (query.attributes !== undefined && !/(^|,)\s*members\s*(,|$)/i.test(query.attributes));

/** GET /scim/v2/Groups: the three role groups and the áreas, filtered by displayName or id. */
export async function listScimGroups(
  deps: Pick<Deps, 'db' | 'config'>,
  caller: ScimCaller,
  query: {
    filter?: string;
    startIndex?: string;
    count?: string;
    excludedAttributes?: string;
    attributes?: string;
  },
  max: number,
) {
  const filter = query.filter !== undefined ? parseFilter(query.filter, GROUP_FILTER_ATTRS) : null;
  const found = (await groupsOf(deps.db, caller)).filter((g) => !filter || matches(filter, g));
  const page = pageOf(query, max);
  const shown = found.slice(page.startIndex - 1, page.startIndex - 1 + page.count);
  const members = !withoutMembers(query);
  return listResponse(
    await Promise.all(shown.map((g) => toScimGroup(deps, caller, g, members))),
    found.length,
    page.startIndex,
  );
}

/** GET /scim/v2/Groups/{id}. */
export async function getScimGroup(
  deps: Pick<Deps, 'db' | 'config'>,
  caller: ScimCaller,
  rawId: string,
  query: { excludedAttributes?: string; attributes?: string } = {},
) {
  const group = await groupOf(deps.db, caller, rawId);
  if (!group) throw groupNotFound(rawId);
  return toScimGroup(deps, caller, group, !withoutMembers(query));
}

/** The member ids of a `members` value: `[{ "value": "12" }, …]`. */
function memberIds(value: unknown): string[] {
  const list = Array.isArray(value) ? value : value && typeof value === 'object' ? [value] : null;
  if (!list) throw new ScimError(400, MSG.scimValorInvalido('members'), 'invalidValue');
  return list.map((m) => {
    const v = (m as { value?: unknown } | null)?.value;
    if (typeof v !== 'string' && typeof v !== 'number')
      throw new ScimError(400, MSG.scimValorInvalido('members'), 'invalidValue');
    return String(v);
  });
}

/** Sets the role of these users (of the tenant, roles 1–3); an id that is not one is a 400 with nothing changed. */
async function setRole(
  tx: Tx,
  at: Date,
  caller: ScimCaller,
  rawIds: string[],
  rol: ScimRole,
  onlyFrom?: ScimRole,
) {
  if (rawIds.length === 0) return;
  const ids = rawIds.map((raw) => {
    const id = idOf(raw);
    if (id === null) throw new ScimError(400, MSG.scimMiembroNoEncontrado(raw), 'invalidValue');
    return id;
  });
  const found = await tx
    .select({ id: users.id, rol: users.rol, usuario: users.usuario })
    .from(users)
    .where(and(tenantUsers(caller.idCliente), inArray(users.id, ids)))
    .for('update');
  const missing = rawIds.find((raw) => !found.some((f) => f.id === Number(raw)));
  if (missing) throw new ScimError(400, MSG.scimMiembroNoEncontrado(missing), 'invalidValue');
  const moving = found.filter((f) => f.rol !== rol && (onlyFrom === undefined || f.rol === onlyFrom));
  if (moving.length === 0) return;
  await tx
    .update(users)
    .set({ rol, updatedAt: at })
    .where(
      inArray(
        users.id,
        moving.map((m) => m.id),
      ),
    );
  for (const m of moving)
    await audit(tx, {
      userId: null,
      eventType: 'usuario_actualizado',
      description: `Usuario modificado por aprovisionamiento (SCIM): ${m.usuario} pasa a rol ${rol}`,
      metadata: {
        id_usuario: m.id,
        id_cliente: caller.idCliente,
        campos: ['rol'],
        rol_anterior: m.rol,
        rol,
        origen: 'scim',
        id_token_scim: caller.tokenId,
      },
    });
}

/**
 * Puts these users (of the tenant, roles 1–3) in an área, or in none (`idArea` null; with `onlyFrom`, only
 * those in that área); an id that is not one is a 400 with nothing changed.
 */
async function setArea(
  tx: Tx,
  at: Date,
  caller: ScimCaller,
  rawIds: string[],
  idArea: number | null,
  onlyFrom?: number,
) {
  if (rawIds.length === 0) return;
  const ids = rawIds.map((raw) => {
    const id = idOf(raw);
    if (id === null) throw new ScimError(400, MSG.scimMiembroNoEncontrado(raw), 'invalidValue');
    return id;
  });
  const found = await tx
    .select({ id: users.id, idArea: users.idArea, usuario: users.usuario })
    .from(users)
    .where(and(tenantUsers(caller.idCliente), inArray(users.id, ids)))
    .for('update');
  const missing = rawIds.find((raw) => !found.some((f) => f.id === Number(raw)));
  if (missing) throw new ScimError(400, MSG.scimMiembroNoEncontrado(missing), 'invalidValue');
  const moving = found.filter(
    (f) => f.idArea !== idArea && (onlyFrom === undefined || f.idArea === onlyFrom),
  );
  if (moving.length === 0) return;
  await tx
    .update(users)
    .set({ idArea, updatedAt: at })
    .where(
      inArray(
        users.id,
        moving.map((m) => m.id),
      ),
    );
  for (const m of moving)
    await audit(tx, {
      userId: null,
      eventType: 'usuario_actualizado',
      description: `Usuario modificado por aprovisionamiento (SCIM): ${m.usuario} ${
        idArea === null ? 'sale de su área' : 'cambia de área'
      }`,
      metadata: {
        id_usuario: m.id,
        id_cliente: caller.idCliente,
        campos: ['id_area'],
        id_area_anterior: m.idArea,
        id_area: idArea,
        origen: 'scim',
        id_token_scim: caller.tokenId,
      },
    });
}

interface MembershipChange {
  add: string[];
  remove: string[];
  /** The whole membership (replace): members not listed go back to rol 1. */
  replace: string[] | null;
}

/** `members[value eq "12"]` → "12". */
function memberOfPath(path: string): string | null {
  const m = /^members\s*\[\s*value\s+eq\s+"([^"]*)"\s*\]$/i.exec(path.trim());
  return m ? m[1]! : null;
}

function patchChanges(body: unknown, displayName: string): MembershipChange {
  const b = body as { Operations?: unknown } | null;
  if (!b || typeof b !== 'object' || !Array.isArray(b.Operations) || b.Operations.length === 0)
    throw new ScimError(400, MSG.scimSinOperaciones, 'invalidSyntax');
  const change: MembershipChange = { add: [], remove: [], replace: null };
  for (const raw of b.Operations as unknown[]) {
    const op = raw as { op?: unknown; path?: unknown; value?: unknown };
    const name = typeof op?.op === 'string' ? op.op.toLowerCase() : '';
    const path = typeof op?.path === 'string' ? op.path.trim() : undefined;
    if (name !== 'add' && name !== 'replace' && name !== 'remove')
      throw new ScimError(400, MSG.scimOperacionInvalida(String(op?.op)), 'invalidSyntax');
    if (name === 'remove') {
      if (!path) throw new ScimError(400, MSG.scimRutaInvalida('(sin path)'), 'noTarget');
      const one = memberOfPath(path);
      if (one !== null) change.remove.push(one);
      else if (path.toLowerCase() === 'members')
        // Entra ID lists the members in `value`; without one, every member leaves the group.
        change.remove.push(...(op.value === undefined ? ['*'] : memberIds(op.value)));
      else throw new ScimError(400, MSG.scimRutaInvalida(path), 'invalidPath');
      continue;
    }
    let members: unknown;
    if (path) {
      if (path.toLowerCase() === 'displayname') {
        if (typeof op.value === 'string' && op.value.toLowerCase() === displayName.toLowerCase()) continue;
        throw new ScimError(400, MSG.scimGruposFijos, 'mutability');
      }
      if (path.toLowerCase() !== 'members')
        throw new ScimError(400, MSG.scimRutaInvalida(path), 'invalidPath');
      members = op.value;
    } else {
      const v = op.value as Record<string, unknown> | null;
      if (!v || typeof v !== 'object')
        throw new ScimError(400, MSG.scimValorInvalido('value'), 'invalidValue');
      if (v.displayName !== undefined && String(v.displayName).toLowerCase() !== displayName.toLowerCase())
        throw new ScimError(400, MSG.scimGruposFijos, 'mutability');
      if (v.members === undefined) continue;
      members = v.members;
    }
    const ids = memberIds(members);
    if (name === 'add') change.add.push(...ids);
    else change.replace = ids;
  }
  return change;
}

/** Applies a membership change to a group in one transaction; answers the group as it is now. */
async function changeGroup(
  deps: Deps,
  caller: ScimCaller,
  rawId: string,
  change: (name: string) => MembershipChange,
) {
  const group = await groupOf(deps.db, caller, rawId);
  if (!group) throw groupNotFound(rawId);
  const c = change(nameOfGroup(group));
  if (group.kind === 'area') {
    const at = deps.clock.now();
    await deps.db.transaction(async (tx) => {
      if (c.replace) {
        const keep = new Set(c.replace);
        const leaving = (await membersOf(tx, caller, group))
          .map((m) => String(m.id))
          .filter((id) => !keep.has(id));
        await setArea(tx, at, caller, leaving, null, group.id);
      }
      await setArea(tx, at, caller, [...c.add, ...(c.replace ?? [])], group.id);
      if (c.remove.length > 0) {
        const ids = c.remove.includes('*')
          ? (await membersOf(tx, caller, group)).map((m) => String(m.id))
          : c.remove;
        await setArea(tx, at, caller, ids, null, group.id);
      }
    });
    return getScimGroup(deps, caller, rawId);
  }
  const rol = group.rol;
  await deps.db.transaction(async (tx) => {
    const [client] = await tx.select().from(clients).where(eq(clients.id, caller.idCliente));
    const joining = [...c.add, ...(c.replace ?? [])];
    if (joining.length > 0 && !roleAllowed(rol, client!))
      throw new ScimError(400, MSG.scimSuperNoDisponible, 'invalidValue');
    if (c.replace) {
      const keep = new Set(c.replace);
      const current = await membersOf(tx, caller, group);
      const leaving = current.map((m) => String(m.id)).filter((id) => !keep.has(id));
      if (rol !== ROLES.usuario) await setRole(tx, deps.clock.now(), caller, leaving, ROLES.usuario, rol);
    }
    await setRole(tx, deps.clock.now(), caller, joining, rol);
    if (rol !== ROLES.usuario && c.remove.length > 0) {
      const all = c.remove.includes('*');
      const ids = all ? (await membersOf(tx, caller, group)).map((m) => String(m.id)) : c.remove;
      // Only members of this group go back to rol 1; removing someone who is not a member changes nothing.
      await setRole(tx, deps.clock.now(), caller, ids, ROLES.usuario, rol);
    }
  });
  return getScimGroup(deps, caller, rawId);
}

/** PATCH /scim/v2/Groups/{id}: members added, removed or replaced (RFC 7644 §3.5.2). */
export function patchScimGroup(deps: Deps, caller: ScimCaller, rawId: string, body: unknown) {
  return changeGroup(deps, caller, rawId, (name) => patchChanges(body, name));
}

/** PUT /scim/v2/Groups/{id}: the group's whole membership (its displayName is fixed). */
export function replaceScimGroup(deps: Deps, caller: ScimCaller, rawId: string, body: unknown) {
  return changeGroup(deps, caller, rawId, (name) => {
    const b = body as { displayName?: unknown; members?: unknown } | null;
    if (!b || typeof b !== 'object') throw new ScimError(400, MSG.scimValorInvalido('Group'), 'invalidValue');
    if (b.displayName !== undefined && String(b.displayName).toLowerCase() !== name.toLowerCase())
      throw new ScimError(400, MSG.scimGruposFijos, 'mutability');
    return {
      add: [],
      remove: [],
      replace: b.members === undefined || b.members === null ? [] : memberIds(b.members),
    };
  });
}
