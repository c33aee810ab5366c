import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiTokens, orders } from '../../db/schema/index.ts';
import { MSG } from '../../messages.ts';
import {
  makeCategory,
  makeClient,
  makeOrder,
  makeProduct,
  makeUser,
  TEST_PASSWORD,
} from '../../test/factories.ts';
import { ApiClient, createTestApp, DB_KINDS, type TestApp } from '../../test/harness.ts';

/** Integration tokens (rol 4) and the v1 API they open (decision 0059). */
describe.each(DB_KINDS)('integration tokens and the v1 API (%s)', (kind) => {
  let t: TestApp;
  let admin: ApiClient;
  let buyerClient: ApiClient;
  const db = () => t.database.db;
  let clientA: Awaited<ReturnType<typeof makeClient>>;
  let clientB: Awaited<ReturnType<typeof makeClient>>;
  let buyerA: Awaited<ReturnType<typeof makeUser>>;
  let orderA1: number;
  let orderA2: number;
  let orderB1: number;
  let product: { id: number; precio: number; idCategoria: number };

  const bearer = (token: string | null, url: string) =>
    t.app.inject({ method: 'GET', url, headers: token === null ? {} : { authorization: `Bearer ${token}` } });

  async function newToken(body: Record<string, unknown>) {
    const res = await admin.post('/api/integracion/tokens', {
      nombre: 'ERP',
      id_cliente: null,
      permisos: ['pedidos:leer'],
      vigencia_dias: 30,
      ...body,
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as { valor: string; token: { id: number; prefijo: string } };
  }

  async function orderOf(idCliente: number, idUser: number, status: 'pendiente' | 'aprobado' = 'pendiente') {
    const o = await makeOrder(db(), {
      idUser,
      idCliente,
      status,
      lines: [
        { productId: product.id, precio: 12_345, cantidad: 3, idCategoria: product.idCategoria },
        {
          productId: product.id,
          precio: 999,
          cantidad: 1,
          impuesto: false,
          idCategoria: product.idCategoria,
        },
      ],
    });
    return o.id as number;
  }

  beforeAll(async () => {
    t = await createTestApp(kind, { env: { API_RATE_LIMIT: '8' } });
    const adminRow = await makeUser(db(), { rol: 4, idCliente: null });
    admin = await new ApiClient(t.app).loginOk(adminRow.usuario, TEST_PASSWORD);
    clientA = await makeClient(db(), { nombre: 'Cliente Integra A' });
    clientB = await makeClient(db(), { nombre: 'Cliente Integra B' });
    const cat = await makeCategory(db(), clientA.id);
    const p = await makeProduct(db(), { idCliente: clientA.id, idCategoria: cat.id, precio: 12_345 });
    product = { id: p.id, precio: 12_345, idCategoria: cat.id };
    buyerA = await makeUser(db(), { rol: 1, idCliente: clientA.id });
    const buyerB = await makeUser(db(), { rol: 1, idCliente: clientB.id });
    buyerClient = await new ApiClient(t.app).loginOk(buyerA.usuario, TEST_PASSWORD);
    orderA1 = await orderOf(clientA.id, buyerA.id, 'aprobado');
    orderB1 = await orderOf(clientB.id, buyerB.id);
    orderA2 = await orderOf(clientA.id, buyerA.id);
  });
  afterAll(async () => t?.close());

  it('rol 4 creates a token: its value is shown once, only its hash and prefix are stored', async () => {
    const created = await newToken({ nombre: 'Almacén', id_cliente: clientA.id });
    expect(created.valor).toMatch(/^pdc_[A-Za-z0-9_-]{43}$/);
    expect(created.token).toMatchObject({
      nombre: 'Almacén',
      id_cliente: clientA.id,
      cliente: 'Cliente Integra A',
      permisos: ['pedidos:leer'],
      estado: 'activo',
      ultimo_uso: null,
      prefijo: created.valor.slice(0, 12),
    });
    const days =
      (Date.parse((created.token as unknown as { expira_en: string }).expira_en) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(29.9);
    expect(days).toBeLessThanOrEqual(30);
    const list = await admin.get('/api/integracion/tokens');
    expect(list.statusCode).toBe(200);
    expect(list.body).not.toContain(created.valor);
    expect(list.json().tokens.map((x: { id: number }) => x.id)).toContain(created.token.id);
    const [row] = await db().select().from(apiTokens).where(eq(apiTokens.id, created.token.id));
    expect(JSON.stringify(row)).not.toContain(created.valor.slice(12));
  });

  it('token bodies: Spanish 400 for each bad field; other roles 403, anonymous 401, no XSRF 419', async () => {
    const base = { nombre: 'X', id_cliente: null, permisos: ['pedidos:leer'], vigencia_dias: 30 };
    const cases: [Record<string, unknown>, string, string][] = [
      [{ nombre: '  ' }, 'nombre', MSG.tokenNombre],
      [{ vigencia_dias: 366 }, 'vigencia_dias', MSG.tokenVigencia],
      [{ vigencia_dias: 0 }, 'vigencia_dias', MSG.tokenVigencia],
      [{ permisos: [] }, 'permisos', MSG.tokenPermisos],
      [{ id_cliente: 2147483000 }, 'id_cliente', MSG.clienteNoEncontrado],
    ];
    for (const [patch, field, msg] of cases) {
      const res = await admin.post('/api/integracion/tokens', { ...base, ...patch });
      expect(res.statusCode, JSON.stringify(patch)).toBe(400);
      expect(res.json().errors[field], JSON.stringify(patch)).toBe(msg);
    }
    const scope = await admin.post('/api/integracion/tokens', { ...base, permisos: ['todo:poder'] });
    expect(scope.statusCode).toBe(400);
    expect(scope.json().code).toBe('VALIDATION');
    expect((await buyerClient.post('/api/integracion/tokens', base)).statusCode).toBe(403);
    expect((await buyerClient.get('/api/integracion/tokens')).statusCode).toBe(403);
    expect((await new ApiClient(t.app).get('/api/integracion/tokens')).statusCode).toBe(401);
    expect((await admin.post('/api/integracion/tokens', base, { xsrf: null })).statusCode).toBe(419);
  });

  it('a client token lists only its client orders, oldest first, in centavos as stored', async () => {
    const { valor } = await newToken({ id_cliente: clientA.id });
    const res = await bearer(valor, '/api/v1/pedidos');
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.pedidos.map((p: { id: number }) => p.id)).toEqual([orderA1, orderA2]);
    expect(body.siguiente).toBeNull();
    const [stored] = await db().select().from(orders).where(eq(orders.id, orderA1));
    const first = body.pedidos[0];
    expect(first).toMatchObject({
      id: orderA1,
      numero: String(orderA1).padStart(5, '0'),
      estatus: 'aprobado',
      moneda: 'MXN',
      subtotal_centavos: stored!.subtotal,
      iva_centavos: stored!.iva,
      total_centavos: stored!.total,
      comprador: { id: buyerA.id, usuario: buyerA.usuario },
      cliente: { id: clientA.id, nombre: 'Cliente Integra A' },
    });
    expect(first.lineas).toHaveLength(2);
    expect(first.lineas[0]).toMatchObject({
      cantidad: 3,
      precio_unitario_centavos: 12_345,
      importe_centavos: 37_035,
    });
    expect(first.subtotal_centavos).toBe(37_035 + 999);
    // Filters: by status, by business dates.
    const approved = await bearer(valor, '/api/v1/pedidos?estatus=aprobado');
    expect(approved.json().pedidos.map((p: { id: number }) => p.id)).toEqual([orderA1]);
    const future = await bearer(valor, '/api/v1/pedidos?desde=2999-01-01');
    expect(future.json().pedidos).toEqual([]);
    const past = await bearer(valor, '/api/v1/pedidos?hasta=2000-01-01');
    expect(past.json().pedidos).toEqual([]);
    const today = new Date().toISOString().slice(0, 10);
    const around = await bearer(valor, `/api/v1/pedidos?desde=2000-01-01&hasta=${today.slice(0, 4)}-12-31`);
    expect(around.json().pedidos).toHaveLength(2);
  });

  it('bad queries are Spanish 400s (after the token is checked)', async () => {
    const { valor } = await newToken({});
    for (const [url, code] of [
      ['/api/v1/pedidos?estatus=perdido', 'VALIDATION'],
      ['/api/v1/pedidos?desde=2026-13-01', 'VALIDATION'],
      ['/api/v1/pedidos?desde=2026-02-01&hasta=2026-01-01', 'VALIDATION'],
      ['/api/v1/pedidos?limite=500', 'VALIDATION'],
      ['/api/v1/pedidos?cursor=no-es-un-cursor', 'CURSOR'],
      ['/api/v1/pedidos/abc', 'VALIDATION'],
    ] as const) {
      const res = await bearer(valor, url);
      expect(res.statusCode, url).toBe(400);
      expect(res.json().code, url).toBe(code);
      expect(res.json().msg, url).toMatch(/[a-zá-ú]/);
    }
    expect((await bearer(valor, '/api/v1/pedidos?cursor=no-es-un-cursor')).json().msg).toBe(
      MSG.cursorInvalido,
    );
    // Without a token the query is not even read.
    expect((await bearer(null, '/api/v1/pedidos?estatus=perdido')).statusCode).toBe(401);
  });

  it('the cursor is stable under inserts: every order once, a new one on a later page', async () => {
    const { valor } = await newToken({});
    const seen: number[] = [];
    let cursor: string | null = null;
    let inserted = 0;
    for (let page = 0; page < 20; page++) {
      const res = await bearer(valor, `/api/v1/pedidos?limite=1${cursor ? `&cursor=${cursor}` : ''}`);
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json();
      seen.push(...body.pedidos.map((p: { id: number }) => p.id));
      if (page === 0) inserted = await orderOf(clientB.id, buyerA.id);
      cursor = body.siguiente;
      if (!cursor) break;
    }
    const all = (await db().select({ id: orders.id }).from(orders)).map((o) => o.id).sort((a, b) => a - b);
    expect(seen).toEqual(all);
    expect(seen).toContain(inserted);
    expect(new Set(seen).size).toBe(seen.length);
  });

  it('detail: its client order with lines and events; another client order 404 like a missing one', async () => {
    const { valor } = await newToken({ id_cliente: clientA.id });
    const own = await bearer(valor, `/api/v1/pedidos/${orderA1}`);
    expect(own.statusCode, own.body).toBe(200);
    expect(own.json()).toMatchObject({ id: orderA1, cliente: { id: clientA.id } });
    expect(Array.isArray(own.json().eventos)).toBe(true);
    const other = await bearer(valor, `/api/v1/pedidos/${orderB1}`);
    const missing = await bearer(valor, '/api/v1/pedidos/2147483000');
    expect(other.statusCode).toBe(404);
    expect(other.body).toBe(missing.body);
    expect(other.json()).toEqual({ code: 'ORDER_NOT_FOUND', msg: MSG.pedidoNoEncontrado });
    const every = await newToken({ id_cliente: null });
    expect((await bearer(every.valor, `/api/v1/pedidos/${orderB1}`)).statusCode).toBe(200);
  });

  it('POST /api/v1/pedidos/{id}/surtido: forward moves with surtido:escribir, 409 backwards or not approved, 404 for another client, 403 without the scope', async () => {
    const writer = await newToken({ id_cliente: clientA.id, permisos: ['pedidos:leer', 'surtido:escribir'] });
    const reader = await newToken({ id_cliente: clientA.id });
    const approved = await orderOf(clientA.id, buyerA.id, 'aprobado');
    const otherClient = await orderOf(clientB.id, buyerA.id, 'aprobado');
    const move = (token: string, id: number, payload: Record<string, unknown>) =>
      t.app.inject({
        method: 'POST',
        url: `/api/v1/pedidos/${id}/surtido`,
        headers: { authorization: `Bearer ${token}` },
        payload,
      });
    const denied = await move(reader.valor, approved, { estado: 'en_surtido' });
    expect(denied.statusCode).toBe(403);
    expect(denied.json().msg).toBe(MSG.tokenSinPermiso);
    expect((await move(writer.valor, approved, { estado: 'enviado', guia: 'x'.repeat(61) })).statusCode).toBe(
      400,
    );
    expect((await move(writer.valor, approved, { estado: 'perdido' })).statusCode).toBe(400);
    const shipped = await move(writer.valor, approved, {
      estado: 'enviado',
      guia: 'DHL 123',
      comentario: 'Caja 1 de 1',
    });
    expect(shipped.statusCode, shipped.body).toBe(200);
    expect(shipped.json().pedido).toMatchObject({ id: approved, surtido: 'enviado', guia: 'DHL 123' });
    const back = await move(writer.valor, approved, { estado: 'en_surtido' });
    expect(back.statusCode).toBe(409);
    expect(back.json().code).toBe('FULFILMENT_ALREADY');
    const pending = await move(writer.valor, orderA2, { estado: 'en_surtido' });
    expect(pending.statusCode).toBe(409);
    expect(pending.json().msg).toBe(MSG.surtidoNoAprobado);
    const foreign = await move(writer.valor, otherClient, { estado: 'en_surtido' });
    const missing = await move(writer.valor, 2147483000, { estado: 'en_surtido' });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.body).toBe(missing.body);
    // The move is read back through the API, filtered by its state, and named in the event and the log.
    // (another token reads: this file's tokens may make 8 calls a minute)
    const detail = await bearer(reader.valor, `/api/v1/pedidos/${approved}`);
    expect(detail.json()).toMatchObject({ surtido: 'enviado', guia: 'DHL 123', nota_recepcion: null });
    expect(detail.json().eventos.at(-1)).toMatchObject({
      tipo: 'surtido',
      de: 'por_surtir',
      a: 'enviado',
      actor: null,
    });
    const filtered = await bearer(reader.valor, '/api/v1/pedidos?surtido=enviado');
    expect(filtered.json().pedidos.map((o: { id: number }) => o.id)).toEqual([approved]);
    expect((await bearer(reader.valor, '/api/v1/pedidos?surtido=perdido')).statusCode).toBe(400);
    const logs = await admin.get(`/api/logs?event_type=pedido_surtido&pedido=${approved}`);
    expect(logs.statusCode, logs.body).toBe(200);
    expect(logs.body).toContain('(integración)');
  });

  it('two tokens move the same order at once: one 200, the other 409', async () => {
    const a = await newToken({ permisos: ['surtido:escribir'] });
    const b = await newToken({ permisos: ['surtido:escribir'] });
    const approved = await orderOf(clientA.id, buyerA.id, 'aprobado');
    const results = await Promise.all(
      [a, b].map((tok) =>
        t.app.inject({
          method: 'POST',
          url: `/api/v1/pedidos/${approved}/surtido`,
          headers: { authorization: `Bearer ${tok.valor}` },
          payload: { estado: 'en_surtido' },
        }),
      ),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409]);
  });

  it('unknown, malformed, revoked and expired tokens get the same 401; a token without the scope 403', async () => {
    const revoked = await newToken({});
    const expired = await newToken({});
    const writer = await newToken({ permisos: ['surtido:escribir'] });
    expect((await bearer(revoked.valor, '/api/v1/pedidos')).statusCode).toBe(200);
    const rev = await admin.post(`/api/integracion/tokens/${revoked.token.id}/revocar`, {});
    expect(rev.statusCode, rev.body).toBe(200);
    expect(rev.json().token.estado).toBe('revocado');
    const again = await admin.post(`/api/integracion/tokens/${revoked.token.id}/revocar`, {});
    expect(again.statusCode).toBe(409);
    expect(again.json().msg).toBe(MSG.tokenYaRevocado);
    expect((await admin.post('/api/integracion/tokens/2147483000/revocar', {})).statusCode).toBe(404);
    await db()
      .update(apiTokens)
      .set({ expiraEn: new Date(Date.now() - 1000) })
      .where(eq(apiTokens.id, expired.token.id));
    const bodies = new Set<string>();
    for (const value of [
      revoked.valor,
      expired.valor,
      `pdc_${'A'.repeat(43)}`,
      'corto',
      `${revoked.valor}x`,
    ]) {
      const res = await bearer(value, '/api/v1/pedidos');
      expect(res.statusCode, value.slice(0, 8)).toBe(401);
      expect(res.headers['www-authenticate']).toContain('Bearer');
      bodies.add(res.body);
    }
    const none = await bearer(null, '/api/v1/pedidos');
    const basic = await t.app.inject({ url: '/api/v1/pedidos', headers: { authorization: 'Basic eDp5' } });
    bodies.add(none.body).add(basic.body);
    expect([...bodies]).toEqual([JSON.stringify({ code: 'INVALID_TOKEN', msg: MSG.tokenInvalido })]);
    const denied = await bearer(writer.valor, '/api/v1/pedidos');
    expect(denied.statusCode).toBe(403);
    expect(denied.json().msg).toBe(MSG.tokenSinPermiso);
    expect(
      (await admin.get('/api/integracion/tokens'))
        .json()
        .tokens.find((x: { id: number }) => x.id === expired.token.id).estado,
    ).toBe('vencido');
  });

  it('the session cookie does not open the v1 API, and a v1 call needs no XSRF', async () => {
    expect((await admin.get('/api/v1/pedidos')).statusCode).toBe(401);
    const { valor } = await newToken({});
    // A state-changing v1 call with a bearer and no XSRF header is not refused with 419 (it has no route yet: 404).
    const post = await t.app.inject({
      method: 'POST',
      url: `/api/v1/pedidos/${orderA1}/desconocido`,
      headers: { authorization: `Bearer ${valor}` },
      payload: {},
    });
    expect(post.statusCode).toBe(404);
  });

  it('rate limit per token: over the minute limit 429 with Retry-After; another token is not affected; last use noted', async () => {
    const busy = await newToken({});
    const calm = await newToken({});
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++)
      statuses.push((await bearer(busy.valor, `/api/v1/pedidos/${orderA1}`)).statusCode);
    expect(statuses).toEqual([...Array(8).fill(200), 429, 429]);
    const limited = await bearer(busy.valor, '/api/v1/pedidos');
    expect(limited.statusCode).toBe(429);
    expect(limited.json().msg).toBe(MSG.tokenLimite);
    const retry = Number(limited.headers['retry-after']);
    expect(retry).toBeGreaterThanOrEqual(1);
    expect(retry).toBeLessThanOrEqual(60);
    expect((await bearer(calm.valor, '/api/v1/pedidos')).statusCode).toBe(200);
    // A new minute opens the window again.
    await db()
      .update(apiTokens)
      .set({ ventanaInicio: new Date(Date.now() - 61_000) })
      .where(eq(apiTokens.id, busy.token.id));
    expect((await bearer(busy.valor, '/api/v1/pedidos')).statusCode).toBe(200);
    const listed = (await admin.get('/api/integracion/tokens'))
      .json()
      .tokens.find((x: { id: number }) => x.id === busy.token.id);
    expect(Date.now() - Date.parse(listed.ultimo_uso)).toBeLessThan(60_000);
  });

  it('two revocations of one token at once: one 200, the other 409', async () => {
    const { token } = await newToken({});
    const other = await new ApiClient(t.app).loginOk(
      (await makeUser(db(), { rol: 4, idCliente: null })).usuario,
      TEST_PASSWORD,
    );
    const answers = await Promise.all([
      admin.post(`/api/integracion/tokens/${token.id}/revocar`, {}),
      other.post(`/api/integracion/tokens/${token.id}/revocar`, {}),
    ]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409]);
  });

  it('the OpenAPI document describes the v1 routes with the bearer scheme', async () => {
    const doc = (await t.app.inject({ url: '/api/docs/json' })).json();
    expect(doc.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.paths['/api/v1/pedidos'].get.security).toEqual([{ bearer: [] }]);
    expect(doc.paths['/api/v1/pedidos/{id}'].get.responses['200']).toBeDefined();
    expect(doc.paths['/api/v1/pedidos'].get.responses['429']).toBeDefined();
    const ok = doc.paths['/api/v1/pedidos'].get.responses['200'].content['application/json'].schema;
    expect(ok.example.pedidos[0]).toMatchObject({ total_centavos: 43960, moneda: 'MXN' });
    const one = doc.paths['/api/v1/pedidos/{id}'].get.responses['200'].content['application/json'].schema;
    expect(one.example.lineas).toHaveLength(2);
  });
});
