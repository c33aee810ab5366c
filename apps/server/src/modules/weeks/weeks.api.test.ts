import { addDays, businessDate, formatIsoDate } from '@portal/shared/domain/time';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemLogs, weeks } from '../../db/schema/index.ts';
import { MSG } from '../../messages.ts';
import { signedInAdmin } from '../../test/admin-fixtures.ts';
import { makeClient, makeUser, makeWeek, TEST_PASSWORD } from '../../test/factories.ts';
import { ApiClient, createTestApp, DB_KINDS, type TestApp } from '../../test/harness.ts';

const PREVIEW = '/api/calendario_semanas/generar/vista_previa';
const SAVE = '/api/calendario_semanas/generar';

/** The first Monday of each month of 2027 (1 January 2027 is a Friday). */
const FIRST_MONDAYS_2027 = [
  '2027-01-04',
  '2027-02-01',
  '2027-03-01',
  '2027-04-05',
  '2027-05-03',
  '2027-06-07',
  '2027-07-05',
  '2027-08-02',
  '2027-09-06',
  '2027-10-04',
  '2027-11-01',
  '2027-12-06',
];

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
    // No active week lies ahead: the refusal says so (decision 0097).
    expect(refused.json().msg).toBe(MSG.fueraDeSemanaProxima(null));
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

  it('the user’s reference week (active_week) restricts nothing: only the client’s weeks do (decision 0064)', async () => {
    const client = await makeClient(db());
    const today = businessDate(new Date(), t.config.BUSINESS_TZ);
    await makeWeek(db(), { idCliente: client.id, inicio: addDays(today, -1), fin: addDays(today, 1) });
    for (const activeWeek of [1, 2, 3, 4]) {
      const buyer = await makeUser(db(), { rol: 1, idCliente: client.id, activeWeek });
      const api = await new ApiClient(t.app).loginOk(buyer.usuario, TEST_PASSWORD);
      expect((await api.get('/api/catalogo')).statusCode).toBe(200);
    }
    const outside = await makeClient(db());
    await makeWeek(db(), { idCliente: outside.id, inicio: addDays(today, 7), fin: addDays(today, 11) });
    const buyer = await makeUser(db(), { rol: 1, idCliente: outside.id, activeWeek: 1 });
    const refused = await new ApiClient(t.app).login(buyer.usuario, TEST_PASSWORD);
    expect(refused.statusCode).toBe(403);
    // The refusal at sign-in says when the next week starts (decision 0097).
    expect(refused.json().msg).toBe(MSG.fueraDeSemanaProxima(addDays(today, 7)));
    expect(refused.json().msg).toContain(`empieza el ${formatIsoDate(addDays(today, 7))}.`);
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

  // The generator (decision 0064) and the month view.
  const storedOf = async (idCliente: number) =>
    (await db().select().from(weeks).where(eq(weeks.idCliente, idCliente)).orderBy(weeks.inicio)).map(
      (w) => `${w.inicio}/${w.fin}/${w.activo}`,
    );
  const year = (idCliente: number, extra: Record<string, unknown> = {}) => ({
    id_cliente: idCliente,
    desde: '2027-01-01',
    hasta: '2027-12-31',
    modo: 'mensual',
    semana_del_mes: 1,
    ...extra,
  });

  it('previews a year of monthly weeks, marking the existing and overlapping ones; saving creates the rest once', async () => {
    const client = await makeClient(db());
    await makeWeek(db(), { idCliente: client.id, inicio: '2027-03-01', fin: '2027-03-05' });
    await makeWeek(db(), { idCliente: client.id, inicio: '2027-05-05', fin: '2027-05-07', activo: false });

    const preview = await admin.post(PREVIEW, year(client.id));
    expect(preview.statusCode, preview.body).toBe(200);
    const body = preview.json();
    expect(body.semanas.map((w: { inicio: string }) => w.inicio)).toEqual(FIRST_MONDAYS_2027);
    expect(body.semanas[0]).toEqual({ inicio: '2027-01-04', fin: '2027-01-08', estado: 'nueva' });
    expect(body.semanas[2]).toEqual({ inicio: '2027-03-01', fin: '2027-03-05', estado: 'existente' });
    expect(body.semanas[4]).toEqual({ inicio: '2027-05-03', fin: '2027-05-07', estado: 'empalmada' });
    expect(body).toMatchObject({ nuevas: 10, omitidas: 2 });
    // The preview writes nothing.
    expect(await storedOf(client.id)).toHaveLength(2);

    const saved = await admin.post(SAVE, year(client.id, { activo: 0 }));
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({
      status: 'ok',
      creadas: 10,
      omitidas: 2,
      msg: MSG.semanasGeneradas(10, 2),
    });
    expect(saved.json().semanas.map((w: { inicio: string }) => w.inicio)).toEqual(
      FIRST_MONDAYS_2027.filter((d) => d !== '2027-03-01' && d !== '2027-05-03'),
    );
    const stored = await storedOf(client.id);
    expect(stored).toHaveLength(12);
    expect(stored).toContain('2027-12-06/2027-12-10/false');
    expect(stored).toContain('2027-03-01/2027-03-05/true');
    const logs = await db()
      .select()
      .from(systemLogs)
      .where(and(eq(systemLogs.eventType, 'semanas_generadas'), eq(systemLogs.userId, adminId)));
    const log = logs.find((l) => (l.metadata as { id_cliente: number }).id_cliente === client.id);
    expect(log!.metadata).toMatchObject({ modo: 'mensual', semana_del_mes: '1', creadas: 10, omitidas: 2 });

    // Saving the same rule again creates nothing.
    const again = await admin.post(SAVE, year(client.id));
    expect(again.json()).toMatchObject({ creadas: 0, omitidas: 12, msg: MSG.semanasGeneradas(0, 12) });
    expect(await storedOf(client.id)).toHaveLength(12);

    // The month view: the client's weeks touching March 2027, with their state.
    const march = await admin.get(`/api/calendario_semanas/mes?id_cliente=${client.id}&mes=2027-03`);
    expect(march.statusCode, march.body).toBe(200);
    expect(march.json()).toMatchObject({
      mes: '2027-03',
      semanas: [{ inicio: '2027-03-01', fin: '2027-03-05', activo: true, id_cliente: client.id }],
    });
    const may = (await admin.get(`/api/calendario_semanas/mes?id_cliente=${client.id}&mes=2027-05`)).json();
    expect(may.semanas.map((w: { inicio: string; activo: boolean }) => [w.inicio, w.activo])).toEqual([
      ['2027-05-05', false],
    ]);
  });

  it('the preview warns when saving leaves today outside every active week, with the first day buyers can enter (decision 0097)', async () => {
    const today = businessDate(new Date(), t.config.BUSINESS_TZ);
    const monday = addDays(today, -((new Date(`${today}T00:00:00Z`).getUTCDay() + 6) % 7));
    const rule = (idCliente: number, desde: string, extra: Record<string, unknown> = {}) => ({
      id_cliente: idCliente,
      desde,
      hasta: addDays(desde, 60),
      modo: 'semanal',
      dias: 5,
      ...extra,
    });
    // A client without weeks: saving weeks that start later shuts its buyers out until the first one.
    const fresh = await makeClient(db());
    const later = (await admin.post(PREVIEW, rule(fresh.id, addDays(monday, 14)))).json();
    expect(later).toMatchObject({ hoy_sin_acceso: true, proximo_acceso: addDays(monday, 14) });
    expect(MSG.hoySinAcceso(later.proximo_acceso)).toBe(
      `Hoy ningún comprador de este cliente podrá entrar hasta el ${formatIsoDate(addDays(monday, 14))}`,
    );
    // Created inactive: no active week lies ahead at all.
    const inactive = (await admin.post(PREVIEW, rule(fresh.id, addDays(monday, 14), { activo: 0 }))).json();
    expect(inactive).toMatchObject({ hoy_sin_acceso: true, proximo_acceso: null });
    // A 7-day week from this Monday holds today: no warning.
    const covering = (await admin.post(PREVIEW, rule(fresh.id, monday, { dias: 7 }))).json();
    expect(covering).toMatchObject({ hoy_sin_acceso: false, proximo_acceso: null });

    // A client whose active week holds today keeps its buyers in: no warning.
    const open = await makeClient(db());
    await makeWeek(db(), { idCliente: open.id, inicio: addDays(today, -1), fin: addDays(today, 1) });
    expect((await admin.post(PREVIEW, rule(open.id, addDays(monday, 21)))).json()).toMatchObject({
      hoy_sin_acceso: false,
    });
    // A client whose only week today is inactive: the warning names its next active stored week when it
    // comes before the rule's first one.
    const shut = await makeClient(db());
    await makeWeek(db(), {
      idCliente: shut.id,
      inicio: addDays(today, -1),
      fin: addDays(today, 1),
      activo: false,
    });
    await makeWeek(db(), { idCliente: shut.id, inicio: addDays(today, 3), fin: addDays(today, 4) });
    expect((await admin.post(PREVIEW, rule(shut.id, addDays(monday, 28)))).json()).toMatchObject({
      hoy_sin_acceso: true,
      proximo_acceso: addDays(today, 3),
    });
  });

  it('the list says which page holds today: the week in course, else the next to start, else page 1', async () => {
    const weeksOf = async (offsets: number[]) => {
      const client = await makeClient(db());
      const today = businessDate(new Date(), t.config.BUSINESS_TZ);
      for (const d of offsets)
        await makeWeek(db(), { idCliente: client.id, inicio: addDays(today, d), fin: addDays(today, d + 1) });
      return (await admin.get(`/api/calendario_semanas?id_cliente=${client.id}`)).json();
    };
    // 8 later weeks first (newest first), then the one in course: the 9th row, page 2.
    const current = await weeksOf([-30, -20, -10, 0, 10, 20, 30, 40, 50, 60, 70, 80]);
    expect(current).toMatchObject({ page: 1, total: 12, pagina_hoy: 2 });
    // 6 later weeks and none in course: the next to start is the 6th row, page 2.
    expect(await weeksOf([-20, -10, 10, 20, 30, 40, 50, 60])).toMatchObject({ pagina_hoy: 2 });
    expect(await weeksOf([5, 15, 25])).toMatchObject({ pagina_hoy: 1 });
    expect(await weeksOf([-40, -30, -20, -10, -5, -3])).toMatchObject({ pagina_hoy: 1 });
    expect(await weeksOf([])).toMatchObject({ total: 0, pagina_hoy: 1 });
  });

  it('the other rules: every week, every N weeks, the last week of the month, a shorter week', async () => {
    const client = await makeClient(db());
    const inicios = async (extra: Record<string, unknown>) => {
      const res = await admin.post(PREVIEW, {
        id_cliente: client.id,
        desde: '2027-02-03',
        hasta: '2027-03-31',
        ...extra,
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().semanas.map((w: { inicio: string; fin: string }) => `${w.inicio}/${w.fin}`);
    };
    // 3 February 2027 is a Wednesday: the first whole week starts on Monday the 8th.
    expect(await inicios({ modo: 'semanal' })).toEqual([
      '2027-02-08/2027-02-12',
      '2027-02-15/2027-02-19',
      '2027-02-22/2027-02-26',
      '2027-03-01/2027-03-05',
      '2027-03-08/2027-03-12',
      '2027-03-15/2027-03-19',
      '2027-03-22/2027-03-26',
    ]);
    // The week of 29 March would end on 2 April, after the range: not made.
    expect(await inicios({ modo: 'cada_n', cada: '3' })).toEqual([
      '2027-02-08/2027-02-12',
      '2027-03-01/2027-03-05',
      '2027-03-22/2027-03-26',
    ]);
    expect(await inicios({ modo: 'mensual', semana_del_mes: 'ultima', dias: 3 })).toEqual([
      '2027-02-22/2027-02-24',
      '2027-03-29/2027-03-31',
    ]);
    expect(await inicios({ modo: 'mensual', semana_del_mes: '4', dias: 7 })).toEqual([
      '2027-02-22/2027-02-28',
      '2027-03-22/2027-03-28',
    ]);
  });

  it('refuses bad rules with a Spanish 400, an unknown client with 404, and a change without the XSRF token', async () => {
    const client = await makeClient(db());
    const cases: [Record<string, unknown>, string][] = [
      [{ hasta: '2029-01-01' }, MSG.semanaPeriodoLargo],
      [{ desde: '2027-06-01', hasta: '2027-05-31' }, MSG.semanaPeriodoRango],
      [{ desde: '2027-02-30' }, MSG.semanaFechaInvalida],
      [{ hasta: 'fin de año' }, MSG.semanaFechaInvalida],
      [{ desde: '' }, MSG.semanaPeriodoRequerido],
      [{ modo: 'diario' }, MSG.semanaModoInvalido],
      [{ semana_del_mes: 5 }, MSG.semanaDelMesInvalida],
      [{ semana_del_mes: undefined }, MSG.semanaDelMesInvalida],
      [{ modo: 'cada_n', cada: 1 }, MSG.semanaCadaInvalida],
      [{ modo: 'cada_n' }, MSG.semanaCadaInvalida],
      [{ dias: 8 }, MSG.semanaDiasInvalidos],
      [{ dias: 0 }, MSG.semanaDiasInvalidos],
      [{ id_cliente: 'x' }, MSG.debesSeleccionarCliente],
    ];
    for (const [extra, msg] of cases) {
      for (const url of [PREVIEW, SAVE]) {
        const res = await admin.post(url, year(client.id, extra));
        expect(res.statusCode, `${url} ${JSON.stringify(extra)}: ${res.body}`).toBe(400);
        expect(res.json().msg).toBe(msg);
      }
    }
    // Two years, the last day included, is allowed (104 weekly weeks).
    const longest = await admin.post(PREVIEW, year(client.id, { modo: 'semanal', hasta: '2028-12-31' }));
    expect(longest.statusCode, longest.body).toBe(200);
    expect(longest.json().nuevas).toBe(104);

    for (const url of [PREVIEW, SAVE]) {
      const missing = await admin.post(url, year(99_999_999));
      expect(missing.statusCode).toBe(404);
      expect(missing.json().msg).toBe(MSG.clienteNoEncontrado);
    }
    const noXsrf = await admin.post(SAVE, year(client.id), { xsrf: null });
    expect(noXsrf.statusCode).toBe(419);
    const month = await admin.get(`/api/calendario_semanas/mes?id_cliente=${client.id}&mes=2027-13`);
    expect(month.statusCode).toBe(400);
    expect(month.json().msg).toBe(MSG.mesInvalido);
    expect((await admin.get('/api/calendario_semanas/mes?id_cliente=99999999&mes=2027-01')).statusCode).toBe(
      404,
    );
    expect(await storedOf(client.id)).toHaveLength(0);
  });

  it('two identical saves at once create each week once', async () => {
    for (let round = 0; round < 3; round++) {
      const client = await makeClient(db());
      const [a, b] = await Promise.all([
        admin.post(SAVE, year(client.id)),
        admin.post(SAVE, year(client.id)),
      ]);
      expect(a!.statusCode, a!.body).toBe(200);
      expect(b!.statusCode, b!.body).toBe(200);
      expect([a!.json().creadas, b!.json().creadas].sort()).toEqual([0, 12]);
      expect([a!.json().omitidas, b!.json().omitidas].sort()).toEqual([0, 12]);
      expect(await storedOf(client.id)).toHaveLength(12);
    }
  });

  it('only administrators: rol 1, 2, 3 get 403 and anonymous 401; nothing is created', async () => {
    const client = await makeClient(db());
    const callers = [];
    for (const rol of [1, 2, 3]) {
      const u = await makeUser(db(), { rol, idCliente: client.id });
      callers.push(await new ApiClient(t.app).loginOk(u.usuario, TEST_PASSWORD));
    }
    callers.push(new ApiClient(t.app));
    for (const [i, api] of callers.entries()) {
      const expected = i < 3 ? 403 : 401;
      expect((await api.post(PREVIEW, year(client.id))).statusCode).toBe(expected);
      expect((await api.post(SAVE, year(client.id))).statusCode).toBe(expected);
      const month = await api.get(`/api/calendario_semanas/mes?id_cliente=${client.id}&mes=2027-01`);
      expect(month.statusCode).toBe(expected);
    }
    expect(await storedOf(client.id)).toHaveLength(0);
  });
});
