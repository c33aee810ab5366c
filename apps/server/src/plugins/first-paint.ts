/**
 * Which page of the web build a signed-in request for a screen gets (scripts/first-paint.mjs writes them):
 * a page's first paint (decision 0150), an area's or a dashboard's boot requests (0151), or a page's boot
 * requests with its first data (0153), this last only for a session whose boot will show that screen.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { type Area, areaAllows, isRol } from '@portal/shared/domain/roles';
import type { Deps } from '../lib/deps.ts';
import { opensScreens, standing } from './auth-guard.ts';
import type { SessionStore } from './session.ts';

export interface FirstPaintPages {
  /** Path → the page's first paint, for the address alone (a query may change the heading). */
  pages: ReadonlyMap<string, string>;
  /** A dashboard's path or an area ("/usuario/") → index.html with the boot's requests. */
  areas: ReadonlyMap<string, string>;
  /** Path → the boot's requests and the page's first data, for a session of that area. */
  data: ReadonlyMap<string, { archivo: string; area: Area }>;
}

/** What the build wrote under `dist` (primera/paginas.json); empty tables without a build that wrote them. */
export function firstPaintPages(dist: string): FirstPaintPages {
  const file = path.join(dist, 'primera/paginas.json');
  if (!existsSync(file)) return { pages: new Map(), areas: new Map(), data: new Map() };
  const written = JSON.parse(readFileSync(file, 'utf8')) as {
    paginas: Record<string, string>;
    areas: Record<string, string>;
    datos?: Record<string, { archivo: string; area: Area }>;
  };
  return {
    pages: new Map(Object.entries(written.paginas)),
    areas: new Map(Object.entries(written.areas)),
    data: new Map(Object.entries(written.datos ?? {})),
  };
}

/**
 * The file for a request carrying a session cookie: the page's first data when the session will see that
 * screen, else its first paint (its address alone), else its dashboard's or area's boot; undefined outside
 * the role areas.
 */
export async function signedInPage(
  written: FirstPaintPages,
  url: string,
  hasQuery: boolean,
  opens: (area: Area) => Promise<boolean>,
): Promise<string | undefined> {
  const data = written.data.get(url);
  if (data && (await opens(data.area))) return data.archivo;
  const page = hasQuery ? undefined : written.pages.get(url);
  return page ?? written.areas.get(url) ?? written.areas.get(`/${url.split('/')[1]}/`);
}

/**
 * Whether the boot shows an area's screen to the session of this cookie token (router.tsx, loadFirstScreen):
 * a live session past its second factor, of a role of the area, that the guard lets in with nothing to do
 * first (auth-guard.ts decides both). Read without counting as use.
 */
export async function sessionOpens(
  deps: Pick<Deps, 'db' | 'config' | 'clock'>,
  store: SessionStore,
  token: string,
  area: Area,
): Promise<boolean> {
  if (token.length > 100) return false;
  const session = await store.load(token, { touch: false });
  const principal = session?.principal;
  if (!session || session.stage || !principal || !isRol(principal.user.rol)) return false;
  const { user, client, at } = principal;
  if (!areaAllows(area, user.rol)) return false;
  return opensScreens(await standing(deps, user, client, at, principal.weeks));
}
