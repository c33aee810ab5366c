import { MSG } from '@portal/shared/messages';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importJobs, systemLogs } from '../../db/schema/index.ts';
import { audit } from '../../lib/audit.ts';
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
import { LOG_COUNT_ESTIMATE_FROM } from './logs.service.ts';

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
    for (const url of ['/api/logs', '/api/logs/tipos', '/api/admin/resumen', '/api/logs?desde=mal']) {
      expect((await anon.get(url)).statusCode, url).toBe(401);
      expect((await buyer.get(url)).statusCode, url).toBe(403);
    }
  });

  it('logs: newest first, 15 per page, with the username (null when there is no user)', async () => {
    const tipo = uniq('prueba_pagina');
    for (let i = 1; i <= 20; i++) {
      await audit(db(), {
        userId: i % 5 === 0 ? null : adminRow.id,
        eventType: tipo,
        description: `Evento ${i}`,
        metadata: { n: i, ip: '10.0.0.1' },
      });
    }
    const page1 = await admin.get(`/api/logs?event_type=${tipo}`);
    expect(page1.statusCode).toBe(200);
    expect(page1.json()).toMatchObject({ total: 20, page: 1, per_page: 15 });
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
    await audit(db(), { userId: adminRow.id, eventType: tipo, description: 'uno' });
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
      transactionDate: new Date(Date.now() - 62 * 24 * 3_600_000),
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
