import { formatCentavos } from '@portal/shared/domain/money';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importJobs, systemLogs, users } from '../../db/schema/index.ts';
import { csvRow } from '../../lib/csv.ts';
import { MSG } from '../../messages.ts';
import { CLIENT_NOT_FOUND, clientWithAdmin, lacks } from '../../test/client-admin.ts';
import { makeClient, makeUser, TEST_PASSWORD, uniq } from '../../test/factories.ts';
import { ApiClient, createTestApp, DB_KINDS, type TestApp } from '../../test/harness.ts';
import { startSmtp } from '../../test/smtp.ts';
import { multipartBody, waitForImport } from '../../test/uploads.ts';
import { USER_COLUMNS } from './user-import.ts';

type UserCells = Partial<Record<(typeof USER_COLUMNS)[number], string>>;

/** A users CSV (the template's columns) of the given rows. */
function usersCsv(...rows: UserCells[]): string {
  let out = csvRow(USER_COLUMNS);
  for (const values of rows) {
    const cells: Record<string, string> = {
      nombre: 'Persona Importada',
      rol: '1',
      direccion_entrega: 'Oficina central',
      active_week: '1',
      entrega_week: '2',
      ...values,
    };
    out += csvRow(USER_COLUMNS.map((c) => cells[c] ?? ''));
  }
  return out;
}

/**
 * A client administrator's CSV imports (decision 0122): its own client's users (with `usuarios`) and their
 * product assignments (with `asignaciones`), never products; budgets and limits only with `presupuestos`,
 * never above the client's cap; administrators' accounts never changed by a file; only its own client's
 * imports are read.
 */
