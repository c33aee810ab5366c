import { MSG } from '../../messages.ts';
import { ScimError, scimBoolean, URN } from './scim-protocol.ts';

/** What the portal stores of a SCIM user. */
export interface UserState {
  userName: string;
  nombre: string;
  email: string;
  externalId: string | null;
  active: boolean;
}

const MAX_USERNAME = 100;
const MAX_TEXT = 200;
const MAX_EMAIL = 254;

/**
 * User attributes of the core schema and Entra ID's enterprise extension that the portal does not store:
 * identity providers send them by default, and they are ignored rather than refused.
 */
const IGNORED = new Set([
  'title',
  'nickname',
  'profileurl',
  'usertype',
  'preferredlanguage',
  'locale',
  'timezone',
  'phonenumbers',
  'addresses',
  'ims',
  'photos',
  'entitlements',
  'roles',
  'x509certificates',
  'password',
]);
const ENTERPRISE = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:user';

const invalidValue = (campo: string) => new ScimError(400, MSG.scimValorInvalido(campo), 'invalidValue');
const invalidPath = (path: string) => new ScimError(400, MSG.scimRutaInvalida(path), 'invalidPath');

function text(value: unknown, campo: string, max: number): string {
  if (typeof value !== 'string' || value.length > max) throw invalidValue(campo);
  return value.trim();
}

/** The e-mail of a SCIM `emails` value: the primary one, else the first; none is ''. */
function emailOf(value: unknown): string {
  const list = Array.isArray(value) ? value : value && typeof value === 'object' ? [value] : null;
  if (!list) throw invalidValue('emails');
  if (list.length === 0) return '';
  const chosen = (list.find((e) => e && typeof e === 'object' && scimBoolean(e.primary) === true) ??
    list[0]) as { value?: unknown };
  if (!chosen || typeof chosen !== 'object') throw invalidValue('emails');
  return text(chosen.value ?? '', 'emails', MAX_EMAIL).toLowerCase();
}

/** `name` as SCIM sends it: formatted, else givenName and familyName. */
function nameOf(value: unknown): string | null {
  if (!value || typeof value !== 'object') throw invalidValue('name');
  const n = value as Record<string, unknown>;
  if (n.formatted !== undefined && n.formatted !== null && String(n.formatted).trim())
    return text(n.formatted, 'name.formatted', MAX_TEXT);
  const parts = [n.givenName, n.familyName]
    .filter((p) => p !== undefined && p !== null)
    .map((p) => text(p, 'name', MAX_TEXT));
  const joined = parts.join(' ').trim();
  return joined || null;
}

/** An attribute name without the User schema's URN, lower-cased. */
function pathKey(path: string): string {
  const lower = path.trim().toLowerCase();
  const urn = `${URN.user.toLowerCase()}:`;
  return lower.startsWith(urn) ? lower.slice(urn.length) : lower;
}

