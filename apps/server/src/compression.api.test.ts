import { readFileSync } from 'node:fs';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMPRESS_THRESHOLD, WEB_DIST } from './app.ts';
import {
  makeCategory,
  makeClient,
  makeOrder,
  makeProduct,
  makeUser,
  TEST_PASSWORD,
} from './test/factories.ts';
import { ApiClient, createTestApp, DB_KINDS, type TestApp } from './test/harness.ts';
import { ensureWebBuilt } from './test/web-build.ts';

/**
 * Compressed answers (decision 0095): the built web app's files leave as the .br/.gz the build wrote
 * beside them; dynamic answers over 1 kB (JSON, CSV, HTML) are compressed per request; a browser that
 * accepts neither gets the plain bytes. A PDF (already compressed inside) and small answers go as they are.
 */

/** The biggest JavaScript file of the build (from its manifest). */
function biggestScript(): string {
  const manifest = JSON.parse(readFileSync(path.join(WEB_DIST, '.vite/manifest.json'), 'utf8')) as Record<
    string,
    { file: string }
  >;
  const files = [...new Set(Object.values(manifest).map((c) => c.file))].filter((f) => f.endsWith('.js'));
  const size = (f: string) => readFileSync(path.join(WEB_DIST, f)).length;
  return files.sort((a, b) => size(b) - size(a))[0]!;
}

const ENCODINGS = [
  { accept: 'br, gzip, deflate', encoding: 'br' },
  { accept: 'gzip', encoding: 'gzip' },
  { accept: 'identity', encoding: undefined },
  { accept: undefined, encoding: undefined },
] as const;

/** The bytes the client reads after undoing the answer's content-encoding. */
function decoded(res: LightMyRequestResponse): Buffer {
  const raw = res.rawPayload;
  const encoding = res.headers['content-encoding'];
  if (encoding === 'br') return brotliDecompressSync(raw);
  if (encoding === 'gzip') return gunzipSync(raw);
  expect(encoding).toBeUndefined();
  return raw;
}

describe.each(DB_KINDS)('compressed answers (%s)', (kind) => {
  let t: TestApp;
  let admin: ApiClient;
  let authorizer: ApiClient;
  let idCliente: number;
  let orderId: number;
  const db = () => t.database.db;

  beforeAll(async () => {
    ensureWebBuilt();
    t = await createTestApp(kind);
    const client = await makeClient(db());
    idCliente = client.id;
    // Enough users for a users page well over 1 kB.
    for (let i = 0; i < 10; i++) await makeUser(db(), { rol: 1, idCliente });
    const adminRow = await makeUser(db(), { rol: 4, idCliente: null });
    admin = await new ApiClient(t.app).loginOk(adminRow.usuario, TEST_PASSWORD);
    const authorizerRow = await makeUser(db(), { rol: 2, idCliente });
    authorizer = await new ApiClient(t.app).loginOk(authorizerRow.usuario, TEST_PASSWORD);
    const buyer = await makeUser(db(), { rol: 1, idCliente });
    const category = await makeCategory(db(), idCliente);
    const product = await makeProduct(db(), { idCliente, idCategoria: category.id, precio: 125 });
    const order = await makeOrder(db(), {
      idUser: buyer.id,
      idCliente,
      status: 'aprobado',
      lines: [{ productId: product.id, precio: 125, cantidad: 2, idCategoria: category.id }],
    });
    orderId = order.id;
  }, 300_000);
  afterAll(async () => t?.close());

  it.each(ENCODINGS)('a screen of the web app (index.html), Accept-Encoding $accept → $encoding', async ({
    accept,
    encoding,
  }) => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/usuario/catalogo',
      headers: accept ? { 'accept-encoding': accept } : {},
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.headers['content-encoding']).toBe(encoding);
    expect(res.headers.vary).toContain('accept-encoding');
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(decoded(res).toString('utf8')).toBe(readFileSync(path.join(WEB_DIST, 'index.html'), 'utf8'));
  });

  it.each(
    ENCODINGS,
  )('a JavaScript file of the build, Accept-Encoding $accept → $encoding (written at build time)', async ({
    accept,
    encoding,
  }) => {
    const file = biggestScript();
    const res = await t.app.inject({
      method: 'GET',
      url: `/${file}`,
      headers: accept ? { 'accept-encoding': accept } : {},
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/javascript/);
    expect(res.headers['content-encoding']).toBe(encoding);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const original = readFileSync(path.join(WEB_DIST, file));
    expect(decoded(res).equals(original)).toBe(true);
    if (encoding) {
      // The very bytes of the file the build wrote: nothing is compressed again per request.
      const sibling = readFileSync(path.join(WEB_DIST, `${file}.${encoding === 'br' ? 'br' : 'gz'}`));
      expect(res.rawPayload.equals(sibling)).toBe(true);
      expect(res.rawPayload.length).toBeLessThan(original.length / 2);
    }
  });

  it('the compressed siblings are not addresses of their own', async () => {
    const file = biggestScript();
    const res = await t.app.inject({ method: 'GET', url: `/${file}.br` });
    expect(res.statusCode).toBe(404);
  });

  it.each(ENCODINGS)('a JSON list (the users page), Accept-Encoding $accept → $encoding', async ({
    accept,
    encoding,
  }) => {
    const res = await admin.get(`/api/usuarios?id_cliente=${idCliente}`, {
      headers: accept ? { 'accept-encoding': accept } : {},
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('application/json');
    expect(res.headers['content-encoding']).toBe(encoding);
    expect(res.headers['cache-control']).toBe('no-store');
    const body = decoded(res);
    expect(body.length).toBeGreaterThan(COMPRESS_THRESHOLD);
    const json = JSON.parse(body.toString('utf8')) as { usuarios: unknown[] };
    expect(json.usuarios.length).toBe(10);
  });

  it.each(
    ENCODINGS,
  )('a CSV export sent by parts (the system log), Accept-Encoding $accept → $encoding', async ({
    accept,
    encoding,
  }) => {
    const res = await admin.get('/api/logs/exportar', {
      headers: accept ? { 'accept-encoding': accept } : {},
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    expect(res.headers['content-encoding']).toBe(encoding);
    expect(res.headers['content-disposition']).toContain('registros.csv');
    const csv = decoded(res).toString('utf8');
    expect(csv.charCodeAt(0)).toBe(0xfeff);
    expect(csv.split('\r\n').length).toBeGreaterThan(2);
    // Still a stream when compressed: no length is known before the last part.
    if (encoding) expect(res.headers['content-length']).toBeUndefined();
  });

  it('a purchase order PDF and a small answer go as they are', async () => {
    const pdf = await authorizer.get(`/api/pedidos/${orderId}/pdf`, {
      headers: { 'accept-encoding': 'br, gzip' },
    });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toContain('application/pdf');
    expect(pdf.headers['content-encoding']).toBeUndefined();
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');

    const small = await t.app.inject({
      method: 'GET',
      url: '/healthz',
      headers: { 'accept-encoding': 'br, gzip' },
    });
    expect(small.statusCode).toBe(200);
    expect(small.rawPayload.length).toBeLessThan(COMPRESS_THRESHOLD);
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.json().status).toBe('ok');
  });
});