describe.each(DB_KINDS)('client administrator: CSV imports (%s)', (kind) => {
  let t: TestApp;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let distributor: ApiClient;
  const db = () => t.database.db;

  beforeAll(async () => {
    smtp = await startSmtp();
    t = await createTestApp(kind, { env: { SMTP_URL: smtp.url } });
    const a = await makeUser(db(), { rol: 4, idCliente: null });
    distributor = await new ApiClient(t.app).loginOk(a.usuario, TEST_PASSWORD);
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  async function upload(api: ApiClient, tipo: string, data: string, idCliente?: number) {
    const fields: Record<string, number> = idCliente === undefined ? {} : { id_cliente: idCliente };
    const { payload, headers } = await multipartBody(fields, {
      file: { data, filename: 'personal.csv', type: 'text/csv' },
    });
    return api.post(`/api/load/${tipo}`, payload, { headers });
  }

  async function uploadAndWait(api: ApiClient, data: string, idCliente?: number) {
    const res = await upload(api, 'usuarios', data, idCliente);
    expect(res.statusCode, res.body).toBe(202);
    return waitForImport(db(), res.json().id_importacion);
  }

  it('with «usuarios» only: its own client, no products, no assignments, no budgets, no administrators', async () => {
    const { client, api } = await clientWithAdmin(t, { permisosCliente: ['usuarios'] });
    const other = await makeClient(db());
    const foreign = await makeUser(db(), { rol: 1, idCliente: other.id });
    const colleague = await makeUser(db(), { rol: 5, idCliente: client.id });
    const buyer = await makeUser(db(), { rol: 1, idCliente: client.id, presupuestoDefault: 300000 });
    const moved = await makeUser(db(), { rol: 1, idCliente: client.id, presupuestoDefault: 300000 });

    // Templates: its users' (its own client whether named or not), never another client's nor products.
    expect((await api.post('/api/template/usuarios', { id_cliente: client.id })).statusCode).toBe(200);
    expect((await api.post('/api/template/usuarios', { id_cliente: other.id })).json()).toMatchObject(
      CLIENT_NOT_FOUND,
    );
    expect((await api.post('/api/template/productos', { id_cliente: client.id })).statusCode).toBe(403);
    const assignments = await api.post('/api/template/asignaciones', { id_cliente: client.id });
    expect(assignments.statusCode).toBe(403);
    expect(assignments.json()).toMatchObject(lacks('asignaciones'));

    // Uploads: another client's id answers like a missing one, and nothing is recorded.
    const tag = uniq('rh');
    const file = usersCsv({ usuario: `${tag}-nuevo`, user_id: `${tag}-nuevo@example.test` });
    const elsewhere = await upload(api, 'usuarios', file, other.id);
    expect(elsewhere.statusCode).toBe(404);
    expect(elsewhere.json()).toMatchObject(CLIENT_NOT_FOUND);
    expect((await upload(api, 'productos', 'clave\n', client.id)).statusCode).toBe(403);
    expect(await db().select().from(importJobs).where(eq(importJobs.idCliente, other.id))).toEqual([]);

    const job = await uploadAndWait(
      api,
      usersCsv(
        { usuario: `${tag}-nuevo`, user_id: `${tag}-nuevo@example.test`, nombre: 'Nora Nueva' },
        { usuario: `${tag}-rico`, user_id: `${tag}-rico@example.test`, presupuesto_default: '9000' },
        { usuario: buyer.usuario, user_id: buyer.email, limite_de_compras: '9' },
        { usuario: colleague.usuario, user_id: colleague.email, rol: '1' },
        { usuario: foreign.usuario, user_id: foreign.email },
        { usuario: moved.usuario, user_id: moved.email, cp: '06000' },
      ),
    );
    expect(job).toMatchObject({ status: 'terminado', idCliente: client.id, totalRows: 6 });
    expect(job.errors).toEqual([
      {
        fila: 3,
        campo: 'presupuesto_default',
        motivo: MSG.impSinPermisoPresupuestos,
        valor: 'presupuesto_default',
      },
      {
        fila: 4,
        campo: 'limite_de_compras',
        motivo: MSG.impSinPermisoPresupuestos,
        valor: 'limite_de_compras',
      },
      { fila: 5, campo: 'usuario', motivo: MSG.impUsuarioAdministrador, valor: colleague.usuario },
      { fila: 6, campo: 'usuario', motivo: MSG.impUsuarioAjeno, valor: foreign.usuario },
    ]);
    // The new buyer has the client's defaults; the buyer's other cells changed, not its budget.
    const [nora] = await db()
      .select()
      .from(users)
      .where(eq(users.usuario, `${tag}-nuevo`));
    expect(nora).toMatchObject({
      idCliente: client.id,
      rol: 1,
      nombre: 'Nora Nueva',
      presupuestoDefault: client.presupuestoDefault,
      limiteDeCompras: client.limiteDeCompras,
      passwordHash: null,
    });
    expect(
      await db()
        .select()
        .from(users)
        .where(eq(users.usuario, `${tag}-rico`)),
    ).toEqual([]);
    const [unchanged] = await db().select().from(users).where(eq(users.id, buyer.id));
    expect(unchanged).toMatchObject({ presupuestoDefault: 300000, limiteDeCompras: buyer.limiteDeCompras });
    const [after] = await db().select().from(users).where(eq(users.id, moved.id));
    expect(after).toMatchObject({ cp: '06000', presupuestoDefault: 300000 });
    const [same] = await db().select().from(users).where(eq(users.id, colleague.id));
    expect(same!.rol).toBe(5);
    expect(await smtp.waitFor((m) => m.to.includes(`${tag}-nuevo@example.test`))).toBeTruthy();

    // The log names the client administrator as the author.
    const logged = await db()
      .select()
      .from(systemLogs)
      .where(inArray(systemLogs.eventType, ['importacion_iniciada', 'importacion_terminada']));
    expect(
      logged.filter((l) => (l.metadata as { id_importacion?: number }).id_importacion === job.id),
    ).toHaveLength(2);
  });

  it('reads only its own client’s imports of people and their products', async () => {
    const { client, api } = await clientWithAdmin(t, { permisosCliente: ['usuarios'] });
    const other = await clientWithAdmin(t, { permisosCliente: ['usuarios'] });
    const tag = uniq('rh');
    const mine = await uploadAndWait(
      api,
      usersCsv({ usuario: `${tag}-a`, user_id: `${tag}-a@example.test` }),
    );
    const theirs = await uploadAndWait(
      other.api,
      usersCsv({ usuario: `${tag}-b`, user_id: `${tag}-b@example.test` }),
    );
    // The distributor's product import of the same client stays the distributor's.
    const [productJob] = await db()
      .insert(importJobs)
      .values({
        idCliente: client.id,
        tipo: 'productos',
        status: 'terminado',
        fileName: 'p.csv',
        totalRows: 0,
      })
      .returning();

    const list = await api.get('/api/importaciones');
    expect(list.statusCode).toBe(200);
    expect(list.json().importaciones.map((i: { id: number }) => i.id)).toEqual([mine.id]);
    expect((await api.get(`/api/importaciones?id_cliente=${other.client.id}`)).json()).toMatchObject(
      CLIENT_NOT_FOUND,
    );
    expect((await api.get(`/api/importaciones/${mine.id}`)).json()).toMatchObject({
      id: mine.id,
      tipo: 'usuarios',
    });
    for (const id of [theirs.id, productJob!.id]) {
      const res = await api.get(`/api/importaciones/${id}`);
      expect(res.statusCode).toBe(404);
      expect(res.json().msg).toBe(MSG.importacionInexistente);
      expect((await api.get(`/api/importaciones/${id}/errores.csv`)).statusCode).toBe(404);
    }
    expect((await api.get(`/api/importaciones/${mine.id}/errores.csv`)).statusCode).toBe(200);
    // The distributor still reads them all.
    const all = (await distributor.get(`/api/importaciones?id_cliente=${client.id}`)).json();
    expect(all.importaciones.map((i: { id: number }) => i.id)).toEqual([productJob!.id, mine.id]);
  });

  it('with «presupuestos»: budgets up to the cap; above it a file is refused, a lower one applies', async () => {
    const { client, api } = await clientWithAdmin(t, {
      permisosCliente: ['usuarios', 'presupuestos', 'asignaciones'],
      topePresupuesto: 1_000_000,
    });
    const small = await makeUser(db(), { rol: 1, idCliente: client.id, presupuestoDefault: 500_000 });
    const large = await makeUser(db(), { rol: 1, idCliente: client.id, presupuestoDefault: 3_000_000 });
    const tag = uniq('rh');
    const job = await uploadAndWait(
      api,
      usersCsv(
        {
          usuario: `${tag}-ok`,
          user_id: `${tag}-ok@example.test`,
          presupuesto_default: '8000',
          limite_de_compras: '6',
        },
        { usuario: `${tag}-alto`, user_id: `${tag}-alto@example.test`, presupuesto_default: '20000' },
        { usuario: small.usuario, user_id: small.email, presupuesto_default: '15000' },
        { usuario: large.usuario, user_id: large.email, presupuesto_default: '25000' },
      ),
      client.id,
    );
    const tope = MSG.impPresupuestoTope(formatCentavos(1_000_000));
    expect(job.errors).toEqual([
      { fila: 3, campo: 'presupuesto_default', motivo: tope, valor: formatCentavos(2_000_000) },
      { fila: 4, campo: 'presupuesto_default', motivo: tope, valor: formatCentavos(1_500_000) },
    ]);
    expect(job).toMatchObject({ okRows: 2, errorRows: 2 });
    const byName = async (usuario: string) =>
      (await db().select().from(users).where(eq(users.usuario, usuario)))[0];
    expect(await byName(`${tag}-ok`)).toMatchObject({ presupuestoDefault: 800_000, limiteDeCompras: 6 });
    expect(await byName(`${tag}-alto`)).toBeUndefined();
    expect(await byName(small.usuario)).toMatchObject({ presupuestoDefault: 500_000 });
    // Lowering a budget the distributor set above the cap never waits.
    expect(await byName(large.usuario)).toMatchObject({ presupuestoDefault: 2_500_000 });

    // Its assignments' template and upload are open with «asignaciones».
    expect((await api.post('/api/template/asignaciones', { id_cliente: client.id })).statusCode).toBe(200);
  });
});