const isIgnored = (key: string) =>
  key.startsWith(ENTERPRISE) || IGNORED.has(key.split(/[.[]/)[0]!) || key === 'schemas' || key === 'meta';

/** POST/PUT bodies: a whole User resource. `userName` is required. */
export function parseUserResource(body: unknown): UserState {
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw invalidValue('User');
  const b = body as Record<string, unknown>;
  if (typeof b.userName !== 'string' || !b.userName.trim())
    throw new ScimError(400, MSG.scimFaltaUserName, 'invalidValue');
  const userName = text(b.userName, 'userName', MAX_USERNAME);
  const nombre =
    (b.name !== undefined && b.name !== null ? nameOf(b.name) : null) ??
    (typeof b.displayName === 'string' && b.displayName.trim()
      ? text(b.displayName, 'displayName', MAX_TEXT)
      : null) ??
    userName;
  const active = b.active === undefined || b.active === null ? true : scimBoolean(b.active);
  if (active === null) throw invalidValue('active');
  const externalId =
    b.externalId === undefined || b.externalId === null
      ? null
      : text(b.externalId, 'externalId', MAX_TEXT) || null;
  return {
    userName,
    nombre,
    email: b.emails === undefined || b.emails === null ? '' : emailOf(b.emails),
    externalId,
    active,
  };
}

/** givenName and familyName of a stored name: its first word, and the rest. */
function splitName(nombre: string): [string, string] {
  const [given = '', ...rest] = nombre.trim().split(/\s+/);
  return [given, rest.join(' ')];
}

/** Sets one attribute (add and replace are the same for the portal's single-valued attributes). */
function setAttr(state: UserState, path: string, value: unknown): void {
  const key = pathKey(path);
  if (isIgnored(key)) return;
  switch (key) {
    case 'active': {
      const b = scimBoolean(value);
      if (b === null) throw invalidValue('active');
      state.active = b;
      return;
    }
    case 'username':
      if (typeof value !== 'string' || !value.trim()) throw invalidValue('userName');
      state.userName = text(value, 'userName', MAX_USERNAME);
      return;
    case 'externalid':
      state.externalId = value === null ? null : text(value, 'externalId', MAX_TEXT) || null;
      return;
    case 'displayname':
    case 'name.formatted':
      state.nombre = text(value, key, MAX_TEXT) || state.nombre;
      return;
    case 'name': {
      if (value && typeof value === 'object') {
        const n = value as Record<string, unknown>;
        if (n.formatted !== undefined) setAttr(state, 'name.formatted', n.formatted);
        if (n.givenName !== undefined) setAttr(state, 'name.givenName', n.givenName);
        if (n.familyName !== undefined) setAttr(state, 'name.familyName', n.familyName);
        return;
      }
      throw invalidValue('name');
    }
    case 'name.givenname':
    case 'name.familyname': {
      const [given, family] = splitName(state.nombre);
      const v = text(value, key, MAX_TEXT);
      state.nombre = (key === 'name.givenname' ? `${v} ${family}` : `${given} ${v}`).trim() || state.nombre;
      return;
    }
    case 'emails':
      state.email = emailOf(value);
      return;
    case 'emails.value':
    case 'emails[type eq "work"].value':
    case 'emails[primary eq true].value':
      state.email = text(value, 'emails', MAX_EMAIL).toLowerCase();
      return;
    case 'groups':
      throw new ScimError(400, MSG.scimRutaInvalida('groups (usa /Groups)'), 'mutability');
    default:
      throw invalidPath(path);
  }
}

function removeAttr(state: UserState, path: string): void {
  const key = pathKey(path);
  if (isIgnored(key)) return;
  if (key === 'externalid') state.externalId = null;
  else if (key.startsWith('emails')) state.email = '';
  else if (key === 'active' || key === 'username' || key === 'groups')
    throw new ScimError(400, MSG.scimRutaInvalida(path), 'mutability');
  else if (key === 'name' || key.startsWith('name.') || key === 'displayname') state.nombre = state.userName;
  else throw invalidPath(path);
}

/**
 * A PatchOp (RFC 7644 §3.5.2) applied to a user's state: `add`, `replace` and `remove`, with or without
 * `path`, op names in any case and string booleans (as Microsoft Entra ID sends them).
 */
export function applyUserPatch(current: UserState, body: unknown): UserState {
  const state = { ...current };
  const b = body as { schemas?: unknown; Operations?: unknown } | null;
  if (!b || typeof b !== 'object' || !Array.isArray(b.Operations) || b.Operations.length === 0)
    throw new ScimError(400, MSG.scimSinOperaciones, 'invalidSyntax');
  for (const raw of b.Operations as unknown[]) {
    const op = raw as { op?: unknown; path?: unknown; value?: unknown };
    const name = typeof op?.op === 'string' ? op.op.toLowerCase() : '';
    if (name !== 'add' && name !== 'replace' && name !== 'remove')
      throw new ScimError(400, MSG.scimOperacionInvalida(String(op?.op)), 'invalidSyntax');
    if (op.path !== undefined && typeof op.path !== 'string') throw invalidPath(String(op.path));
    const path = op.path as string | undefined;
    if (name === 'remove') {
      if (!path) throw new ScimError(400, MSG.scimRutaInvalida('(sin path)'), 'noTarget');
      removeAttr(state, path);
    } else if (path) {
      setAttr(state, path, op.value);
    } else {
      if (!op.value || typeof op.value !== 'object' || Array.isArray(op.value)) throw invalidValue('value');
      for (const [k, v] of Object.entries(op.value as Record<string, unknown>)) setAttr(state, k, v);
    }
  }
  return state;
}
