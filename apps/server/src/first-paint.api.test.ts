import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import table from '../../web/src/lib/first-paint.json' with { type: 'json' };
import { WEB_DIST } from './app.ts';
import { sessionCookieName } from './plugins/session.ts';
import { makeClient, makeUser, TEST_PASSWORD } from './test/factories.ts';
import { ApiClient, createTestApp, DB_KINDS, type TestApp } from './test/harness.ts';
import { ensureWebBuilt } from './test/web-build.ts';

/**
 * The first paint of a page with a fixed heading (decision 0150): the build wrote a copy of index.html per
 * path of the web app's table, with the heading (and the spinner under it) in #root; the server sends it, pre-compressed, to whoever
 * is signed in and asks for that address alone, and index.html (the spinner) otherwise. Every signed-in page of
 * a role area also names its boot's requests in its <head> (decision 0151), and a page with fixed first data
 * names that data for a session its screen will show (0153).
 */
describe('first paint of the pages with a fixed heading', () => {
  let t: TestApp;
  let session: string;
  let admin: string;
  let adminToChangePassword: string;
  const index = () => readFileSync(path.join(WEB_DIST, 'index.html'), 'utf8');

  beforeAll(async () => {
    ensureWebBuilt();
    t = await createTestApp(DB_KINDS[0]!);
    const client = await makeClient(t.database.db);
    const buyer = await makeUser(t.database.db, { rol: 1, idCliente: client.id });
    const name = sessionCookieName(t.config.PUBLIC_URL);
    const cookie = async (usuario: string) =>
      `${name}=${(await new ApiClient(t.app).loginOk(usuario, TEST_PASSWORD)).cookies.get(name)}`;
    session = await cookie(buyer.usuario);
    admin = await cookie((await makeUser(t.database.db, { rol: 4, idCliente: null })).usuario);
    // A password set more than six months ago: the change comes before any screen.
    const old = await makeUser(t.database.db, {
      rol: 4,
      idCliente: null,
      passwordChangedAt: new Date('2020-01-01T12:00:00Z'),
    });
    adminToChangePassword = await cookie(old.usuario);
  }, 300_000);
  afterAll(async () => t?.close());

  const page = async (url: string, cookie?: string) => {
    const res = await t.app.inject({
      method: 'GET',
      url,
      headers: { 'accept-encoding': 'br', ...(cookie ? { cookie } : {}) },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.headers['content-encoding'], 'written at build time').toBe('br');
    return { html: brotliDecompressSync(res.rawPayload).toString('utf8'), vary: String(res.headers.vary) };
  };

  /** The page's <script> and <link> tags. */
  const tags = (html: string) => html.match(/<(script|link)[^>]*>/g) ?? [];
  /** The tags a page adds to index.html's: what its boot asks for (decision 0151). */
  const bootTags = (html: string) => {
    const own = tags(index());
    expect(tags(html).slice(0, own.length), "index.html's own scripts and stylesheet, first").toEqual(own);
    return tags(html).slice(own.length);
  };
  /** Each boot request names a file of the build (or the session's check), as the app's loader asks for it. */
  const expectBootRequests = (html: string) => {
    const boot = bootTags(html);
    const [session, ...files] = boot;
    expect(session).toBe('<link rel="preload" as="fetch" crossorigin="use-credentials" href="/api/sesion">');
    expect(files.length).toBeGreaterThan(3);
    for (const tag of files) {
      const [, kind, href] =
        /^<link rel="(modulepreload|preload" as="style)" crossorigin href="\/(assets\/[^"]+)">$/.exec(tag) ??
        [];
      expect(kind, tag).toBeDefined();
      expect(existsSync(path.join(WEB_DIST, href!)), href).toBe(true);
      expect(index(), 'index.html does not load it already').not.toContain(href);
    }
    return boot;
  };

  it('every path of the table paints its heading, with index.html (and its boot requests where the table says)', async () => {
    for (const { paths, title, description, ...options } of Object.values(table))
      for (const p of paths) {
        const { html, vary } = await page(p, session);
        expect(html).toContain(`<h1>${title}</h1><p>${description}</p>`);
        // In the app's frame, with index.html's spinner under the heading.
        expect(html).toMatch(
          /<div id="root"><div class="primera[^>]*><section><div><h1>.*<\/section><div class="arranque">/,
        );
        if ('precargar' in options) expectBootRequests(html);
        else expect(bootTags(html), p).toEqual([]);
        expect(vary).toContain('Cookie');
      }
  });

  it("any other page of a role area: index.html with its area's boot requests, a dashboard's with its own", async () => {
    const root = (html: string) => html.replace(/\n\s*<link rel="(modulepreload|preload)"[^>]*>/g, '');
    const buyer = expectBootRequests((await page('/usuario/historial/12', session)).html);
    const approver = expectBootRequests((await page('/autorizador/principal', session)).html);
    const dashboard = expectBootRequests((await page('/autorizador/tablero?cliente=1', session)).html);
    expect(buyer).not.toEqual(approver);
    expect(dashboard).not.toEqual(approver);
    // No heading: the page is index.html but for the requests it names.
    expect(root((await page('/usuario/historial/12', session)).html)).toBe(root(index()));
    // Every page of an area names the same, with a query or a trailing slash too.
    expect(bootTags((await page('/usuario/carrito?page=2', session)).html)).toEqual(buyer);
    expect(bootTags((await page('/usuario/carrito/', session)).html)).toEqual(buyer);
    expect(bootTags((await page('/cliente/tablero', session)).html)).toEqual(dashboard);
    expect(bootTags((await page('/administrador/usuarios', session)).html)).not.toEqual(buyer);
  });

  it('a page with fixed first data names it too, for a session its screen will show (decision 0153)', async () => {
    const area = bootTags((await page('/administrador/clientes?page=2', admin)).html);
    const data = [
      '<link rel="preload" as="fetch" crossorigin="use-credentials" href="/api/clientes?per_page=1000">',
      '<link rel="preload" as="fetch" crossorigin="use-credentials" href="/api/usuarios/accesos-sin-enviar">',
    ];
    // The administrator's users list: the area's boot requests, then its first data, with a query too.
    for (const url of ['/administrador/usuarios', '/administrador/usuarios?cliente=3&page=2']) {
      const { html, vary } = await page(url, admin);
      expect(bootTags(html), url).toEqual([...area, ...data]);
      expect(vary).toContain('Cookie');
    }
    // The administrator's home: its figures, the pending budget requests and the banner.
    expect(bootTags((await page('/administrador/principal', admin)).html)).toEqual([
      ...area,
      '<link rel="preload" as="fetch" crossorigin="use-credentials" href="/api/admin/resumen">',
      '<link rel="preload" as="fetch" crossorigin="use-credentials" href="/api/presupuestos/solicitudes?page=1&amp;estado=pendiente">',
      data[1],
    ]);
    // Anyone else the boot sends elsewhere, or who would be refused the data: the area's requests alone.
    expect(bootTags((await page('/administrador/usuarios', session)).html), 'a buyer').toEqual(area);
    expect(bootTags((await page('/administrador/usuarios', adminToChangePassword)).html)).toEqual(area);
    const stale = `${sessionCookieName(t.config.PUBLIC_URL)}=caducada`;
    expect(bootTags((await page('/administrador/usuarios', stale)).html), 'a stale cookie').toEqual(area);
    expect((await page('/administrador/usuarios')).html, 'signed out').toBe(index());
  });

  it('signed out, or outside the role areas: index.html and its spinner', async () => {
    expect((await page('/usuario/carrito')).html).toBe(index());
    expect((await page('/usuario/historial/12')).html).toBe(index());
    expect((await page('/autorizador/principal')).vary).toContain('Cookie');
    expect((await page('/login', session)).html).toBe(index());
    expect((await page('/cambiar-password', session)).html).toBe(index());
    expect((await page('/', session)).html).toBe(index());
  });
});
