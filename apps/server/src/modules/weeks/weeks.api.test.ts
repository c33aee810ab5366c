import { addDays, businessDate } from '@portal/shared/domain/time';
import { MSG } from '@portal/shared/messages';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemLogs, weeks } from '../../db/schema/index.ts';
import { signedInAdmin } from '../../test/admin-fixtures.ts';
import { makeClient, makeUser, makeWeek, TEST_PASSWORD } from '../../test/factories.ts';
import { ApiClient, createTestApp, DB_KINDS, type TestApp } from '../../test/harness.ts';

describe.each(DB_KINDS)('administration: access weeks (%s)', (kind) => {
  let t: TestApp;
  let admin: ApiClient;
  let adminId: number;
  beforeAll(async () => {
    t = await createTestApp(kind);
    const a = await signedInAdmin(t.app, t.database.db);
    admin = a.api;
    adminId = a.user.id;
  });
  afterAll(async () => {
    await t?.close();
  });
  const db = () => t.database.db;

  async function logsOf(eventType: string, idSemana: number) {
    const rows = await db()
      .select()
      .from(systemLogs)
      .where(eq(systemLogs.eventType, eventType))
      .orderBy(systemLogs.id);
    return rows.filter((r) => (r.metadata as { id_semana?: number }).id_semana === idSemana);
  }

  it('creates a week; lists a client’s weeks newest first, 5 per page', async () => {
    const client = await makeClient(db());
    const res = await admin.post('/api/calendario_semanas', {
      inicio: '2026-03-02',
      fin: '2026-03-06',
      id_cliente: client.id,
      activo: 1,
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({
      status: 'ok',
      msg: MSG.creadoCorrectamente,
      semana: { id_cliente: client.id, inicio: '2026-03-02', fin: '2026-03-06', activo: true },
    });
    const id = res.json().semana.id;
    const [log] = await logsOf('semana_creada', id);
    expect(log).toMatchObject({ userId: adminId });
    expect(log!.metadata).toMatchObject({ id_semana: id, id_cliente: client.id, inicio: '2026-03-02' });

    for (let i = 1; i <= 6; i++) {
      const inicio = addDays('2026-03-02', 7 * i);
      const r = await admin.post('/api/calendario_semanas', {
        inicio,
        fin: addDays(inicio, 4),
        id_cliente: String(client.id),
        activo: i % 2 === 0 ? 'true' : '0',
      });
      expect(r.statusCode, r.body).toBe(201);
    }
    const page1 = (await admin.get(`/api/calendario_semanas?id_cliente=${client.id}`)).json();
    expect(page1).toMatchObject({ total: 7, page: 1, per_page: 5 });
    expect(page1.semanas.map((s: { inicio: string }) => s.inicio)).toEqual([
      '2026-04-13',
      '2026-04-06',
      '2026-03-30',
      '2026-03-23',
      '2026-03-16',
    ]);
    expect(page1.semanas[0].activo).toBe(true);
    expect(page1.semanas[1].activo).toBe(false);
    const page2 = (await admin.get(`/api/calendario_semanas?id_cliente=${client.id}&page=2`)).json();
    expect(page2.semanas.map((s: { inicio: string }) => s.inicio)).toEqual(['2026-03-09', '2026-03-02']);
    // Another client's weeks are not mixed in.
    const other = await makeClient(db());
    expect((await admin.get(`/api/calendario_semanas?id_cliente=${other.id}`)).json().total).toBe(0);

    const noClient = await admin.get('/api/calendario_semanas');
    expect(noClient.statusCode).toBe(400);
    expect(noClient.json().msg).toBe(MSG.debesSeleccionarCliente);
    const unknown = await admin.get('/api/calendario_semanas?id_cliente=99999999');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().msg).toBe(MSG.clienteNoEncontrado);
  });

  it('refuses invalid weeks with Spanish messages', async () => {
    const client = await makeClient(db());
    const cases: [Record<string, unknown>, number, string][] = [
      [{ fin: '2026-05-08', id_cliente: client.id }, 400, MSG.semanaFechasRequeridas],
      [{ inicio: '', fin: '2026-05-08', id_cliente: client.id }, 400, MSG.semanaFechasRequeridas],
      [{ inicio: '2026-05-04', id_cliente: client.id }, 400, MSG.semanaFechasRequeridas],
      [{ inicio: '04/05/2026', fin: '2026-05-08', id_cliente: client.id }, 400, MSG.semanaFechaInvalida],
      [{ inicio: '2026-02-30', fin: '2026-03-02', id_cliente: client.id }, 400, MSG.semanaFechaInvalida],
      [{ inicio: '2026-05-08', fin: '2026-05-04', id_cliente: client.id }, 400, MSG.semanaRango],
      [{ inicio: '2026-05-04', fin: '2026-05-08' }, 400, MSG.debesSeleccionarCliente],
      [{ inicio: '2026-05-04', fin: '2026-05-08', id_cliente: '' }, 400, MSG.debesSeleccionarCliente],
      [{ inicio: '2026-05-04', fin: '2026-05-08', id_cliente: 99999999 }, 404, MSG.clienteNoEncontrado],
      [
        { inicio: '2026-05-04', fin: '2026-05-08', id_cliente: client.id, activo: 'quizá' },
        400,
        MSG.semanaActivoRequerido,
      ],
    ];
    for (const [payload, status, msg] of cases) {
      const res = await admin.post('/api/calendario_semanas', payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(status);
      expect(res.json().msg, JSON.stringify(payload)).toBe(msg);
    }
    // A one-day week is fine.
    const oneDay = await admin.post('/api/calendario_semanas', {
      inicio: '2026-05-04',
      fin: '2026-05-04',
      id_cliente: client.id,
    });
    expect(oneDay.statusCode).toBe(201);
    expect(oneDay.json().semana.activo).toBe(true);
  });

  it('rejects a repeated week and one that overlaps another of the same client (active or not)', async () => {
    const client = await makeClient(db());
    const base = { inicio: '2026-06-08', fin: '2026-06-12', id_cliente: client.id, activo: 0 };
    expect((await admin.post('/api/calendario_semanas', base)).statusCode).toBe(201);
    const dup = await admin.post('/api/calendario_semanas', { ...base, activo: 1 });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().msg).toBe(MSG.semanaDuplicada);
    for (const [inicio, fin] of [
      ['2026-06-05', '2026-06-08'], // ends on its first day
      ['2026-06-12', '2026-06-16'], // starts on its last day
      ['2026-06-09', '2026-06-10'], // inside
      ['2026-06-01', '2026-06-30'], // around
    ]) {
      const res = await admin.post('/api/calendario_semanas', { inicio, fin, id_cliente: client.id });
      expect(res.statusCode, `${inicio}..${fin}`).toBe(409);
      expect(res.json().msg).toBe(MSG.semanaEmpalmada);
    }
    // Adjacent weeks and the same dates for another client are fine.
    expect(
      (
        await admin.post('/api/calendario_semanas', {
          inicio: '2026-06-13',
          fin: '2026-06-17',
          id_cliente: client.id,
        })
      ).statusCode,
    ).toBe(201);
    expect(
      (
        await admin.post('/api/calendario_semanas', {
          inicio: '2026-06-01',
          fin: '2026-06-07',
          id_cliente: client.id,
        })
      ).statusCode,
    ).toBe(201);
    const other = await makeClient(db());
    expect((await admin.post('/api/calendario_semanas', { ...base, id_cliente: other.id })).statusCode).toBe(
      201,
    );
    expect(await db().select().from(weeks).where(eq(weeks.idCliente, client.id))).toHaveLength(3);
  });

  it('two simultaneous creates that overlap (or repeat) cannot both pass', async () => {
    for (let round = 0; round < 4; round++) {
      const client = await makeClient(db());
      const [x, y] = await Promise.all([
        admin.post('/api/calendario_semanas', {
          inicio: '2026-07-06',
          fin: '2026-07-10',
          id_cliente: client.id,
        }),
        admin.post('/api/calendario_semanas', {
          inicio: round % 2 ? '2026-07-06' : '2026-07-08',
          fin: round % 2 ? '2026-07-10' : '2026-07-14',
          id_cliente: client.id,
        }),
      ]);
      expect([x!.statusCode, y!.statusCode].sort(), `${x!.body} ${y!.body}`).toEqual([201, 409]);
      const loser = x!.statusCode === 409 ? x! : y!;
      expect(loser.json().msg).toBe(round % 2 ? MSG.semanaDuplicada : MSG.semanaEmpalmada);
      expect(await db().select().from(weeks).where(eq(weeks.idCliente, client.id))).toHaveLength(1);
    }
  });

  it('toggling and deleting weeks changes when the client’s users may sign in', async () => {
    const client = await makeClient(db());
    const buyer = await makeUser(db(), { rol: 1, idCliente: client.id });
    const today = businessDate(new Date(), t.config.BUSINESS_TZ);
    const past = await makeWeek(db(), {
      idCliente: client.id,
      inicio: addDays(today, -30),
      fin: addDays(today, -26),
    });
    const created = await admin.post('/api/calendario_semanas', {
      inicio: addDays(today, -2),
      fin: addDays(today, 2),
      id_cliente: client.id,
      activo: 1,
    });
    const week = created.json().semana;
    expect((await new ApiClient(t.app).login(buyer.usuario, TEST_PASSWORD)).statusCode).toBe(200);

    const off = await admin.put(`/api/calendario_semanas/${week.id}`, { activo: 0 });
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json()).toMatchObject({ status: 'ok', msg: MSG.actualizadoCorrectamente, total: 2, page: 1 });
    expect(off.json().semanas.find((s: { id: number }) => s.id === week.id).activo).toBe(false);
    const refused = await new ApiClient(t.app).login(buyer.usuario, TEST_PASSWORD);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().msg).toBe(MSG.fueraDeSemana);
    const [log] = await logsOf('semana_actualizada', week.id);
    expect(log!.metadata).toMatchObject({ id_semana: week.id, activo_antes: true, activo: false });

    const on = await admin.put(`/api/calendario_semanas/${week.id}`, { activo: true });
    expect(on.json().semanas.find((s: { id: number }) => s.id === week.id).activo).toBe(true);
    expect((await new ApiClient(t.app).login(buyer.usuario, TEST_PASSWORD)).statusCode).toBe(200);

    const bad = await admin.put(`/api/calendario_semanas/${week.id}`, {});
    expect(bad.statusCode).toBe(400);
    expect(bad.json().msg).toBe(MSG.semanaActivoRequerido);
    expect((await admin.put('/api/calendario_semanas/99999999', { activo: 1 })).statusCode).toBe(404);

    const del = await admin.post(`/api/calendario_semanas/destroy/${week.id}`);
    expect(del.statusCode, del.body).toBe(200);
    expect(del.json()).toMatchObject({ status: 'ok', msg: MSG.eliminadoCorrectamente, total: 1 });
    expect(del.json().semanas.map((s: { id: number }) => s.id)).toEqual([past.id]);
    // Only a past week left: outside every week.
    expect((await new ApiClient(t.app).login(buyer.usuario, TEST_PASSWORD)).statusCode).toBe(403);
    await admin.post(`/api/calendario_semanas/destroy/${past.id}`);
    // No weeks at all: always allowed.
    expect((await new ApiClient(t.app).login(buyer.usuario, TEST_PASSWORD)).statusCode).toBe(200);
    const again = await admin.post(`/api/calendario_semanas/destroy/${week.id}`);
    expect(again.statusCode).toBe(404);
    expect(again.json().msg).toBe(MSG.semanaNoEncontrada);
    const [gone] = await logsOf('semana_eliminada', week.id);
    expect(gone!.metadata).toMatchObject({ id_cliente: client.id, inicio: week.inicio, fin: week.fin });
  });

  it('only administrators: rol 1, 2, 3 get 403 and anonymous 401', async () => {
    const client = await makeClient(db());
    const week = await makeWeek(db(), { idCliente: client.id, inicio: '2026-09-07', fin: '2026-09-11' });
    const payload = { inicio: '2026-09-14', fin: '2026-09-18', id_cliente: client.id };
    const clients = [];
    for (const rol of [1, 2, 3]) {
      const u = await makeUser(db(), { rol, idCliente: client.id });
      // A rol-1 user must be inside an active week to sign in.
      await db().update(weeks).set({ inicio: '2000-01-01', fin: '2100-01-01' }).where(eq(weeks.id, week.id));
      clients.push(await new ApiClient(t.app).loginOk(u.usuario, TEST_PASSWORD));
    }
    clients.push(new ApiClient(t.app));
    for (const [i, api] of clients.entries()) {
      const expected = i < 3 ? 403 : 401;
      expect((await api.get(`/api/calendario_semanas?id_cliente=${client.id}`)).statusCode).toBe(expected);
      expect((await api.post('/api/calendario_semanas', payload)).statusCode).toBe(expected);
      expect((await api.put(`/api/calendario_semanas/${week.id}`, { activo: 0 })).statusCode).toBe(expected);
      expect((await api.post(`/api/calendario_semanas/destroy/${week.id}`)).statusCode).toBe(expected);
    }
    expect(await db().select().from(weeks).where(eq(weeks.idCliente, client.id))).toHaveLength(1);
  });
});
