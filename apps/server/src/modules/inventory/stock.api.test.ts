import { STOCK_MSG } from '@portal/shared/schemas/stock';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiIdempotencyKeys, products, systemLogs } from '../../db/schema/index.ts';
import { MSG } from '../../messages.ts';
import { integrationToken, signedInAdmin } from '../../test/admin-fixtures.ts';
import { makeCategory, makeClient, makeProduct, uniq } from '../../test/factories.ts';
import { type ApiClient, createTestApp, DB_KINDS, type TestApp } from '../../test/harness.ts';

/** Stock and lead time: the product form, the products CSV and the v1 API (decision 0124). */
describe.each(DB_KINDS)('stock writes (%s)', (kind) => {
  let t: TestApp;
  let admin: ApiClient;
  const db = () => t.database.db;
  let clientA: Awaited<ReturnType<typeof makeClient>>;
  let clientB: Awaited<ReturnType<typeof makeClient>>;
  let catA: { id: number };
  let tokenA: string;
  let tokenAll: string;
  let readOnly: string;

  const newToken = (token: Partial<Parameters<typeof integrationToken>[1]>) =>
    integrationToken(admin, { permisos: ['inventario:escribir'], ...token });
  const call = (
    token: string,
    method: 'PUT' | 'POST',
    url: string,
    payload: unknown,
    headers: Record<string, string> = {},
  ) =>
    t.app.inject({
      method,
      url,
      payload: payload as object,
      headers: { authorization: `Bearer ${token}`, ...headers },
    });
  const stockOf = async (id: number) => {
    const [p] = await db()
      .select({ existencia: products.existencia, dias: products.diasEntrega })
      .from(products)
      .where(eq(products.id, id));
    return p!;
  };

  beforeAll(async () => {
    t = await createTestApp(kind);
    admin = (await signedInAdmin(t.app, db())).api;
    clientA = await makeClient(db(), { nombre: 'Cliente Existencias A' });
    clientB = await makeClient(db(), { nombre: 'Cliente Existencias B' });
    catA = await makeCategory(db(), clientA.id);
    tokenA = await newToken({ id_cliente: clientA.id });
    tokenAll = await newToken({});
    readOnly = await newToken({ permisos: ['pedidos:leer'] });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('PUT sets one product, keeps the lead time when not sent, and refuses what it must', async () => {
    const p = await makeProduct(db(), { idCliente: clientA.id, idCategoria: catA.id, precio: 100 });
    const url = `/api/v1/productos/${encodeURIComponent(p.claveInterna)}/existencia`;
    const set = await call(tokenA, 'PUT', url, { existencia: 12, dias_entrega: 7 });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json()).toEqual({
      clave: p.claveInterna,
      existencia: 12,
      reservado: 0,
      disponible: 12,
      dias_entrega: 7,
    });
    const keep = await call(tokenA, 'PUT', url, { existencia: 3 });
    expect(keep.json()).toMatchObject({ existencia: 3, dias_entrega: 7 });
    expect(await stockOf(p.id)).toEqual({ existencia: 3, dias: 7 });
    const unknown = await call(tokenA, 'PUT', url, { existencia: null, dias_entrega: null });
    expect(unknown.json()).toMatchObject({ existencia: null, disponible: null, dias_entrega: null });

    // Bad numbers: Spanish 400s.
    for (const existencia of [-1, 2.5, '7', 100_000_001]) {
      const bad = await call(tokenA, 'PUT', url, { existencia });
      expect(bad.statusCode, String(existencia)).toBe(400);
      expect(bad.json().msg).toBe(MSG.existenciaInvalida);
    }
    const badDays = await call(tokenA, 'PUT', url, { existencia: 1, dias_entrega: 4000 });
    expect(badDays.statusCode).toBe(400);
    expect(badDays.json().msg).toBe(MSG.diasEntregaInvalidos);

    // Another client's product answers like a missing one.
    const theirs = await makeProduct(db(), {
      idCliente: clientB.id,
      idCategoria: (await makeCategory(db(), clientB.id)).id,
      precio: 100,
    });
    const other = await call(tokenA, 'PUT', `/api/v1/productos/${theirs.claveInterna}/existencia`, {
      existencia: 1,
    });
    const missing = await call(tokenA, 'PUT', '/api/v1/productos/NO-EXISTE/existencia', { existencia: 1 });
    expect([other.statusCode, missing.statusCode]).toEqual([404, 404]);
    expect(other.json().msg).toBe(missing.json().msg);
    expect(await stockOf(theirs.id)).toEqual({ existencia: null, dias: null });
    // A client's token naming another client finds nothing either.
    const named = await call(tokenA, 'PUT', `${url}?id_cliente=${clientB.id}`, { existencia: 1 });
    expect(named.statusCode).toBe(404);

    // An all-clients token names the client.
    const noClient = await call(tokenAll, 'PUT', url, { existencia: 1 });
    expect(noClient.statusCode).toBe(400);
    expect(noClient.json().msg).toBe(STOCK_MSG.existenciaCliente);
    const withClient = await call(tokenAll, 'PUT', `${url}?id_cliente=${clientA.id}`, { existencia: 8 });
    expect(withClient.statusCode).toBe(200);
    expect(await stockOf(p.id)).toEqual({ existencia: 8, dias: null });

    // A token without the permission: 403; no token: 401.
    expect((await call(readOnly, 'PUT', url, { existencia: 1 })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'PUT', url, payload: { existencia: 1 } })).statusCode).toBe(401);
  });

  it('POST /api/v1/existencias writes many in one go, reports the claves it did not find, and is idempotent', async () => {
    const ps = [];
    for (let i = 0; i < 3; i++)
      ps.push(
        await makeProduct(db(), { idCliente: clientA.id, idCategoria: catA.id, precio: 100, existencia: 1 }),
      );
    const body = {
      existencias: [
        { clave: ps[0]!.claveInterna, existencia: 40, dias_entrega: 3 },
        { clave: ps[1]!.claveInterna, existencia: 1 },
        { clave: ps[2]!.claveInterna, existencia: 0, dias_entrega: 10 },
        { clave: 'NO-EXISTE', existencia: 5 },
      ],
    };
    const key = uniq('idem');
    const first = await call(tokenA, 'POST', '/api/v1/existencias', body, { 'idempotency-key': key });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toEqual({ actualizados: 2, sin_cambios: 1, no_encontradas: ['NO-EXISTE'] });
    expect(first.headers['idempotency-replayed']).toBeUndefined();
    expect(await stockOf(ps[0]!.id)).toEqual({ existencia: 40, dias: 3 });
    expect(await stockOf(ps[2]!.id)).toEqual({ existencia: 0, dias: 10 });

    // The operator changes one meanwhile; the replay answers the first result and writes nothing.
    await db().update(products).set({ existencia: 99 }).where(eq(products.id, ps[0]!.id));
    const replay = await call(tokenA, 'POST', '/api/v1/existencias', body, { 'idempotency-key': key });
    expect(replay.statusCode).toBe(200);
    expect(replay.json()).toEqual(first.json());
    expect(replay.headers['idempotency-replayed']).toBe('true');
    expect(await stockOf(ps[0]!.id)).toEqual({ existencia: 99, dias: 3 });
    // The same key with another body: 422.
    const reused = await call(
      tokenA,
      'POST',
      '/api/v1/existencias',
      { existencias: [body.existencias[1]] },
      {
        'idempotency-key': key,
      },
    );
    expect(reused.statusCode).toBe(422);
    expect(reused.json().msg).toBe(MSG.idempotencyKeyReusada);
    // Concurrent requests with one new key: one write, both answer the same.
    const key2 = uniq('idem');
    const again = { existencias: [{ clave: ps[1]!.claveInterna, existencia: 77 }] };
    const both = await Promise.all(
      [1, 2].map(() => call(tokenA, 'POST', '/api/v1/existencias', again, { 'idempotency-key': key2 })),
    );
    expect(both.map((r) => r.statusCode)).toEqual([200, 200]);
    expect(both.map((r) => r.json())).toEqual([
      { actualizados: 1, sin_cambios: 0, no_encontradas: [] },
      { actualizados: 1, sin_cambios: 0, no_encontradas: [] },
    ]);
    const keys = await db().select().from(apiIdempotencyKeys).where(eq(apiIdempotencyKeys.clave, key2));
    expect(keys).toHaveLength(1);
    // One log entry per write that changed something (the replays wrote none).
    const logs = await db()
      .select()
      .from(systemLogs)
      .where(and(eq(systemLogs.eventType, 'existencias_actualizadas')));
    expect(
      logs.filter((l) => (l.metadata as { id_cliente?: number }).id_cliente === clientA.id).length,
    ).toBeGreaterThanOrEqual(2);

    // Refusals: a malformed key, an empty list, more than 5,000 lines, a repeated clave, bad numbers.
    const badKey = await call(tokenA, 'POST', '/api/v1/existencias', again, {
      'idempotency-key': 'con espacio',
    });
    expect(badKey.statusCode).toBe(400);
    expect(badKey.json().msg).toBe(MSG.idempotencyKeyInvalida);
    const empty = await call(tokenA, 'POST', '/api/v1/existencias', { existencias: [] });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().msg).toBe(STOCK_MSG.existenciasLote(5000));
    const tooMany = await call(tokenA, 'POST', '/api/v1/existencias', {
      existencias: Array.from({ length: 5001 }, (_, i) => ({ clave: `C-${i}`, existencia: 1 })),
    });
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json().msg).toBe(STOCK_MSG.existenciasLote(5000));
    const repeated = await call(tokenA, 'POST', '/api/v1/existencias', {
      existencias: [
        { clave: 'X', existencia: 1 },
        { clave: 'X', existencia: 2 },
      ],
    });
    expect(repeated.statusCode).toBe(400);
    expect(repeated.json().msg).toBe(STOCK_MSG.existenciaClaveRepetida);
    const negative = await call(tokenA, 'POST', '/api/v1/existencias', {
      existencias: [{ clave: 'X', existencia: -3 }],
    });
    expect(negative.statusCode).toBe(400);
    expect(negative.json().msg).toBe(MSG.existenciaInvalida);
  });

  it('5,000 lines in one call', async () => {
    const values = Array.from({ length: 5000 }, (_, i) => ({
      idCliente: clientA.id,
      idCategoria: catA.id,
      claveInterna: `MASIVO-${i}`,
      nombre: `Producto masivo ${i}`,
      precio: 100,
    }));
    for (let i = 0; i < values.length; i += 1000)
      await db()
        .insert(products)
        .values(values.slice(i, i + 1000));
    const res = await call(tokenAll, 'POST', '/api/v1/existencias', {
      id_cliente: clientA.id,
      existencias: values.map((v, i) => ({ clave: v.claveInterna, existencia: i })),
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ actualizados: 5000, sin_cambios: 0, no_encontradas: [] });
  });

  it('the operator sets stock and lead time in the product form; blank clears, absent keeps', async () => {
    const p = await makeProduct(db(), { idCliente: clientA.id, idCategoria: catA.id, precio: 1000 });
    const form = (extra: Record<string, unknown>) => ({
      id: p.id,
      id_cliente: clientA.id,
      id_categoria: catA.id,
      clave_interna: p.claveInterna,
      nombre: p.nombre,
      precio: 10,
      ...extra,
    });
    const set = await admin.post(
      `/api/productos/actualizar/${p.id}`,
      form({ existencia: '15', dias_entrega: '4' }),
    );
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json().articulo).toMatchObject({ existencia: 15, dias_entrega: 4, reservado: 0 });
    await admin.post(`/api/productos/actualizar/${p.id}`, form({}));
    expect(await stockOf(p.id)).toEqual({ existencia: 15, dias: 4 });
    await admin.post(`/api/productos/actualizar/${p.id}`, form({ existencia: '' }));
    expect(await stockOf(p.id)).toEqual({ existencia: null, dias: 4 });
    const bad = await admin.post(`/api/productos/actualizar/${p.id}`, form({ existencia: '-2' }));
    expect(bad.statusCode).toBe(400);
    expect(bad.json().msg).toBe(MSG.existenciaInvalida);
    const badDays = await admin.post(`/api/productos/actualizar/${p.id}`, form({ dias_entrega: 'tres' }));
    expect(badDays.statusCode).toBe(400);
    expect(badDays.json().msg).toBe(MSG.diasEntregaInvalidos);
  });
});
