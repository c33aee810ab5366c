import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importJobs, systemLogs } from '../../db/schema/index.ts';
import { audit } from '../../lib/audit.ts';
import { MSG } from '../../messages.ts';
import { monthsBack } from '../../test/calendar.ts';
import {
  makeCategory,
  makeClient,
  makeOrder,
  makeProduct,
  makeUser,
  TEST_PASSWORD,
  uniq,
} from '../../test/factories.ts';
import { ApiClient, createTestApp, DB_KINDS, type TestApp } from '../../test/harness.ts';
import { LOG_COUNT_CAP, LOG_COUNT_ESTIMATE_FROM, LOG_EXPORT_BATCH } from './logs.service.ts';

describe.each(DB_KINDS)('administration: system logs and overview (%s)', (kind) => {
  let t: TestApp;
  let admin: ApiClient;
  let adminRow: Awaited<ReturnType<typeof makeUser>>;
  let buyer: ApiClient;
  const db = () => t.database.db;

  beforeAll(async () => {
    t = await createTestApp(kind);
    adminRow = await makeUser(db(), { rol: 4, idCliente: null });
    admin = await new ApiClient(t.app).loginOk(adminRow.usuario, TEST_PASSWORD);
    const c = await makeClient(db());
    const u = await makeUser(db(), { rol: 3, idCliente: c.id });
    buyer = await new ApiClient(t.app).loginOk(u.usuario, TEST_PASSWORD);
  });
  afterAll(async () => t?.close());

  it('every route: anonymous 401, other roles 403', async () => {
    const anon = new ApiClient(t.app);
    for (const url of [
      '/api/logs',
      '/api/logs/tipos',
      '/api/logs/exportar',
      '/api/admin/resumen',
      '/api/logs?desde=mal',
    ]) {
      expect((await anon.get(url)).statusCode, url).toBe(401);
      expect((await buyer.get(url)).statusCode, url).toBe(403);
    }
  });

  it('logs: newest first, 15 per page, with the username (null when there is no user)', async () => {
    const tipo = uniq('prueba_pagina');
    for (let i = 1; i <= 20; i++) {
      await db()
        .insert(systemLogs)
        .values({
          userId: i % 5 === 0 ? null : adminRow.id,
          eventType: tipo,
          description: `Evento ${i}`,
          metadata: { n: i, ip: '10.0.0.1' },
        });
    }
    const page1 = await admin.get(`/api/logs?event_type=${tipo}`);
    expect(page1.statusCode).toBe(200);
    expect(page1.json()).toMatchObject({ total: 20, total_limitado: false, page: 1, per_page: 15 });
    const logs = page1.json().logs as {
      id: number;
      user_id: number | null;
      usuario: string | null;
      description: string;
      metadata: { n: number };
      created_at: string;
      event_type: string;
    }[];
    expect(logs).toHaveLength(15);
    expect(logs.map((l) => l.description)).toEqual(Array.from({ length: 15 }, (_, k) => `Evento ${20 - k}`));
    expect(logs[0]).toMatchObject({
      user_id: null,
      usuario: null,
      event_type: tipo,
      metadata: { n: 20, ip: '10.0.0.1' },
    });
    expect(logs[1]).toMatchObject({ user_id: adminRow.id, usuario: adminRow.usuario });
    expect(Number.isNaN(Date.parse(logs[0]!.created_at))).toBe(false);
    const page2 = (await admin.get(`/api/logs?event_type=${tipo}&page=2`)).json();
    expect(page2.logs.map((l: { description: string }) => l.description)).toEqual([
      'Evento 5',
      'Evento 4',
      'Evento 3',
      'Evento 2',
      'Evento 1',
    ]);
    // Without filters the sign-ins of this suite are there too.
    const all = (await admin.get('/api/logs')).json();
    expect(all.total).toBeGreaterThan(20);
    expect(all.logs).toHaveLength(15);
  });

  it('logs: filters by event type, user and business-date range (inclusive, Mexico City dates)', async () => {
    const tipo = uniq('prueba_fecha');
    const other = await makeUser(db(), { rol: 4, idCliente: null });
    await db()
      .insert(systemLogs)
      .values([
        // 2026-03-10 05:30 UTC is still 2026-03-09 in Mexico City (UTC-6).
        {
          userId: adminRow.id,
          eventType: tipo,
          description: 'noche del 9',
          createdAt: new Date('2026-03-10T05:30:00Z'),
        },
        {
          userId: adminRow.id,
          eventType: tipo,
          description: 'mañana del 10',
          createdAt: new Date('2026-03-10T06:30:00Z'),
        },
        {
          userId: other.id,
          eventType: tipo,
          description: 'del 11',
          createdAt: new Date('2026-03-11T18:00:00Z'),
        },
        { userId: null, eventType: tipo, description: 'del 12', createdAt: new Date('2026-03-12T12:00:00Z') },
      ]);
    const get = async (q: string) =>
      ((await admin.get(`/api/logs?event_type=${tipo}&${q}`)).json().logs as { description: string }[]).map(
        (l) => l.description,
      );
    expect(await get('hasta=2026-03-09')).toEqual(['noche del 9']);
    expect(await get('desde=2026-03-10&hasta=2026-03-10')).toEqual(['mañana del 10']);
    expect(await get('desde=2026-03-10')).toEqual(['del 12', 'del 11', 'mañana del 10']);
    expect(await get('desde=2026-03-09&hasta=2026-03-11')).toEqual([
      'del 11',
      'mañana del 10',
      'noche del 9',
    ]);
    expect(await get(`user_id=${other.id}`)).toEqual(['del 11']);
    expect(await get(`user_id=${adminRow.id}&desde=2026-03-10`)).toEqual(['mañana del 10']);
    const total = async (q: string) => (await admin.get(`/api/logs?event_type=${tipo}&${q}`)).json().total;
    expect(await total('desde=2026-03-10')).toBe(3);
    expect(await total(`user_id=${adminRow.id}`)).toBe(2);
    expect(await total('desde=2026-03-10&hasta=2026-03-10')).toBe(1);

    const reversed = await admin.get('/api/logs?desde=2026-03-11&hasta=2026-03-10');
    expect(reversed.statusCode).toBe(400);
    expect(reversed.json().msg).toBe(MSG.logsRangoInvalido);
    const badDate = await admin.get('/api/logs?desde=2026-02-30');
    expect(badDate.statusCode).toBe(400);
    expect(badDate.json().msg).toBe(MSG.logsFechaInvalida);
    expect((await admin.get('/api/logs?user_id=abc')).statusCode).toBe(400);
  });

  it('logs: past 100,000 entries the unfiltered total is the planner’s row count; filtered ones stay exact', async () => {
    const tipo = uniq('estimado');
    await db().insert(systemLogs).values({ userId: adminRow.id, eventType: tipo, description: 'uno' });
    // What autovacuum would have recorded for a log of 250,000 entries.
    await db().execute(sql`update pg_class set reltuples = 250000 where oid = 'system_logs'::regclass`);
    try {
      const first = (await admin.get('/api/logs')).json();
      expect(first.total).toBe(250_000);
      expect(first.logs).toHaveLength(15);
      // A page past the end has no row to carry the estimate: it is read on its own.
      expect((await admin.get('/api/logs?page=50000')).json()).toMatchObject({ logs: [], total: 250_000 });
      expect((await admin.get(`/api/logs?event_type=${tipo}`)).json().total).toBe(1);
    } finally {
      await db().execute(sql`analyze system_logs`);
    }
    const small = (await admin.get('/api/logs')).json().total;
    expect(small).toBeGreaterThan(20);
    expect(small).toBeLessThan(LOG_COUNT_ESTIMATE_FROM);
  });

  /** A client with a buyer, an order and log entries about them, written through audit() as the modules do. */
  async function logWorld() {
    const tag = uniq('lw').replace('_', '');
    const client = await makeClient(db(), { nombre: `Cliente ${tag}` });
    const cat = await makeCategory(db(), client.id);
    const p = await makeProduct(db(), { idCliente: client.id, idCategoria: cat.id, precio: 1000 });
    const buyerRow = await makeUser(db(), {
      rol: 1,
      idCliente: client.id,
      usuario: `mnunez${tag}`,
      nombre: `María Núñez ${tag}`,
    });
    const order = await makeOrder(db(), {
      idUser: buyerRow.id,
      idCliente: client.id,
      lines: [{ productId: p.id, precio: 1000, cantidad: 1, idCategoria: cat.id }],
    });
    // The buyer's sign-in: its client is the acting user's.
    await audit(db(), { userId: buyerRow.id, eventType: 'login', description: `Inicio de sesión ${tag}` });
    // An order entry without a user: its client is the order's.
    await audit(db(), {
      userId: null,
      eventType: 'pedido_aprobado',
      description: `Pedido aprobado por regla ${tag}`,
      metadata: { id_pedido: order.id },
    });
    // The administrator's change: the client its metadata names.
    await audit(db(), {
      userId: adminRow.id,
      eventType: 'cliente_actualizado',
      description: `=HYPERLINK("http://x.test";"clic") ${tag}`,
      metadata: { id_cliente: client.id, campos: ['nombre'], nota: '+SUM(A1)' },
    });
    return { tag, client, buyerRow, order };
  }
  const descriptions = async (q: string) => {
    const res = await admin.get(`/api/logs?${q}`);
    expect(res.statusCode, res.body).toBe(200);
    return (res.json().logs as { description: string }[]).map((l) => l.description);
  };

  it('logs: filter by user name or username, accents and case ignored; the numeric id still works', async () => {
    const w = await logWorld();
    expect(await descriptions(`usuario=${encodeURIComponent(`MARIA NUNEZ ${w.tag}`)}`)).toEqual([
      `Inicio de sesión ${w.tag}`,
    ]);
    expect(await descriptions(`usuario=${encodeURIComponent(`ÑÚÑEZ${w.tag}`)}`)).toEqual([
      `Inicio de sesión ${w.tag}`,
    ]);
    expect(await descriptions(`user_id=${w.buyerRow.id}`)).toEqual([`Inicio de sesión ${w.tag}`]);
    // Two letters (no trigram for the indexes: the lookup planned for its pattern) find the same user.
    expect(await descriptions(`usuario=${encodeURIComponent('ÑÚ')}&event_type=login`)).toContain(
      `Inicio de sesión ${w.tag}`,
    );
    // Nobody of that name: nothing, not everything.
    const none = (await admin.get(`/api/logs?usuario=nadie${w.tag}`)).json();
    expect(none).toMatchObject({ logs: [], total: 0 });
    // The page carries who, the client and the order.
    const [row] = (await admin.get(`/api/logs?user_id=${w.buyerRow.id}`)).json().logs;
    expect(row).toMatchObject({
      usuario: w.buyerRow.usuario,
      nombre: `María Núñez ${w.tag}`,
      id_cliente: w.client.id,
      cliente: w.client.nombre,
      id_pedido: null,
      event_type: 'login',
    });
  });

  it('logs: filter by client (the metadata’s, the order’s or the acting user’s) and by order number', async () => {
    const w = await logWorld();
    const other = await logWorld();
    expect(await descriptions(`id_cliente=${w.client.id}`)).toEqual([
      `=HYPERLINK("http://x.test";"clic") ${w.tag}`,
      `Pedido aprobado por regla ${w.tag}`,
      `Inicio de sesión ${w.tag}`,
    ]);
    const number = String(w.order.id).padStart(5, '0');
    for (const pedido of [`%23${number}`, number, String(w.order.id)]) {
      expect(await descriptions(`pedido=${pedido}`), pedido).toEqual([`Pedido aprobado por regla ${w.tag}`]);
    }
    expect(await descriptions(`pedido=${other.order.id}&id_cliente=${w.client.id}`)).toEqual([]);
    expect(await descriptions(`id_cliente=${w.client.id}&event_type=login`)).toEqual([
      `Inicio de sesión ${w.tag}`,
    ]);
    const total = (await admin.get(`/api/logs?id_cliente=${w.client.id}`)).json().total;
    expect(total).toBe(3);
  });

  it('logs: bad filter values answer 400 in Spanish', async () => {
    const cases: [string, string][] = [
      ['user_id=abc', MSG.logsUsuarioInvalido],
      ['user_id=-3', MSG.logsUsuarioInvalido],
      ['id_cliente=abc', MSG.logsClienteInvalido],
      ['id_cliente=99999999999', MSG.logsClienteInvalido],
      ['pedido=abc', MSG.numeroPedidoInvalido],
      ['pedido=%23%2312', MSG.numeroPedidoInvalido],
      ['usuario=a', MSG.busquedaMuyCorta],
      [`usuario=${'a'.repeat(101)}`, MSG.busquedaMuyLarga],
      [`event_type=${'a'.repeat(101)}`, MSG.logsTipoInvalido],
      ['desde=2026-02-30', MSG.logsFechaInvalida],
      ['desde=2026-03-11&hasta=2026-03-10', MSG.logsRangoInvalido],
    ];
    for (const [q, msg] of cases) {
      for (const url of [`/api/logs?${q}`, `/api/logs/exportar?${q}`]) {
        const res = await admin.get(url);
        expect(res.statusCode, url).toBe(400);
        expect(res.json().msg, url).toBe(msg);
      }
    }
    // Blank values are no filter (what a cleared form sends).
    expect((await admin.get('/api/logs?usuario=&id_cliente=&pedido=&desde=')).statusCode).toBe(200);
  });

  it('export: the filtered log as CSV, newest first, labels in Spanish, dd/MM/yyyy HH:mm, formula-safe', async () => {
    const w = await logWorld();
    await logWorld();
    const res = await admin.get(`/api/logs/exportar?id_cliente=${w.client.id}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe('attachment; filename="registros.csv"');
    expect(res.body.startsWith('\uFEFF')).toBe(true);
    const lines = res.body.slice(1).split('\r\n');
    expect(lines.at(-1)).toBe('');
    expect(lines[0]).toBe(
      '#,Fecha,ID de usuario,Usuario,Nombre,Cliente,Pedido,Tipo de evento,Clave del evento,Descripción,Metadatos',
    );
    const rows = lines.slice(1, -1);
    expect(rows).toHaveLength(3);
    // The formula in the description and the metadata's are neutralised with an apostrophe.
    expect(rows[0]).toMatch(
      new RegExp(
        `^\\d+,\\d{2}/\\d{2}/\\d{4} \\d{2}:\\d{2},${adminRow.id},${adminRow.usuario},[^,]*,Cliente ${w.tag},,Cliente modificado,cliente_actualizado,"'=HYPERLINK\\(""http://x.test"";""clic""\\) ${w.tag}",`,
      ),
    );
    expect(rows[0]).toContain(`""nota"":""+SUM(A1)""`);
    expect(rows[1]).toContain(
      `,,,,Cliente ${w.tag},#${String(w.order.id).padStart(5, '0')},Pedido aprobado,pedido_aprobado,`,
    );
    expect(rows[2]).toContain(
      `,${w.buyerRow.usuario},María Núñez ${w.tag},Cliente ${w.tag},,Inicio de sesión,login,`,
    );
    // By a user's name too (the matching users are read first), and nobody of that name: the header only.
    const byName = await admin.get(
      `/api/logs/exportar?usuario=${encodeURIComponent(`maria nunez ${w.tag}`)}`,
    );
    expect(byName.statusCode, byName.body).toBe(200);
    const nameRows = byName.body.slice(1).split('\r\n').slice(1, -1);
    expect(nameRows).toHaveLength(1);
    expect(nameRows[0]).toContain(`,Inicio de sesión,login,Inicio de sesión ${w.tag},`);
    const nobody = await admin.get(`/api/logs/exportar?usuario=nadie${w.tag}`);
    expect(nobody.body.slice(1).split('\r\n')).toEqual([lines[0], '']);
    // Each export is logged, with its filters (the three above, newest first).
    const exports = (await admin.get('/api/logs?event_type=registros_exportados')).json().logs;
    expect(exports[2]).toMatchObject({
      user_id: adminRow.id,
      metadata: { filtros: { id_cliente: w.client.id } },
    });
    expect(exports[0]).toMatchObject({ metadata: { filtros: { usuario: `nadie${w.tag}` } } });
  });

  it('export: streamed in chunks (no Content-Length), batch after batch past 1,000 entries', async () => {
    const tipo = uniq('exportar');
    const n = LOG_EXPORT_BATCH * 2 + 37;
    await db()
      .insert(systemLogs)
      .values(
        Array.from({ length: n }, (_, i) => ({
          userId: null,
          eventType: tipo,
          description: `Entrada ${i + 1}`,
          metadata: { i },
        })),
      );
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    const cookie = [...admin.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const res = await fetch(`http://127.0.0.1:${port}/api/logs/exportar?event_type=${tipo}`, {
      headers: { cookie, 'user-agent': 'api-test' },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('transfer-encoding')).toBe('chunked');
    expect(res.headers.get('content-length')).toBeNull();
    let chunks = 0;
    let text = '';
    const decoder = new TextDecoder();
    for await (const part of res.body as unknown as AsyncIterable<Uint8Array>) {
      chunks++;
      text += decoder.decode(part, { stream: true });
    }
    const rows = text.split('\r\n').slice(1, -1);
    expect(rows).toHaveLength(n);
    expect(rows[0]).toContain(`,Entrada ${n},`);
    expect(rows.at(-1)).toContain(',Entrada 1,');
    expect(chunks).toBeGreaterThan(1);
  });

  it('logs: a name that finds one user pages like its user id; two users, a type or another id narrow it', async () => {
    const w = await logWorld();
    const twin = await makeUser(db(), { rol: 1, idCliente: w.client.id, usuario: `mnunez${w.tag}b` });
    for (let i = 0; i < 32; i++)
      await audit(db(), {
        userId: i % 4 === 0 ? twin.id : w.buyerRow.id,
        eventType: i % 2 ? 'login' : 'logout',
        description: `E${i} ${w.tag}`,
      });
    const page = async (q: string) => {
      const res = await admin.get(`/api/logs?${q}`);
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json();
      return { total: body.total, ids: (body.logs as { id: number }[]).map((l) => l.id) };
    };
    // María's full name finds her alone: the same pages and totals as her id (the login of logWorld, 24 more).
    for (const n of [1, 2, 3]) {
      const byName = await page(`usuario=${encodeURIComponent(`María Núñez ${w.tag}`)}&page=${n}`);
      expect(byName).toEqual(await page(`user_id=${w.buyerRow.id}&page=${n}`));
      expect(byName.total).toBe(25);
      expect(byName.ids).toHaveLength([15, 10, 0][n - 1]!);
    }
    // The username finds both: their 33 entries, newest first.
    const both = await page(`usuario=mnunez${w.tag}`);
    expect(both.total).toBe(33);
    expect(both.ids).toEqual([...both.ids].sort((a, b) => b - a));
    // A type narrows the one user; an id of someone else and her name find nothing.
    expect(
      (await page(`usuario=${encodeURIComponent(`María Núñez ${w.tag}`)}&event_type=logout`)).total,
    ).toBe(8);
    expect(await page(`usuario=${encodeURIComponent(`María Núñez ${w.tag}`)}&user_id=${twin.id}`)).toEqual({
      total: 0,
      ids: [],
    });
  });

  it('logs: a filtered count stops at 10,000 and says so; the page is still read', async () => {
    const tipo = uniq('tope');
    for (let chunk = 0; chunk < 2; chunk++) {
      await db()
        .insert(systemLogs)
        .values(
          Array.from({ length: (LOG_COUNT_CAP + 5) / 2 + chunk }, (_, i) => ({
            userId: null,
            eventType: tipo,
            description: `Tope ${chunk}-${i}`,
          })),
        );
    }
    const many = (await admin.get(`/api/logs?event_type=${tipo}&page=3`)).json();
    expect(many).toMatchObject({ total: LOG_COUNT_CAP, total_limitado: true, page: 3 });
    expect(many.logs).toHaveLength(15);
    const few = (await admin.get(`/api/logs?event_type=${tipo}&desde=2020-01-01&hasta=2020-01-02`)).json();
    expect(few).toMatchObject({ total: 0, total_limitado: false, logs: [] });
    // Past the cap the count is remembered (decision 0087); the log only grows, so the pager stays right.
    await db().insert(systemLogs).values({ userId: null, eventType: tipo, description: 'Una más' });
    const again = (await admin.get(`/api/logs?event_type=${tipo}`)).json();
    expect(again).toMatchObject({ total: LOG_COUNT_CAP, total_limitado: true, page: 1 });
    expect(again.logs[0].description).toBe('Una más');
  });

  it('logs: a filtered count under the cap moves with every new entry (never remembered)', async () => {
    const tipo = uniq('pocos');
    const total = async () => (await admin.get(`/api/logs?event_type=${tipo}`)).json().total;
    for (let n = 1; n <= 3; n++) {
      await db()
        .insert(systemLogs)
        .values({ userId: null, eventType: tipo, description: `Entrada ${n}` });
      expect(await total()).toBe(n);
      expect(await total()).toBe(n);
    }
    // The page carries its total; a page past the end has no row to carry it, and still says it.
    const past = (await admin.get(`/api/logs?event_type=${tipo}&page=4`)).json();
    expect(past).toMatchObject({ logs: [], total: 3, total_limitado: false, page: 4 });
    const none = (await admin.get(`/api/logs?event_type=${uniq('nada')}`)).json();
    expect(none).toMatchObject({ logs: [], total: 0, total_limitado: false });
  });

  it('logs/tipos: the distinct event types, sorted', async () => {
    const res = await admin.get('/api/logs/tipos');
    expect(res.statusCode).toBe(200);
    const tipos = res.json().tipos as string[];
    expect(tipos).toContain('login');
    expect(tipos).toEqual([...tipos].sort());
    expect(new Set(tipos).size).toBe(tipos.length);
  });

  it('overview: active clients and users, orders of the business month by status, imports running or failed', async () => {
    const before = (await admin.get('/api/admin/resumen')).json();
    expect(before.mes).toMatch(/^\d{4}-\d{2}$/);

    const client = await makeClient(db());
    await makeClient(db(), { activo: false });
    const buyerRow = await makeUser(db(), { rol: 1, idCliente: client.id });
    await makeUser(db(), { rol: 2, idCliente: client.id });
    await makeUser(db(), { rol: 1, idCliente: client.id, activo: false });
    await makeUser(db(), { rol: 4, idCliente: null });
    const cat = await makeCategory(db(), client.id);
    const p = await makeProduct(db(), { idCliente: client.id, idCategoria: cat.id, precio: 1000 });
    const line = { productId: p.id, precio: 1000, cantidad: 1, idCategoria: cat.id };
    for (const status of ['pendiente', 'pendiente', 'espera', 'aprobado', 'cancelado'] as const) {
      await makeOrder(db(), { idUser: buyerRow.id, idCliente: client.id, status, lines: [line] });
    }
    await makeOrder(db(), {
      idUser: buyerRow.id,
      idCliente: client.id,
      status: 'aprobado',
      transactionDate: monthsBack(2),
      lines: [line],
    });
    const day = 24 * 3_600_000;
    await db()
      .insert(importJobs)
      .values([
        { idCliente: client.id, tipo: 'productos', status: 'procesando' },
        {
          idCliente: client.id,
          tipo: 'usuarios',
          status: 'fallido',
          createdAt: new Date(Date.now() - 2 * day),
        },
        {
          idCliente: client.id,
          tipo: 'usuarios',
          status: 'fallido',
          createdAt: new Date(Date.now() - 10 * day),
        },
        { idCliente: client.id, tipo: 'productos', status: 'terminado' },
      ]);

    const res = await admin.get('/api/admin/resumen');
    expect(res.statusCode).toBe(200);
    const after = res.json();
    expect(after.clientes_activos - before.clientes_activos).toBe(1);
    expect(after.usuarios_activos - before.usuarios_activos).toBe(2);
    expect(after.pedidos_mes).toEqual({
      pendiente: before.pedidos_mes.pendiente + 2,
      espera: before.pedidos_mes.espera + 1,
      aprobado: before.pedidos_mes.aprobado + 1,
      cancelado: before.pedidos_mes.cancelado + 1,
      total: before.pedidos_mes.total + 5,
    });
    expect(after.importaciones).toEqual({
      en_proceso: before.importaciones.en_proceso + 1,
      fallidas_7_dias: before.importaciones.fallidas_7_dias + 1,
    });
  });
});
