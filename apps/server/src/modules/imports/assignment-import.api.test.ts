import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clients, systemLogs, userProducts } from '../../db/schema/index.ts';
import { MSG } from '../../messages.ts';
import { signedInAdmin } from '../../test/admin-fixtures.ts';
import { assign, makeCategory, makeClient, makeProduct, makeUser, uniq } from '../../test/factories.ts';
import { type ApiClient, createTestApp, DB_KINDS, type TestApp } from '../../test/harness.ts';
import { multipartBody, waitForImport } from '../../test/uploads.ts';

/** The `asignaciones` import kind (decision 0061): usuario, clave_interna, asignado, cantidad_limite. */
describe.each(DB_KINDS)('administration: assignment imports (%s)', (kind) => {
  let t: TestApp;
  let admin: ApiClient;
  beforeAll(async () => {
    t = await createTestApp(kind);
    admin = (await signedInAdmin(t.app, t.database.db)).api;
  });
  afterAll(async () => {
    await t?.close();
  });
  const db = () => t.database.db;

  async function upload(idCliente: number, data: string) {
    const { payload, headers } = await multipartBody(
      { id_cliente: idCliente },
      { file: { data, filename: 'asignaciones.csv', type: 'text/csv' } },
    );
    return admin.post('/api/load/asignaciones', payload, { headers });
  }
  async function uploadAndWait(idCliente: number, data: string) {
    const res = await upload(idCliente, data);
    expect(res.statusCode, res.body).toBe(202);
    return waitForImport(db(), res.json().id_importacion);
  }

  async function world() {
    const client = await makeClient(db());
    const cat = await makeCategory(db(), client.id);
    const p1 = await makeProduct(db(), {
      idCliente: client.id,
      idCategoria: cat.id,
      precio: 100,
      claveInterna: uniq('PAP'),
    });
    const p2 = await makeProduct(db(), {
      idCliente: client.id,
      idCategoria: cat.id,
      precio: 100,
      claveInterna: uniq('LIM'),
    });
    const ana = await makeUser(db(), { rol: 1, idCliente: client.id, usuario: uniq('Ana') });
    const beto = await makeUser(db(), { rol: 1, idCliente: client.id, usuario: uniq('beto') });
    const approver = await makeUser(db(), { rol: 2, idCliente: client.id });
    const other = await makeClient(db());
    const otherCat = await makeCategory(db(), other.id);
    const foreign = await makeProduct(db(), {
      idCliente: other.id,
      idCategoria: otherCat.id,
      precio: 100,
      claveInterna: uniq('EXT'),
    });
    const foreignBuyer = await makeUser(db(), { rol: 1, idCliente: other.id });
    return { client, p1, p2, ana, beto, approver, foreign, foreignBuyer };
  }

  const rowsOf = async (userId: number) =>
    Object.fromEntries(
      (await db().select().from(userProducts).where(eq(userProducts.userId, userId))).map((r) => [
        r.productId,
        [r.asignado, r.cantidadLimite],
      ]),
    );

  it('the template: BOM, the four columns and an example with one of the client’s buyers and products', async () => {
    const w = await world();
    const res = await admin.post('/api/template/asignaciones', { id_cliente: w.client.id });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toContain('plantilla_asignaciones.csv');
    expect(res.body.startsWith('\uFEFF')).toBe(true);
    const [head, example] = res.body.slice(1).split('\r\n');
    expect(head).toBe('Usuario,Clave interna,Asignado,Cantidad límite');
    const cells = example!.split(',');
    expect([w.ana.usuario, w.beto.usuario]).toContain(cells[0]);
    expect([w.p1.claveInterna, w.p2.claveInterna]).toContain(cells[1]);
    expect(cells.slice(2)).toEqual(['1', '5']);
  });

  it('a good file: written by usuario (any case) and clave_interna; empty limit keeps it; re-running changes nothing', async () => {
    const w = await world();
    await assign(db(), w.beto.id, w.p1.id, 9, false);
    const csv = [
      'usuario,clave_interna,asignado,cantidad_limite',
      `${w.ana.usuario.toUpperCase()},${w.p1.claveInterna},1,3`,
      `${w.ana.usuario},${w.p2.claveInterna},,`,
      `${w.beto.usuario},${w.p1.claveInterna},sí,`,
      `${w.beto.usuario},${w.p2.claveInterna},0,2`,
    ].join('\r\n');
    const job = await uploadAndWait(w.client.id, csv);
    expect(job).toMatchObject({ status: 'terminado', totalRows: 4, okRows: 4, errorRows: 0 });
    expect(await rowsOf(w.ana.id)).toEqual({ [w.p1.id]: [true, 3], [w.p2.id]: [true, 1] });
    expect(await rowsOf(w.beto.id)).toEqual({ [w.p1.id]: [true, 9], [w.p2.id]: [false, 2] });
    const [log] = (
      await db().select().from(systemLogs).where(eq(systemLogs.eventType, 'importacion_terminada'))
    ).filter((l) => (l.metadata as { id_importacion?: number }).id_importacion === job.id);
    expect(log!.metadata).toMatchObject({
      tipo: 'asignaciones',
      correctos: 4,
      creados: 3,
      actualizados: 1,
      sin_cambios: 0,
    });

    const again = await uploadAndWait(w.client.id, csv);
    expect(again).toMatchObject({ okRows: 4, errorRows: 0 });
    const [log2] = (
      await db().select().from(systemLogs).where(eq(systemLogs.eventType, 'importacion_terminada'))
    ).filter((l) => (l.metadata as { id_importacion?: number }).id_importacion === again.id);
    expect(log2!.metadata).toMatchObject({ creados: 0, actualizados: 0, sin_cambios: 4 });
  });

  it('an empty limit gives a new assignment the client’s limite_por_defecto and keeps a stored one', async () => {
    const w = await world();
    await db().update(clients).set({ limitePorDefecto: 6 }).where(eq(clients.id, w.client.id));
    await assign(db(), w.beto.id, w.p1.id, 2, false);
    const csv = [
      'usuario,clave_interna,asignado,cantidad_limite',
      `${w.ana.usuario},${w.p1.claveInterna},1,`,
      `${w.beto.usuario},${w.p1.claveInterna},1,`,
      `${w.beto.usuario},${w.p2.claveInterna},1,4`,
    ].join('\r\n');
    const job = await uploadAndWait(w.client.id, csv);
    expect(job).toMatchObject({ status: 'terminado', okRows: 3, errorRows: 0 });
    expect(await rowsOf(w.ana.id)).toEqual({ [w.p1.id]: [true, 6] });
    expect(await rowsOf(w.beto.id)).toEqual({ [w.p1.id]: [true, 2], [w.p2.id]: [true, 4] });
  });

  it('bad rows are reported with their spreadsheet row, column and reason; the good ones are written', async () => {
    const w = await world();
    const csv = [
      'clave_interna;usuario;cantidad_limite;asignado',
      `${w.p1.claveInterna};${w.ana.usuario};2;1`, // 2 good
      `${w.p1.claveInterna};${w.foreignBuyer.usuario};2;1`, // 3 another client's user
      `${w.p1.claveInterna};${w.approver.usuario};2;1`, // 4 not rol 1
      `${w.foreign.claveInterna};${w.ana.usuario};2;1`, // 5 another client's product
      `${w.p2.claveInterna};${w.ana.usuario};0;1`, // 6 limit 0
      `${w.p1.claveInterna};${w.beto.usuario};1.5;1`, // 7 limit not whole
      `${w.p2.claveInterna};${w.beto.usuario};2;tal vez`, // 8 yes/no
      `;${w.ana.usuario};2;1`, // 9 no clave
      `${w.p1.claveInterna};${w.ana.usuario.toUpperCase()};2;1`, // 10 repeated pair (row 2)
      `${w.p2.claveInterna};nadie;2;1`, // 11 missing user
    ].join('\n');
    const job = await uploadAndWait(w.client.id, csv);
    expect(job).toMatchObject({ status: 'terminado', totalRows: 10, okRows: 1, errorRows: 9 });
    const detail = (await admin.get(`/api/importaciones/${job.id}`)).json();
    const byRow = Object.fromEntries(
      detail.errores.map((e: { fila: number; campo: string; motivo: string }) => [
        e.fila,
        [e.campo, e.motivo],
      ]),
    );
    expect(byRow).toEqual({
      3: ['usuario', MSG.impUsuarioNoExiste],
      4: ['usuario', MSG.impUsuarioNoComprador],
      5: ['clave_interna', MSG.impProductoNoExiste],
      6: ['cantidad_limite', MSG.impCantidadLimite],
      7: ['cantidad_limite', MSG.impCantidadLimite],
      8: ['asignado', MSG.impSiNo],
      9: ['clave_interna', MSG.impObligatorio],
      10: ['clave_interna', MSG.impRepetido(2)],
      11: ['usuario', MSG.impUsuarioNoExiste],
    });
    expect(await rowsOf(w.ana.id)).toEqual({ [w.p1.id]: [true, 2] });
    expect(await rowsOf(w.approver.id)).toEqual({});
    expect(await rowsOf(w.foreignBuyer.id)).toEqual({});
    const report = await admin.get(`/api/importaciones/${job.id}/errores.csv`);
    expect(report.body).toContain(`3,usuario,${MSG.impUsuarioNoExiste}`);
  });

  it('a bad file is refused at upload: another template’s header, no rows, not a CSV', async () => {
    const w = await world();
    const wrong = await upload(w.client.id, 'usuario,clave_interna,asignado\r\nana,X,1\r\n');
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().msg).toBe(MSG.csvEncabezados(['cantidad_limite'], []));
    const empty = await upload(w.client.id, 'usuario,clave_interna,asignado,cantidad_limite\r\n');
    expect(empty.json().msg).toBe(MSG.csvSinRegistros);
    const binary = await upload(w.client.id, '%PDF-1.4 hola');
    expect(binary.json().msg).toBe(MSG.csvNoEsTexto);
    const ragged = await upload(w.client.id, 'usuario,clave_interna,asignado,cantidad_limite\r\na,b,1\r\n');
    expect(ragged.statusCode).toBe(400);
    expect(await rowsOf(w.ana.id)).toEqual({});
  });
});
