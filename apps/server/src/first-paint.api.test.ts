import { readFileSync } from 'node:fs';
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
 * is signed in and asks for that address alone, and index.html (the spinner) otherwise.
 */
describe('first paint of the pages with a fixed heading', () => {
  let t: TestApp;
  let session: string;
  const index = () => readFileSync(path.join(WEB_DIST, 'index.html'), 'utf8');

  beforeAll(async () => {
    ensureWebBuilt();
    t = await createTestApp(DB_KINDS[0]!);
    const client = await makeClient(t.database.db);
    const buyer = await makeUser(t.database.db, { rol: 1, idCliente: client.id });
    const api = await new ApiClient(t.app).loginOk(buyer.usuario, TEST_PASSWORD);
    const name = sessionCookieName(t.config.PUBLIC_URL);
    session = `${name}=${api.cookies.get(name)}`;
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

  it('every path of the table paints its heading, with everything else of index.html', async () => {
    const scripts = (html: string) => html.match(/<(script|link)[^>]*>/g);
    for (const { paths, title, description } of Object.values(table))
      for (const p of paths) {
        const { html, vary } = await page(p, session);
        expect(html).toContain(`<h1>${title}</h1><p>${description}</p>`);
        // In the app's frame, with index.html's spinner under the heading.
        expect(html).toMatch(
          /<div id="root"><div class="primera[^>]*><section><div><h1>.*<\/section><div class="arranque">/,
        );
        expect(scripts(html), p).toEqual(scripts(index()));
        expect(vary).toContain('Cookie');
      }
  });

  it('signed out, with a query, or on another page: index.html and its spinner', async () => {
    expect((await page('/usuario/carrito')).html).toBe(index());
    expect((await page('/usuario/carrito?page=2', session)).html).toBe(index());
    expect((await page('/usuario/carrito/', session)).html).toBe(index());
    expect((await page('/usuario/historial/12', session)).html).toBe(index());
    expect((await page('/autorizador/principal', session)).html).toBe(index());
  });
});
