import { randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webhookDeliveries, webhookEndpoints, webhookEvents } from '../../db/schema/index.ts';
import { appKeys, encryptionRing } from '../../lib/keys.ts';
import { openWithRing, sealSecret, secretContext } from '../../lib/secret-box.ts';
import { rotateSecrets } from '../../lib/secret-rotation.ts';
import { MSG } from '../../messages.ts';
import { integrationToken } from '../../test/admin-fixtures.ts';
import { makeBuyer } from '../../test/buyer-fixtures.ts';
import { assign, makeClient, makeUser, TEST_PASSWORD } from '../../test/factories.ts';
import { ApiClient, createTestApp, DB_KINDS, type TestApp } from '../../test/harness.ts';
import { eventually, startReceiver, verifySignature } from '../../test/webhook-receiver.ts';
import { attemptDelivery } from './webhook-delivery.ts';
import { recordWebhookEvent } from './webhook-outbox.ts';

type Receiver = Awaited<ReturnType<typeof startReceiver>>;

/** Signed webhooks (decision 0060): registration, the outbox, delivery, retries, the delivery log. */
/** The main app runs on a rotated key: SECRET_KEY new, the old one in SECRET_KEY_PREVIOUS (decision 0102). */
const OLD_KEY = 'clave-anterior-de-los-webhooks-0123456789abcdef';
const KEYS = { SECRET_KEY: 'clave-nueva-de-los-webhooks-0123456789abcdefghij', SECRET_KEY_PREVIOUS: OLD_KEY };

