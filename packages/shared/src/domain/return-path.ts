/**
 * Where sign-in continues (docs/domain.md "Sign-in": links that survive sign-in). A protected page opened
 * without a session goes to `/login?volver=<path + search>`; after sign-in the app opens `volver` only when
 * it is a path of this portal that the signed-in role may open, otherwise the role's home.
 */
import { homeFor, isRol, ROLE_AREAS } from './role-areas.ts';

/** The query parameter of /login (and of the forced screens) that carries the page to return to. */
export const RETURN_PARAM = 'volver';

/** Longer than any screen's path with its filters; a longer value is refused, not cut. */
const MAX_RETURN_PATH = 1000;

/**
 * A same-origin path: exactly one leading `/`, no `//` or `\` anywhere, no control characters, no `.` or
 * `..` segment (plain or percent-encoded). A scheme (`https:`, `javascript:`) cannot start such a path.
 */
export function isSafePath(value: string): boolean {
  if (value.length === 0 || value.length > MAX_RETURN_PATH) return false;
  if (value[0] !== '/') return false;
  if (value.includes('//') || value.includes('\\')) return false;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this refuses
  if (/[\u0000-\u001f\u007f-\u009f]/.test(value)) return false;
  const path = value.split(/[?#]/, 1)[0] ?? '';
  if (/%(2f|5c|2e)/i.test(path)) return false;
  return !path.split('/').some((segment) => segment === '.' || segment === '..');
}

/** Whether `path` (already a safe path) is in the area of `rol`: `/usuario…`, `/autorizador…`, `/administrador…`, `/cliente…`. */
function inAreaOf(path: string, rol: number): boolean {
  if (!isRol(rol)) return false;
  const area = `/${ROLE_AREAS[rol]}`;
  if (!path.startsWith(area)) return false;
  const rest = path.slice(area.length);
  return rest === '' || /^[/?#]/.test(rest);
}

/** `volver` when it is a safe path that `rol` may open; otherwise null. */
export function allowedReturnPath(volver: string | null | undefined, rol: number): string | null {
  if (typeof volver !== 'string' || !isSafePath(volver)) return null;
  return inAreaOf(volver, rol) ? volver : null;
}

/** Where sign-in continues: `volver` when allowed for `rol`, else the role's home. */
export function returnPathFor(volver: string | null | undefined, rol: number): string {
  return allowedReturnPath(volver, rol) ?? homeFor(rol);
}

/** `/login?volver=…` for a page opened without a session (the bare `/login` for `/` and public pages). */
export function loginPathFor(pathAndSearch: string): string {
  if (
    !isSafePath(pathAndSearch) ||
    !/^\/(usuario|autorizador|administrador|cliente)(?:[/?#]|$)/.test(pathAndSearch)
  )
    return '/login';
  return `/login?${RETURN_PARAM}=${encodeURIComponent(pathAndSearch)}`;
}