describe.each(DB_KINDS)('webhooks (%s)', (kind) => {
  let t: TestApp;
  const logLines: string[] = [];
  let strict: TestApp;
  let receiver: Receiver;
  let admin: ApiClient;
  let strictAdmin: ApiClient;
  const db = () => t.database.db;
  const ALL = ['pedido.creado', 'pedido.aprobado', 'pedido.cancelado', 'pedido.surtido'];

  beforeAll(async () => {
    receiver = await startReceiver({
      '/fallas': [500, 503, 200],
      '/redirige': [302],
    });
    [t, strict] = await Promise.all([
      createTestApp(kind, {
        env: { WEBHOOK_ALLOW_PRIVATE: '1', WEBHOOK_RETRY_BASE_SECONDS: '1', ...KEYS },
        logLines,
      }),
      createTestApp(kind, { env: { WEBHOOK_RETRY_BASE_SECONDS: '1' } }),
    ]);
    admin = await new ApiClient(t.app).loginOk(
      (await makeUser(db(), { rol: 4, idCliente: null })).usuario,
      TEST_PASSWORD,
    );
    strictAdmin = await new ApiClient(strict.app).loginOk(
      (await makeUser(strict.database.db, { rol: 4, idCliente: null })).usuario,
      TEST_PASSWORD,
    );
  });
  afterAll(async () => {
    await Promise.all([t?.close(), strict?.close()]);
    await receiver?.close();
  });

  async function register(body: { url: string; eventos?: string[]; id_cliente?: number | null }) {
    const res = await admin.post('/api/integracion/webhooks', { eventos: ALL, id_cliente: null, ...body });
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as { secreto: string; webhook: { id: number } };
  }

  /** A client with one approver, its buyer (a product assigned) and the approver, both signed in. */
  async function shop() {
    const b = await makeBuyer(t, { client: { cantidadAutorizadores: 1 } });
    const p = await b.product(1_000);
    await assign(db(), b.user.id, p.id, 50);
    const approver = await makeUser(db(), { rol: 2, idCliente: b.client.id });
    const r2 = await new ApiClient(t.app).loginOk(approver.usuario, TEST_PASSWORD);
    const buy = async (cantidad = 1) => {
      expect((await b.api.post('/api/carrito/nuevo_item', { item: { id: p.id, cantidad } })).statusCode).toBe(
        200,
      );
      const res = await b.api.post('/api/compra', { orden: [{ id: p.id, cantidad }] });
      expect(res.statusCode, res.body).toBe(201);
      return res.json().pedido.id as number;
    };
    return { ...b, p, r2, buy };
  }

  const deliveriesOf = (endpointId: number) =>
    db()
      .select({ d: webhookDeliveries, tipo: webhookEvents.tipo, orderId: webhookEvents.orderId })
      .from(webhookDeliveries)
      .innerJoin(webhookEvents, eq(webhookEvents.id, webhookDeliveries.eventId))
      .where(eq(webhookDeliveries.endpointId, endpointId));

  it('registration: the secret is shown once and stored sealed; bad bodies are Spanish 400s', async () => {
    const created = await register({ url: receiver.url('/registro') });
    expect(created.secreto).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(created.webhook).toMatchObject({
      url: receiver.url('/registro'),
      eventos: ALL,
      activo: true,
      id_cliente: null,
    });
    const list = await admin.get('/api/integracion/webhooks');
    expect(list.statusCode).toBe(200);
    expect(list.body).not.toContain(created.secreto);
    const [row] = await db()
      .select()
      .from(webhookEndpoints)
      .where(eq(webhookEndpoints.id, created.webhook.id));
    expect(row!.secretoCifrado).toMatch(/^v1\./);
    expect(JSON.stringify(row)).not.toContain(created.secreto.slice(6));
    const bad: [Record<string, unknown>, string][] = [
      [{ url: 'no es url' }, MSG.webhookUrlInvalida],
      [{ url: 'ftp://example.com/x' }, MSG.webhookUrlInvalida],
      [{ url: receiver.url('/x'), eventos: [] }, MSG.webhookEventos],
      [{ url: receiver.url('/x'), eventos: ['pedido.borrado'] }, ''],
      [{ url: receiver.url('/x'), id_cliente: 2147483000 }, MSG.clienteNoEncontrado],
    ];
    for (const [patch, msg] of bad) {
      const res = await admin.post('/api/integracion/webhooks', {
        url: '',
        eventos: ALL,
        id_cliente: null,
        ...patch,
      });
      expect(res.statusCode, JSON.stringify(patch)).toBe(400);
      if (msg) expect(res.json().msg, JSON.stringify(patch)).toBe(msg);
    }
    const off = await admin.post(`/api/integracion/webhooks/${created.webhook.id}/desactivar`, {});
    expect(off.statusCode).toBe(200);
    expect(off.json().webhook.activo).toBe(false);
    expect(
      (await admin.post(`/api/integracion/webhooks/${created.webhook.id}/desactivar`, {})).statusCode,
    ).toBe(409);
    expect((await admin.post('/api/integracion/webhooks/2147483000/desactivar', {})).statusCode).toBe(404);
    expect((await admin.get('/api/integracion/webhooks/2147483000/entregas')).statusCode).toBe(404);
    expect((await admin.post('/api/integracion/entregas/2147483000/reenviar', {})).statusCode).toBe(404);
  });

  it('a purchase approved at once (no levels) records created and approved, each for the endpoints that want it', async () => {
    const b = await makeBuyer(t, { client: { cantidadAutorizadores: 0 } });
    const p = await b.product(1_000);
    await assign(db(), b.user.id, p.id, 50);
    const both = await register({ url: receiver.url('/al-momento'), id_cliente: b.client.id });
    const created = await register({
      url: receiver.url('/al-momento-creados'),
      id_cliente: b.client.id,
      eventos: ['pedido.creado'],
    });
    const off = await register({ url: receiver.url('/al-momento-apagado'), id_cliente: b.client.id });
    expect((await admin.post(`/api/integracion/webhooks/${off.webhook.id}/desactivar`, {})).statusCode).toBe(
      200,
    );
    expect(
      (await b.api.post('/api/carrito/nuevo_item', { item: { id: p.id, cantidad: 1 } })).statusCode,
    ).toBe(200);
    const res = await b.api.post('/api/compra', { orden: [{ id: p.id, cantidad: 1 }] });
    expect(res.statusCode, res.body).toBe(201);
    const id = res.json().pedido.id as number;
    expect(res.json().pedido.status).toBe('aprobado');
    const kinds = async (endpointId: number) =>
      (await deliveriesOf(endpointId)).map((d) => [d.tipo, d.orderId]).sort();
    expect(await kinds(both.webhook.id)).toEqual([
      ['pedido.aprobado', id],
      ['pedido.creado', id],
    ]);
    expect(await kinds(created.webhook.id)).toEqual([['pedido.creado', id]]);
    expect(await kinds(off.webhook.id)).toEqual([]);
  });

  it('purchase, approval and cancellation reach the subscribed endpoints, signed, with the order; others get nothing', async () => {
    const s = await shop();
    const other = await makeClient(db());
    const mine = await register({ url: receiver.url('/cliente'), id_cliente: s.client.id });
    const approvals = await register({ url: receiver.url('/aprobados'), eventos: ['pedido.aprobado'] });
    const elsewhere = await register({ url: receiver.url('/otro'), id_cliente: other.id });
    const first = await s.buy(2);
    const approved = await s.r2.post('/api/update/compra', {
      id: first,
      orden: [{ id: s.p.id, cantidad: 2 }],
    });
    expect(approved.statusCode, approved.body).toBe(200);
    const second = await s.buy(1);
    expect((await s.r2.post(`/api/cancelar/compra/${second}`, { motivo: 'Duplicado' })).statusCode).toBe(200);
    const third = await s.buy(1);
    expect((await s.api.post(`/api/historial/${third}/retirar`, {})).statusCode).toBe(200);

    const hooks = await eventually(
      async () => {
        const got = receiver.at('/cliente');
        return got.length >= 6 && receiver.at('/aprobados').length >= 1 ? got : undefined;
      },
      20_000,
      'seis entregas al cliente y una a /aprobados',
    );
    const seen = hooks.map(
      (h) =>
        JSON.parse(h.body) as {
          id: string;
          tipo: string;
          pedido: { id: number; estatus: string; total_centavos: number };
        },
    );
    expect(seen.map((b) => [b.tipo, b.pedido.id]).sort()).toEqual(
      [
        ['pedido.creado', first],
        ['pedido.aprobado', first],
        ['pedido.creado', second],
        ['pedido.cancelado', second],
        ['pedido.creado', third],
        ['pedido.cancelado', third],
      ].sort(),
    );
    for (const [i, h] of hooks.entries()) {
      expect(verifySignature(mine.secreto, h.headers['x-portal-firma'] as string, h.body), `firma ${i}`).toBe(
        true,
      );
      // Another secret, a changed body or an old timestamp do not verify.
      expect(verifySignature(approvals.secreto, h.headers['x-portal-firma'] as string, h.body)).toBe(false);
      expect(verifySignature(mine.secreto, h.headers['x-portal-firma'] as string, `${h.body} `)).toBe(false);
      expect(
        verifySignature(
          mine.secreto,
          h.headers['x-portal-firma'] as string,
          h.body,
          Math.floor(Date.now() / 1000) + 600,
        ),
      ).toBe(false);
      expect(h.headers['x-portal-evento']).toBe(seen[i]!.id);
      expect(h.headers['content-type']).toContain('application/json');
    }
    const approvedBody = seen.find((b) => b.tipo === 'pedido.aprobado')!;
    expect(approvedBody.pedido.estatus).toBe('aprobado');
    expect(approvedBody.pedido.total_centavos).toBe(2_000);
    const onlyApproval = receiver.at('/aprobados').map((h) => JSON.parse(h.body));
    expect(onlyApproval.map((b) => [b.tipo, b.pedido.id])).toEqual([['pedido.aprobado', first]]);
    expect(
      verifySignature(
        approvals.secreto,
        receiver.at('/aprobados')[0]!.headers['x-portal-firma'] as string,
        receiver.at('/aprobados')[0]!.body,
      ),
    ).toBe(true);
    expect(receiver.at('/otro')).toEqual([]);
    expect(await deliveriesOf(elsewhere.webhook.id)).toEqual([]);

    // The receiver answers before the delivery is settled: the log is read once every delivery is.
    const log = await eventually(
      async () => {
        const res = await admin.get(`/api/integracion/webhooks/${mine.webhook.id}/entregas`);
        const entregas = res.json().entregas as { estado: string }[];
        return entregas.length === 6 && entregas.every((d) => d.estado !== 'enviando') ? res : undefined;
      },
      20_000,
      'las seis entregas asentadas',
    );
    expect(log.statusCode).toBe(200);
    expect(log.json().total).toBe(6);
    for (const d of log.json().entregas) {
      expect(d).toMatchObject({ estado: 'entregado', intentos: 1, ultimo_codigo: 200, ultimo_error: null });
      expect(d.ultima_latencia_ms).toBeGreaterThanOrEqual(0);
    }
    expect(log.body).not.toContain(mine.secreto);
  });

  it("each fulfilment move (operator or token) sends pedido.surtido with the order's state; a refused move sends nothing", async () => {
    const s = await shop();
    const hook = await register({
      url: receiver.url('/surtido'),
      eventos: ['pedido.surtido'],
      id_cliente: s.client.id,
    });
    const id = await s.buy(1);
    expect(
      (await s.r2.post('/api/update/compra', { id, orden: [{ id: s.p.id, cantidad: 1 }] })).statusCode,
    ).toBe(200);
    const moved = await admin.post(`/api/surtido/${id}/estado`, { estado: 'en_surtido' });
    expect(moved.statusCode, moved.body).toBe(200);
    const token = await integrationToken(admin, {
      nombre: 'Almacén',
      id_cliente: s.client.id,
      permisos: ['surtido:escribir'],
    });
    const shipped = await t.app.inject({
      method: 'POST',
      url: `/api/v1/pedidos/${id}/surtido`,
      headers: { authorization: `Bearer ${token}` },
      payload: { estado: 'enviado', guia: 'Estafeta 555' },
    });
    expect(shipped.statusCode, shipped.body).toBe(200);
    const backwards = await admin.post(`/api/surtido/${id}/estado`, { estado: 'en_surtido' });
    expect(backwards.statusCode).toBe(409);
    const got = await eventually(
      async () => (receiver.at('/surtido').length >= 2 ? receiver.at('/surtido') : undefined),
      15_000,
      'pedido.surtido',
    );
    // Deliveries are independent jobs: read them in the order of the events.
    const bodies = got.map((h) => JSON.parse(h.body)).sort((a, b) => a.fecha.localeCompare(b.fecha));
    expect(bodies.map((b) => [b.tipo, b.pedido.id, b.pedido.surtido, b.pedido.guia])).toEqual([
      ['pedido.surtido', id, 'en_surtido', null],
      ['pedido.surtido', id, 'enviado', 'Estafeta 555'],
    ]);
    for (const h of got)
      expect(verifySignature(hook.secreto, h.headers['x-portal-firma'] as string, h.body)).toBe(true);
    expect(await deliveriesOf(hook.webhook.id)).toHaveLength(2);
  });

  it('a secret sealed under the previous key still signs, and after secrets:rotate; under no known key the delivery fails with a logged reason, once', async () => {
    const s = await shop();
    const hook = await register({
      url: receiver.url('/rotacion'),
      eventos: ['pedido.creado'],
      id_cliente: s.client.id,
    });
    const id = hook.webhook.id;
    const sealedNow = async () =>
      (await db().select().from(webhookEndpoints).where(eq(webhookEndpoints.id, id)))[0]!.secretoCifrado;
    const before = appKeys({ SECRET_KEY: OLD_KEY, dataDir: 'memory://', DATABASE_URL: undefined });
    // Registered before the key changed: sealed under the old key.
    await db()
      .update(webhookEndpoints)
      .set({ secretoCifrado: sealSecret(before.encryption, hook.secreto, secretContext(id)) })
      .where(eq(webhookEndpoints.id, id));
    const signedBy = async (n: number) => {
      const got = await eventually(
        async () => (receiver.at('/rotacion').length >= n ? receiver.at('/rotacion') : undefined),
        20_000,
        `entrega ${n}`,
      );
      return verifySignature(hook.secreto, got[n - 1]!.headers['x-portal-firma'] as string, got[n - 1]!.body);
    };
    await s.buy();
    expect(await signedBy(1)).toBe(true);
    expect(openWithRing(encryptionRing(t.app.keys), await sealedNow(), secretContext(id)).current).toBe(
      false,
    );

    await rotateSecrets(db(), t.app.keys);
    expect(openWithRing(encryptionRing(t.app.keys), await sealedNow(), secretContext(id)).current).toBe(true);
    await s.buy();
    expect(await signedBy(2)).toBe(true);

    // Sealed under a key no longer configured: no request, the delivery fails at once with the reason.
    await db()
      .update(webhookEndpoints)
      .set({ secretoCifrado: sealSecret(randomBytes(32), hook.secreto, secretContext(id)) })
      .where(eq(webhookEndpoints.id, id));
    const third = await s.buy();
    const [failed] = await eventually(
      async () => {
        const rows = await db()
          .select({ d: webhookDeliveries })
          .from(webhookDeliveries)
          .innerJoin(webhookEvents, eq(webhookEvents.id, webhookDeliveries.eventId))
          .where(and(eq(webhookDeliveries.endpointId, id), eq(webhookEvents.orderId, third)));
        return rows[0]?.d.estado === 'fallido' ? rows : undefined;
      },
      20_000,
      'entrega fallida por el secreto',
    );
    expect(failed!.d).toMatchObject({
      intentos: 1,
      ultimoError: MSG.entregaSecretoIlegible,
      ultimoCodigo: null,
    });
    expect(receiver.at('/rotacion')).toHaveLength(2);
    const warned = logLines
      .map((l) => JSON.parse(l))
      .filter((l) => l.level === 40 && l.webhook === id && l.entrega === failed!.d.id);
    expect(warned).toHaveLength(1);
    expect(warned[0].msg).toContain('el secreto de firma no se abre');
    expect(logLines.join('\n')).not.toContain(hook.secreto);
  });

  it('retries with backoff: a receiver that fails twice then succeeds gets the same event three times, delivered once', async () => {
    const s = await shop();
    const hook = await register({
      url: receiver.url('/fallas'),
      eventos: ['pedido.creado'],
      id_cliente: s.client.id,
    });
    const id = await s.buy();
    const [delivered] = await eventually(
      async () => {
        const rows = await deliveriesOf(hook.webhook.id);
        return rows[0]?.d.estado === 'entregado' ? rows : undefined;
      },
      30_000,
      'entrega tras dos fallas',
    );
    expect(delivered!.d).toMatchObject({ intentos: 3, ultimoCodigo: 200, ultimoError: null });
    expect(delivered!.orderId).toBe(id);
    const got = receiver.at('/fallas');
    expect(got).toHaveLength(3);
    expect(new Set(got.map((g) => g.body)).size).toBe(1);
    expect(new Set(got.map((g) => g.headers['x-portal-evento'])).size).toBe(1);
    expect(got.map((g) => g.headers['x-portal-intento'])).toEqual(['1', '2', '3']);
    for (const g of got)
      expect(verifySignature(hook.secreto, g.headers['x-portal-firma'] as string, g.body)).toBe(true);
    // Backoff: the second wait is longer than the first.
    const gaps = [got[1]!.at - got[0]!.at, got[2]!.at - got[1]!.at];
    expect(gaps[0]).toBeGreaterThanOrEqual(900);
    expect(gaps[1]).toBeGreaterThanOrEqual(1_900);

    // "Reenviar": the same event again, a new attempt in the log.
    const again = await admin.post(`/api/integracion/entregas/${delivered!.d.id}/reenviar`, {});
    expect(again.statusCode, again.body).toBe(200);
    await eventually(async () => receiver.at('/fallas').length === 4, 15_000, 'reenvío');
    expect(receiver.at('/fallas')[3]!.headers['x-portal-evento']).toBe(got[0]!.headers['x-portal-evento']);
    const [after] = await eventually(
      async () => {
        const rows = await deliveriesOf(hook.webhook.id);
        return rows[0]?.d.estado === 'entregado' && rows[0].d.intentos === 4 ? rows : undefined;
      },
      15_000,
      'reenvío registrado',
    );
    expect(after!.d.intentos).toBe(4);
  });

  it('redirects are not followed: the attempt fails with the status; a deactivated endpoint fails its pending deliveries', async () => {
    const s = await shop();
    const hook = await register({
      url: receiver.url('/redirige'),
      eventos: ['pedido.creado'],
      id_cliente: s.client.id,
    });
    await s.buy();
    const [first] = await eventually(
      async () => {
        const rows = await deliveriesOf(hook.webhook.id);
        return rows[0]?.d.ultimoCodigo === 302 ? rows : undefined;
      },
      15_000,
      'intento con 302',
    );
    expect(first!.d.ultimoError).toBe(MSG.entregaRedireccion(302));
    expect(receiver.at('/redirige-destino')).toEqual([]);
    expect((await admin.post(`/api/integracion/webhooks/${hook.webhook.id}/desactivar`, {})).statusCode).toBe(
      200,
    );
    const [failed] = await eventually(
      async () => {
        const rows = await deliveriesOf(hook.webhook.id);
        return rows[0]?.d.estado === 'fallido' ? rows : undefined;
      },
      20_000,
      'entrega fallida al desactivar',
    );
    expect(failed!.d.ultimoError).toBe(MSG.entregaWebhookInactivo);
  });

  it('two attempts of the same delivery at once (two instances): one request, the other backs off; Reenviar of one in flight is 409', async () => {
    const s = await shop();
    const hook = await register({
      url: receiver.url('/carrera'),
      eventos: ['pedido.surtido'],
      id_cliente: s.client.id,
    });
    const order = await s.order([[s.p, 1]], 'aprobado', true);
    // pedido.surtido is not emitted yet by any change: recorded here as the fulfilment move will record it.
    await db().transaction((tx) =>
      recordWebhookEvent(tx, t.app, {
        clientId: s.client.id,
        type: 'pedido.surtido',
        orderId: order.id,
      }),
    );
    const [row] = await deliveriesOf(hook.webhook.id);
    const ctx = { id: 'x', retryCount: 0, lastAttempt: false, signal: new AbortController().signal };
    const results = await Promise.allSettled([
      attemptDelivery(t.app, row!.d.id, ctx),
      attemptDelivery(t.app, row!.d.id, ctx),
      attemptDelivery(t.app, row!.d.id, ctx),
    ]);
    await eventually(
      async () => (await deliveriesOf(hook.webhook.id))[0]?.d.estado === 'entregado',
      10_000,
      'entregado',
    );
    expect(receiver.at('/carrera')).toHaveLength(1);
    // The queue's own job races them too: whoever loses the claim backs off (retried later), never sends.
    for (const r of results) if (r.status === 'rejected') expect((r.reason as Error).name).toBe('RetryLater');
    const body = JSON.parse(receiver.at('/carrera')[0]!.body);
    expect(body).toMatchObject({ tipo: 'pedido.surtido', pedido: { id: order.id, estatus: 'aprobado' } });
    // A claim held by a live attempt: Reenviar waits (409).
    await db()
      .update(webhookDeliveries)
      .set({ estado: 'enviando', reclamadoHasta: new Date(Date.now() + 60_000) })
      .where(eq(webhookDeliveries.id, row!.d.id));
    const busy = await admin.post(`/api/integracion/entregas/${row!.d.id}/reenviar`, {});
    expect(busy.statusCode).toBe(409);
    expect(busy.json().msg).toBe(MSG.entregaEnCurso);
    expect(receiver.at('/carrera')).toHaveLength(1);
  });

  it('two deactivations of one endpoint at once: one 200, the other 409', async () => {
    const hook = await register({ url: receiver.url('/doble'), eventos: ['pedido.surtido'] });
    const other = await new ApiClient(t.app).loginOk(
      (await makeUser(db(), { rol: 4, idCliente: null })).usuario,
      TEST_PASSWORD,
    );
    const answers = await Promise.all([
      admin.post(`/api/integracion/webhooks/${hook.webhook.id}/desactivar`, {}),
      other.post(`/api/integracion/webhooks/${hook.webhook.id}/desactivar`, {}),
    ]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409]);
  });

  it('without WEBHOOK_ALLOW_PRIVATE: loopback and private targets are refused at registration and at delivery', async () => {
    for (const url of [
      receiver.url('/x'),
      `http://localhost:${receiver.port}/x`,
      'https://10.1.2.3/x',
      'https://[::1]/x',
      'https://169.254.169.254/x',
      // The same places written as IPv6 addresses that carry an IPv4 one, and as numbers (issue 38, finding 1).
      `http://[::ffff:127.0.0.1]:${receiver.port}/x`,
      'http://[::ffff:169.254.169.254]/latest/meta-data',
      'http://[::ffff:10.0.0.1]/x',
      `http://[64:ff9b::127.0.0.1]:${receiver.port}/x`,
      `http://2130706433:${receiver.port}/x`,
      `http://0.0.0.0:${receiver.port}/x`,
    ]) {
      const res = await strictAdmin.post('/api/integracion/webhooks', {
        url,
        eventos: ALL,
        id_cliente: null,
      });
      expect(res.statusCode, url).toBe(400);
      expect(res.json(), url).toMatchObject({ code: 'WEBHOOK_PRIVATE', msg: MSG.webhookUrlPrivada });
    }
    const withCredentials = await strictAdmin.post('/api/integracion/webhooks', {
      url: 'https://usuario:clave@example.com/x',
      eventos: ALL,
      id_cliente: null,
    });
    expect(withCredentials.statusCode).toBe(400);
    expect(withCredentials.json()).toMatchObject({
      code: 'WEBHOOK_CREDENTIALS',
      msg: MSG.webhookUrlCredenciales,
    });
    // An endpoint stored before this check (or whose name pointed elsewhere at registration: DNS rebinding)
    // is checked again at send time.
    const sdb = strict.database.db;
    const client = await makeClient(sdb);
    const buyer = await makeUser(sdb, { rol: 1, idCliente: client.id });
    const [endpoint] = await sdb
      .insert(webhookEndpoints)
      .values({
        url: `http://[::ffff:127.0.0.1]:${receiver.port}/rebind`,
        eventos: ['pedido.creado'],
        idCliente: client.id,
        secretoCifrado: '',
      })
      .returning();
    await sdb
      .update(webhookEndpoints)
      .set({
        secretoCifrado: sealSecret(strict.app.keys.encryption, 'whsec_prueba', secretContext(endpoint!.id)),
      })
      .where(eq(webhookEndpoints.id, endpoint!.id));
    const { makeOrder } = await import('../../test/factories.ts');
    const { makeCategory, makeProduct } = await import('../../test/factories.ts');
    const cat = await makeCategory(sdb, client.id);
    const prod = await makeProduct(sdb, { idCliente: client.id, idCategoria: cat.id, precio: 100 });
    const order = await makeOrder(sdb, {
      idUser: buyer.id,
      idCliente: client.id,
      lines: [{ productId: prod.id, precio: 100, cantidad: 1, idCategoria: cat.id }],
    });
    await sdb.transaction((tx) =>
      recordWebhookEvent(tx, strict.app, {
        clientId: client.id,
        type: 'pedido.creado',
        orderId: order.id,
      }),
    );
    const [row] = await eventually(
      async () => {
        const rows = await strict.database.db
          .select()
          .from(webhookDeliveries)
          .where(eq(webhookDeliveries.endpointId, endpoint!.id));
        return rows[0]?.ultimoError ? rows : undefined;
      },
      15_000,
      'intento refusado',
    );
    // The log says no more than that (it must not tell what answers inside the network).
    expect(row!.ultimoError).toBe(MSG.entregaNoPermitida);
    expect(row!.ultimoCodigo).toBeNull();
    expect(receiver.at('/rebind')).toEqual([]);
  });
});
