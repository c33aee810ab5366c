import { createHash } from 'node:crypto';
import { IMPORT_MAX_BYTES } from '@portal/shared/limits';
import { and, asc, count, eq, like, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  categories,
  emailOutbox,
  importJobs,
  passwordTokens,
  products,
  storedFileParts,
  storedFiles,
  systemLogs,
  userCategoryBudgets,
  users,
} from '../../db/schema/index.ts';
import { csvRow } from '../../lib/csv.ts';
import { parseCsv } from '../../lib/csv-read.ts';
import { FILE_PART_BYTES, readFile, sizeMessage, storeFile } from '../../lib/files.ts';
import { MSG } from '../../messages.ts';
import { makeCategory, makeClient, makeUser, TEST_PASSWORD, uniq } from '../../test/factories.ts';
import { fixture } from '../../test/fixture-files.ts';
import { ApiClient, createTestApp, DB_KINDS, type TestApp } from '../../test/harness.ts';
import { expectLinkLive, expectLinkRefused, linkIn, plantLinks } from '../../test/links.ts';
import { startSmtp } from '../../test/smtp.ts';
import { multipartBody, type UploadFile, waitForImport } from '../../test/uploads.ts';
import { spanishHeader } from './columns.ts';
import { runImport } from './imports.service.ts';
import { PRODUCT_COLUMNS } from './product-import.ts';
import { USER_COLUMNS } from './user-import.ts';

const HEADER = PRODUCT_COLUMNS.join(',');
const BOM = '\uFEFF';

/** A product CSV of `n` rows (comma separated); `edit` may change row i (0-based) before it is written. */
function productCsv(n: number, edit?: (i: number, row: string[]) => void): string {
  const cats = ['Papelería', 'Limpieza', 'Cafetería'];
  let out = `${HEADER}\r\n`;
  for (let i = 0; i < n; i++) {
    const row = [
      `P-${String(i + 1).padStart(5, '0')}`,
      `C-${i + 1}`,
      `Producto número ${i + 1}`,
      i % 7 === 0 ? 'Descripción con "comillas", comas; y acentos' : '',
      i % 2 ? 'Caja' : 'Pieza',
      `${(i % 500) + 1}.${String(i % 100).padStart(2, '0')}`,
      i % 3 ? '1' : '0',
      i % 11 ? '1' : '0',
      cats[i % 3]!,
    ];
    edit?.(i, row);
    out += csvRow(row);
  }
  return out;
}

describe.each(DB_KINDS)('administration: CSV imports (%s)', (kind) => {
  let t: TestApp;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let admin: ApiClient;
  let adminId: number;
  let buyer: ApiClient;
  const db = () => t.database.db;

  beforeAll(async () => {
    smtp = await startSmtp();
    t = await createTestApp(kind, { env: { SMTP_URL: smtp.url } });
    const a = await makeUser(db(), { rol: 4, idCliente: null });
    adminId = a.id;
    admin = await new ApiClient(t.app).loginOk(a.usuario, TEST_PASSWORD);
    const c = await makeClient(db());
    const u = await makeUser(db(), { rol: 1, idCliente: c.id });
    buyer = await new ApiClient(t.app).loginOk(u.usuario, TEST_PASSWORD);
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  async function upload(
    tipo: 'productos' | 'usuarios',
    idCliente: number | undefined,
    file?: { data: Buffer | string; filename?: string },
    api = admin,
  ) {
    const fields: Record<string, string | number> = {};
    if (idCliente !== undefined) fields.id_cliente = idCliente;
    const files: Record<string, UploadFile> = file
      ? { file: { data: file.data, filename: file.filename ?? 'carga.csv', type: 'text/csv' } }
      : {};
    const { payload, headers } = await multipartBody(fields, files);
    return api.post(`/api/load/${tipo}`, payload, { headers });
  }

  async function uploadAndWait(tipo: 'productos' | 'usuarios', idCliente: number, data: Buffer | string) {
    const res = await upload(tipo, idCliente, { data });
    expect(res.statusCode, res.body).toBe(202);
    return waitForImport(db(), res.json().id_importacion);
  }

  const storedCount = async () => (await db().select({ n: count() }).from(storedFiles))[0]!.n;
  /** Uploads still staged (lib/files.ts): none once an upload is answered. */
  const stagedCount = async () =>
    (await db().select({ n: count() }).from(storedFiles).where(like(storedFiles.id, 'subida-%')))[0]!.n;

  async function clientWithCategories(values: Parameters<typeof makeClient>[1] = {}) {
    const client = await makeClient(db(), values);
    await makeCategory(db(), client.id, 'Papelería');
    await makeCategory(db(), client.id, 'Limpieza');
    await makeCategory(db(), client.id, 'Cafetería');
    return client;
  }

  it('every route: anonymous 401, other roles 403', async () => {
    const anon = new ApiClient(t.app);
    await anon.csrf();
    for (const c of [anon, buyer]) {
      const expected = c === anon ? 401 : 403;
      expect((await c.post('/api/template/productos', { id_cliente: 1 })).statusCode).toBe(expected);
      expect((await c.post('/api/template/usuarios', { id_cliente: 1 })).statusCode).toBe(expected);
      expect((await upload('productos', 1, { data: `${HEADER}\r\n` }, c)).statusCode).toBe(expected);
      expect((await upload('usuarios', 1, { data: 'x' }, c)).statusCode).toBe(expected);
      expect((await c.get('/api/importaciones')).statusCode).toBe(expected);
      expect((await c.get('/api/importaciones/1')).statusCode).toBe(expected);
      expect((await c.get('/api/importaciones/1/errores.csv')).statusCode).toBe(expected);
    }
  });

  it('templates: UTF-8 with BOM, Spanish header row, the users’ rol legend and one example row; category mode adds a column per category', async () => {
    const client = await clientWithCategories({ limiteDeCompras: 4, presupuestoDefault: 250000 });
    const res = await admin.post('/api/template/productos', { id_cliente: client.id });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe('attachment; filename="plantilla.csv"');
    expect(res.body.startsWith(BOM)).toBe(true);
    const lines = res.body.slice(1).split('\r\n');
    expect(lines[0]).toBe(
      'Clave interna,Clave cliente,Nombre,Descripción,Unidad de medida,Precio,Impuesto,Activo,Categoría',
    );
    expect(lines[1]!.split(',')).toHaveLength(9);
    expect(lines[1]).toContain('Cafetería'); // the client's first category by name
    expect(lines[2]).toBe('');

    const users1 = await admin.post('/api/template/usuarios', { id_cliente: client.id });
    expect(users1.headers['content-disposition']).toBe(
      'attachment; filename="plantilla_carga_de_usuarios.csv"',
    );
    const [head, legend, example] = users1.body.slice(1).split('\r\n');
    expect(head).toBe(
      'Usuario,Correo,Nombre,Rol,Dirección de entrega,Calle,Colonia,Ciudad,Código postal,Estado,Área,Localidad,Región,Coordinación,Semana de referencia,Semana de entrega,Límite de compras,Presupuesto',
    );
    // The client has two levels: the legend names rol 3 too.
    expect(legend).toBe(`Leyenda: ${MSG.leyendaFila},,,"${MSG.leyendaRolSuper}"${','.repeat(14)}`);
    expect(example!.split(',')).toHaveLength(18);
    expect(example!.endsWith(',4,2500.00')).toBe(true);

    const byCategory = await clientWithCategories({ modoPresupuesto: 'categoria' });
    const users2 = await admin.post('/api/template/usuarios', { id_cliente: byCategory.id });
    const [head2, , example2] = users2.body.slice(1).split('\r\n');
    expect(head2).toBe(
      `${spanishHeader(USER_COLUMNS).join(',')},presupuesto:Cafetería,presupuesto:Limpieza,presupuesto:Papelería`,
    );
    expect(example2!.split(',')).toHaveLength(21);

    expect((await admin.post('/api/template/productos', { id_cliente: 99999999 })).statusCode).toBe(404);
    const missing = await admin.post('/api/template/productos', {});
    expect(missing.statusCode).toBe(400);
    expect(missing.json().msg).toBe(MSG.invClienteRequerido);
  });

  it('uploads that are not a usable CSV are refused at once with a clear message', async () => {
    const client = await clientWithCategories();
    const refuse = async (
      file: { data: Buffer | string; filename?: string } | undefined,
      msg: string,
      id = client.id,
    ) => {
      const res = await upload('productos', id, file);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().msg).toBe(msg);
    };
    await refuse(undefined, MSG.archivoNoSeleccionado);
    await refuse({ data: Buffer.alloc(0) }, MSG.archivoNoSeleccionado);
    await refuse({ data: fixture('products.xlsx'), filename: 'productos.xlsx' }, MSG.csvNoEsTexto);
    await refuse({ data: fixture('calendario.pdf'), filename: 'x.csv' }, MSG.csvNoEsTexto);
    await refuse({ data: fixture('products-utf16.csv'), filename: 'utf16.csv' }, MSG.csvNoEsTexto);
    await refuse({ data: fixture('products-latin1.csv') }, MSG.csvNoUtf8);
    await refuse({ data: '   \r\n' }, MSG.csvVacio);
    await refuse({ data: `${HEADER}\r\n` }, MSG.csvSinRegistros);
    await refuse(
      { data: 'clave,nombre,precio,categoria,extra\r\nA,B,1,C,D\r\n' },
      MSG.csvEncabezados(
        ['clave_interna', 'clave_cliente', 'descripcion', 'unidad_de_medida', 'impuesto', 'activo'],
        ['clave', 'extra'],
      ),
    );
    await refuse({ data: `${HEADER},nombre\r\n1,2,3,4,5,6,7,8,9,10\r\n` }, MSG.csvColumnaRepetida('nombre'));
    await refuse({ data: `${HEADER}\r\n"A-1,Lápiz\r\n` }, MSG.csvComillas(2));
    const noClient = await upload('productos', undefined, { data: productCsv(1) });
    expect(noClient.statusCode).toBe(400);
    expect(noClient.json().msg).toBe(MSG.invClienteRequerido);
    expect((await upload('productos', 99999999, { data: productCsv(1) })).statusCode).toBe(404);
    const json = await admin.post('/api/load/productos', { id_cliente: client.id });
    expect(json.statusCode).toBe(415);
    const [jobs] = await db()
      .select({ n: count() })
      .from(importJobs)
      .where(eq(importJobs.idCliente, client.id));
    expect(jobs!.n).toBe(0);
  });

  it('10,000 products with 3 bad rows: 9,997 written, the bad rows reported; re-running changes nothing', async () => {
    const client = await clientWithCategories();
    const bad = { sinNombre: 1234, precio: 5678, impuesto: 9876 };
    const csv = productCsv(10_000, (i, row) => {
      if (i === bad.sinNombre) row[2] = '';
      if (i === bad.precio) row[5] = 'abc';
      if (i === bad.impuesto) row[6] = 'quizá';
      if (i === 4321) row[8] = 'Equipo de protección'; // unknown category: created, not an error
    });
    const started = Date.now();
    const res = await upload('productos', client.id, { data: csv, filename: 'inventario.csv' });
    const answeredMs = Date.now() - started;
    expect(res.statusCode, res.body).toBe(202);
    expect(res.json()).toMatchObject({
      status: 'ok',
      msg: 'Procesando archivo',
      detalle: 'En breve se te informará cuando los registros hayan sido procesados',
    });
    const id = res.json().id_importacion as number;
    // The answer comes before the work is done: the job is still running.
    const running = await admin.get(`/api/importaciones/${id}`);
    expect(running.json()).toMatchObject({ status: 'procesando', total_rows: 10_000 });
    const job = await waitForImport(db(), id, 120_000);
    const totalMs = Date.now() - started;
    process.stderr.write(`[import 10k ${kind}] respuesta ${answeredMs} ms, terminado ${totalMs} ms\n`);
    expect(job).toMatchObject({ status: 'terminado', totalRows: 10_000, okRows: 9_997, errorRows: 3 });
    expect(job.errors).toEqual([
      { fila: bad.sinNombre + 2, campo: 'nombre', motivo: MSG.impObligatorio },
      { fila: bad.precio + 2, campo: 'precio', motivo: MSG.impPrecio, valor: 'abc' },
      { fila: bad.impuesto + 2, campo: 'impuesto', motivo: MSG.impSiNo, valor: 'quizá' },
    ]);

    const [n] = await db().select({ n: count() }).from(products).where(eq(products.idCliente, client.id));
    expect(n!.n).toBe(9_997);
    const [sample] = await db()
      .select()
      .from(products)
      .where(and(eq(products.idCliente, client.id), eq(products.claveInterna, 'P-00008')));
    expect(sample).toMatchObject({
      nombre: 'Producto número 8',
      descripcion: 'Descripción con "comillas", comas; y acentos',
      unidadDeMedida: 'Caja',
      precio: 80_7,
      impuesto: true,
      activo: true,
    });
    const cats = await db()
      .select({ nombre: categories.nombre })
      .from(categories)
      .where(eq(categories.idCliente, client.id))
      .orderBy(asc(categories.nombre));
    expect(cats.map((c) => c.nombre)).toEqual(['Cafetería', 'Equipo de protección', 'Limpieza', 'Papelería']);

    const detail = await admin.get(`/api/importaciones/${id}`);
    expect(detail.statusCode).toBe(200);
    expect(detail.json()).toMatchObject({
      id,
      id_cliente: client.id,
      tipo: 'productos',
      status: 'terminado',
      archivo: 'inventario.csv',
      total_rows: 10_000,
      ok_rows: 9_997,
      error_rows: 3,
    });
    expect(detail.json().errores).toHaveLength(3);
    const report = await admin.get(`/api/importaciones/${id}/errores.csv`);
    expect(report.statusCode).toBe(200);
    expect(report.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(report.body).toBe(
      `${BOM}fila,campo,motivo,valor\r\n${bad.sinNombre + 2},nombre,${MSG.impObligatorio},\r\n${bad.precio + 2},precio,${MSG.impPrecio},abc\r\n${bad.impuesto + 2},impuesto,${MSG.impSiNo},quizá\r\n`,
    );
    const [log] = await db()
      .select()
      .from(systemLogs)
      .where(
        and(
          eq(systemLogs.eventType, 'importacion_terminada'),
          sql`${systemLogs.metadata}->>'id_importacion' = ${String(id)}`,
        ),
      );
    expect(log?.userId).toBe(adminId);
    expect(log?.metadata).toMatchObject({
      creados: 9_997,
      actualizados: 0,
      con_error: 3,
      id_cliente: client.id,
    });
    process.stderr.write(
      `[import 10k ${kind}] trabajo ${(log?.metadata as { duracion_ms: number }).duracion_ms} ms\n`,
    );

    // The same file again: nothing is created or changed.
    const before = await db()
      .select({ id: products.id, updatedAt: products.updatedAt })
      .from(products)
      .where(eq(products.idCliente, client.id))
      .orderBy(asc(products.id));
    const again = await uploadAndWait('productos', client.id, csv);
    expect(again).toMatchObject({ status: 'terminado', okRows: 9_997, errorRows: 3 });
    const after = await db()
      .select({ id: products.id, updatedAt: products.updatedAt })
      .from(products)
      .where(eq(products.idCliente, client.id))
      .orderBy(asc(products.id));
    expect(after).toEqual(before);
    const [cats2] = await db()
      .select({ n: count() })
      .from(categories)
      .where(eq(categories.idCliente, client.id));
    expect(cats2!.n).toBe(4);
    const [log2] = await db()
      .select()
      .from(systemLogs)
      .where(
        sql`${systemLogs.metadata}->>'id_importacion' = ${String(again.id)} and ${systemLogs.eventType} = 'importacion_terminada'`,
      );
    expect(log2?.metadata).toMatchObject({ creados: 0, actualizados: 0, sin_cambios: 9_997 });

    const list = await admin.get(`/api/importaciones?id_cliente=${client.id}`);
    expect(list.json()).toMatchObject({ total: 2, page: 1, per_page: 10 });
    expect(list.json().importaciones.map((j: { id: number }) => j.id)).toEqual([again.id, id]);
    expect((await admin.get('/api/importaciones/99999999')).statusCode).toBe(404);
  }, 180_000);

  it('optional existencia and dias_entrega columns set the stock; blank keeps; bad numbers are refused (decision 0124)', async () => {
    const client = await clientWithCategories();
    const head = `${HEADER},existencia,dias_entrega\r\n`;
    const row = (clave: string, existencia: string, dias: string) =>
      csvRow([clave, '', `Producto ${clave}`, '', 'Pieza', '10.00', '1', '1', 'Papelería', existencia, dias]);
    const job = await uploadAndWait(
      'productos',
      client.id,
      head + row('E-1', '12', '5') + row('E-2', '', '') + row('E-3', '-1', '2') + row('E-4', '3', 'mucho'),
    );
    expect(job).toMatchObject({ status: 'terminado', okRows: 2, errorRows: 2 });
    expect(job.errors).toEqual([
      { fila: 4, campo: 'existencia', motivo: MSG.existenciaInvalida, valor: '-1' },
      { fila: 5, campo: 'dias_entrega', motivo: MSG.diasEntregaInvalidos, valor: 'mucho' },
    ]);
    const stock = async () =>
      (
        await db()
          .select({ clave: products.claveInterna, e: products.existencia, d: products.diasEntrega })
          .from(products)
          .where(eq(products.idCliente, client.id))
          .orderBy(asc(products.claveInterna))
      ).map((r) => [r.clave, r.e, r.d]);
    expect(await stock()).toEqual([
      ['E-1', 12, 5],
      ['E-2', null, null],
    ]);
    // Blank cells, and a file without the columns, keep the stock; a new value changes only it.
    const again = await uploadAndWait(
      'productos',
      client.id,
      head + row('E-1', '', '') + row('E-2', '7', ''),
    );
    expect(again).toMatchObject({ okRows: 2, errorRows: 0 });
    await uploadAndWait(
      'productos',
      client.id,
      `${HEADER}\r\n${csvRow(['E-1', '', 'Producto E-1', '', 'Pieza', '10.00', '1', '1', 'Papelería'])}`,
    );
    expect(await stock()).toEqual([
      ['E-1', 12, 5],
      ['E-2', 7, null],
    ]);
  });

  it('a semicolon-separated file with BOM, quoted cells and decimal commas is read; changed rows are updated', async () => {
    const client = await clientWithCategories();
    const file = fixture('products-semicolon-bom.csv');
    expect(file.subarray(0, 3)).toEqual(Buffer.from(BOM));
    const job = await uploadAndWait('productos', client.id, file);
    expect(job.errors).toEqual([]);
    expect(job).toMatchObject({ status: 'terminado', totalRows: 2, okRows: 2, errorRows: 0 });
    const rows = await db()
      .select()
      .from(products)
      .where(eq(products.idCliente, client.id))
      .orderBy(asc(products.claveInterna));
    expect(
      rows.map((r) => [
        r.claveInterna,
        r.nombre,
        r.descripcion,
        r.unidadDeMedida,
        r.precio,
        r.impuesto,
        r.activo,
      ]),
    ).toEqual([
      ['S-1', 'Pintura; blanca', 'Línea 1\r\nLínea 2', 'Litro', 18_990, true, true],
      ['S-2', 'Brocha', '', 'Pieza', 125_000, false, false],
    ]);
    const [cats] = await db()
      .select({ n: count() })
      .from(categories)
      .where(eq(categories.idCliente, client.id));
    expect(cats!.n).toBe(3); // names matched ignoring case

    const job2 = await uploadAndWait('productos', client.id, fixture('products-semicolon-changed-lf.csv'));
    expect(job2.okRows).toBe(1);
    const [s1] = await db()
      .select()
      .from(products)
      .where(and(eq(products.idCliente, client.id), eq(products.claveInterna, 'S-1')));
    expect(s1!.precio).toBe(19_990);
    expect(s1!.updatedAt.getTime()).toBeGreaterThan(rows[0]!.updatedAt.getTime());
  });

  it('rows after a cell with line breaks keep their spreadsheet numbers; a misaligned row refuses the file', async () => {
    const client = await clientWithCategories();
    const file = `${HEADER}\nM-1,,Uno,"Caja\nde 12\npiezas",,1,1,1,Limpieza\nM-2,,Dos,,,caro,1,1,Limpieza\n\nM-3,,,"Dice ""hola"", adiós",,3,1,1,Limpieza\n`;
    const job = await uploadAndWait('productos', client.id, file);
    expect(job).toMatchObject({ status: 'terminado', totalRows: 3, okRows: 1, errorRows: 2 });
    expect(job.errors).toEqual([
      { fila: 3, campo: 'precio', motivo: MSG.impPrecio, valor: 'caro' },
      { fila: 5, campo: 'nombre', motivo: MSG.impObligatorio },
    ]);
    const [m1] = await db()
      .select()
      .from(products)
      .where(and(eq(products.idCliente, client.id), eq(products.claveInterna, 'M-1')));
    expect(m1!.descripcion).toBe('Caja\nde 12\npiezas');

    const unquoted = `${HEADER}\r\nN-1,,Uno,,,5,1,1,Limpieza\r\nN-2,,Dos,,,1,250.00,1,1,Limpieza\r\n`;
    const res = await upload('productos', client.id, { data: unquoted });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({ code: 'CSV_ROW_WIDTH', msg: MSG.csvAnchoFila(3, 10, 9) });
    const [jobs] = await db()
      .select({ n: count() })
      .from(importJobs)
      .where(eq(importJobs.idCliente, client.id));
    expect(jobs!.n).toBe(1);
  });

  it('the error report is formula-safe and a repeated clave_interna in the file is reported', async () => {
    const client = await clientWithCategories();
    const file = `${HEADER}\nR-1,,Uno,,,=HYPERLINK("http://x"),1,1,Limpieza\nR-2,,Dos,,,5,1,1,Limpieza\nR-2,,Otra vez,,,6,1,1,Limpieza\n`;
    const job = await uploadAndWait('productos', client.id, file);
    expect(job).toMatchObject({ okRows: 1, errorRows: 2 });
    const report = await admin.get(`/api/importaciones/${job.id}/errores.csv`);
    expect(report.headers['content-disposition']).toBe(
      `attachment; filename="errores_importacion_${job.id}.csv"`,
    );
    const lines = report.body.slice(1).split('\r\n');
    expect(lines[1]).toBe(`2,precio,${MSG.impPrecio},"'=HYPERLINK(""http://x"")"`);
    expect(lines[2]).toBe(`4,clave_interna,${MSG.impRepetido(3)},R-2`);
  });

  it('a failed job keeps the batches it committed; re-running the file completes it without duplicates', async () => {
    const client = await clientWithCategories();
    const csv = productCsv(2_000);
    const fileId = await storeFile(db(), {
      data: Buffer.from(csv),
      kind: 'importacion',
      idCliente: client.id,
      allowed: ['csv'],
      maxBytes: 20 * 1024 * 1024,
    });
    const [row] = await db()
      .insert(importJobs)
      .values({ idCliente: client.id, tipo: 'productos', status: 'procesando', fileId, createdBy: adminId })
      .returning();
    // The server stops after two batches (the worker's signal is aborted), on the job's last attempt.
    let checks = 0;
    const signal = {
      get aborted() {
        checks++;
        return checks > 2;
      },
      reason: new Error('el servidor se detuvo'),
    } as unknown as AbortSignal;
    await expect(
      runImport(t.app, row!.id, { id: 'x', retryCount: 2, lastAttempt: true, signal }),
    ).rejects.toThrow('el servidor se detuvo');
    const [failed] = await db().select().from(importJobs).where(eq(importJobs.id, row!.id));
    expect(failed).toMatchObject({ status: 'fallido', okRows: 1_000 });
    expect(failed!.errors).toEqual([{ fila: 0, campo: 'archivo', motivo: MSG.impInterrumpida }]);
    const [kept] = await db().select({ n: count() }).from(products).where(eq(products.idCliente, client.id));
    expect(kept!.n).toBe(1_000);
    const [failLog] = await db()
      .select()
      .from(systemLogs)
      .where(
        sql`${systemLogs.metadata}->>'id_importacion' = ${String(row!.id)} and ${systemLogs.eventType} = 'importacion_fallida'`,
      );
    expect(failLog?.metadata).toMatchObject({ correctos: 1_000, tipo: 'productos' });

    const rerun = await uploadAndWait('productos', client.id, csv);
    expect(rerun).toMatchObject({ status: 'terminado', okRows: 2_000, errorRows: 0 });
    const [all] = await db().select({ n: count() }).from(products).where(eq(products.idCliente, client.id));
    expect(all!.n).toBe(2_000);
  });

  it('a file of several parts, cut by them inside an ñ and inside a quoted line break, is stored byte for byte and gives the rows it holds', async () => {
    const client = await clientWithCategories();
    const tag = uniq('PARTE').toUpperCase();
    const row = (i: number, descripcion: string) =>
      csvRow([
        `${tag}-${i}`,
        `C-${i}`,
        `Producto ${i}`,
        descripcion,
        'Pieza',
        '10.50',
        '1',
        '1',
        'Papelería',
      ]);
    // Long descriptions: a few rows a part.
    const filler = 'Descripción común, sin nada raro. '.repeat(12);
    let text = `${HEADER}\r\n`;
    let bytes = Buffer.byteLength(text);
    let n = 0;
    const add = (descripcion: string) => {
      const line = row(n++, descripcion);
      text += line;
      bytes += Buffer.byteLength(line);
    };
    /**
     * Plain rows up to the part boundary at `boundary` bytes, then one whose description holds `piece` with
     * the boundary `cut` bytes into it (padding the description before it).
     */
    const across = (boundary: number, piece: string, cut: number) => {
      while (bytes + 1_000 < boundary) add(filler);
      for (let pad = 0; pad < 1_200; pad++) {
        const descripcion = `${'x'.repeat(pad)}${piece}`;
        const line = row(n, descripcion);
        const at = bytes + Buffer.byteLength(line.slice(0, line.indexOf(piece)));
        if (at + cut === boundary) {
          add(descripcion);
          return descripcion;
        }
      }
      throw new Error('sin acomodo');
    };
    // The second byte of the ñ opens part 1; the LF of a quoted CRLF opens part 2.
    const withEnye = across(FILE_PART_BYTES, 'Señal de ñandú', 3);
    const withBreak = across(2 * FILE_PART_BYTES, 'línea uno\r\nlínea dos', Buffer.byteLength('línea uno\r'));
    while (bytes < 3 * FILE_PART_BYTES + 1_000) add(`Después del corte. ${filler}`);
    const csv = Buffer.from(text);
    expect(csv[FILE_PART_BYTES - 1]).toBe(0xc3); // ñ is C3 B1 in UTF-8
    expect(csv[FILE_PART_BYTES]).toBe(0xb1);
    expect(csv.subarray(2 * FILE_PART_BYTES - 1, 2 * FILE_PART_BYTES + 1).toString()).toBe('\r\n');

    const storedBefore = await storedCount();
    const res = await upload('productos', client.id, { data: csv, filename: 'partes.csv' });
    expect(res.statusCode, res.body).toBe(202);
    const job = await waitForImport(db(), res.json().id_importacion);
    expect(job).toMatchObject({ status: 'terminado', totalRows: n, okRows: n, errorRows: 0 });
    // Stored in four parts, every byte as sent, under the name of its content; nothing left staged.
    expect(job.fileId).toBe(`${createHash('sha256').update(csv).digest('hex')}.csv`);
    const parts = await db()
      .select({ part: storedFileParts.part })
      .from(storedFileParts)
      .where(eq(storedFileParts.fileId, job.fileId!));
    expect(parts.map((p) => p.part).sort()).toEqual([0, 1, 2, 3]);
    expect((await readFile(db(), job.fileId!))!.data.equals(csv)).toBe(true);
    expect(await storedCount()).toBe(storedBefore + 1);
    expect(await stagedCount()).toBe(0);
    // The rows the job wrote are the file's as a whole-file parse reads them, the ones cut by parts included.
    const written = await db()
      .select({ clave: products.claveInterna, descripcion: products.descripcion })
      .from(products)
      .where(eq(products.idCliente, client.id));
    // (A cell's value is trimmed when a row is validated, quoted or not.)
    const whole = parseCsv(text).records.map((r) => ({
      clave: r.cells[0]!,
      descripcion: r.cells[3]!.trim(),
    }));
    expect(whole).toHaveLength(n);
    const byClave = (rows: { clave: string; descripcion: string }[]) =>
      [...rows].sort((a, b) => a.clave.localeCompare(b.clave));
    expect(byClave(written)).toEqual(byClave(whole));
    const descriptions = written.map((p) => p.descripcion);
    expect(descriptions).toContain(withEnye);
    expect(descriptions.find((d) => d.startsWith('x') && d.includes('línea uno'))).toMatch(
      /línea uno\r?\nlínea dos$/,
    );
    expect(withBreak).toContain('\r\n');
  });

  it('a multi-part file refused after it arrived (a row out of line in its last part, a wrong header, over 20 MB, a body cut off) stores nothing', async () => {
    const client = await clientWithCategories();
    const storedBefore = await storedCount();
    const rows = productCsv(9_000);
    expect(Buffer.byteLength(rows)).toBeGreaterThan(2 * FILE_PART_BYTES);
    const misaligned = await upload('productos', client.id, { data: `${rows}A,B,C\r\n` });
    expect(misaligned.statusCode, misaligned.body).toBe(400);
    expect(misaligned.json().msg).toBe(MSG.csvAnchoFila(9_002, 3, 9));
    const header = await upload('productos', client.id, { data: rows.replace('clave_interna', 'clave') });
    expect(header.statusCode).toBe(400);
    expect(header.json().code).toBe('CSV_HEADER');
    // Over IMPORT_MAX_BYTES (20 MB), under the parser's 25 MB: the limit's own message.
    const line = `${'x,'.repeat(8)}Papelería\r\n`;
    const huge = `${HEADER}\r\n${line.repeat(Math.ceil((21 * 1024 * 1024) / Buffer.byteLength(line)))}`;
    const big = await upload('productos', client.id, { data: huge });
    expect(big.statusCode).toBe(400);
    expect(big.json()).toMatchObject({ code: 'FILE_SIZE', msg: sizeMessage(IMPORT_MAX_BYTES) });
    // A body cut off in the middle of its file (its parts already being written): the form's fault, a 400.
    const { payload, headers } = await multipartBody(
      { id_cliente: client.id },
      { file: { data: rows, filename: 'cortado.csv', type: 'text/csv' } },
    );
    const cut = await admin.post('/api/load/productos', payload.subarray(0, 2 * FILE_PART_BYTES), {
      headers,
    });
    expect(cut.statusCode).toBe(400);
    expect(cut.json().code).toBe('BAD_MULTIPART');
    expect(await storedCount()).toBe(storedBefore);
    expect(await stagedCount()).toBe(0);
  }, 120_000);

  it('users: new ones get the welcome link by e-mail; existing ones are updated; bad rows reported; re-run sends nothing', async () => {
    const client = await clientWithCategories({
      cantidadAutorizadores: 1,
      limiteDeCompras: 3,
      presupuestoDefault: 150000,
    });
    const other = await makeClient(db());
    const foreign = await makeUser(db(), { rol: 1, idCliente: other.id, usuario: uniq('ajeno') });
    const mine = await makeUser(db(), {
      rol: 1,
      idCliente: client.id,
      usuario: uniq('propio'),
      nombre: 'Nombre Anterior',
      presupuestoDefault: 90000,
      limiteDeCompras: 7,
    });
    const tag = uniq('imp');
    const row = (values: Partial<Record<(typeof USER_COLUMNS)[number], string>>) =>
      csvRow(
        USER_COLUMNS.map(
          (c) =>
            ({
              usuario: '',
              user_id: '',
              nombre: 'Persona',
              rol: '1',
              direccion_entrega: 'Oficina central',
              active_week: '1',
              entrega_week: '2',
              ...values,
            })[c as string] ?? '',
        ),
      );
    const file =
      csvRow(USER_COLUMNS) +
      row({ usuario: `${tag}-ana`, user_id: `${tag}-ana@example.test`, nombre: 'Ana Ávila', cp: '06000' }) +
      row({
        usuario: `${tag}-beto`,
        user_id: `${tag}-beto@example.test`,
        nombre: 'Beto Díaz',
        rol: 'Autorizador',
        limite_de_compras: '-1',
        presupuesto_default: '2,000.50',
      }) +
      row({ usuario: `${tag}-malo`, user_id: 'no-es-correo', active_week: '5' }) +
      row({ usuario: `${tag}-super`, user_id: `${tag}-super@example.test`, rol: '3' }) +
      row({ usuario: foreign.usuario.toUpperCase(), user_id: `${tag}-x@example.test` }) +
      row({ usuario: mine.usuario, user_id: mine.email, nombre: 'Nombre Nuevo', colonia: 'Roma' }) +
      row({ usuario: `${tag}-ANA`, user_id: `${tag}-ana2@example.test` });

    const job = await uploadAndWait('usuarios', client.id, file);
    expect(job).toMatchObject({ status: 'terminado', totalRows: 7, okRows: 3, errorRows: 4 });
    expect(job.errors).toEqual([
      { fila: 4, campo: 'user_id', motivo: MSG.impCorreo, valor: 'no-es-correo' },
      { fila: 4, campo: 'active_week', motivo: MSG.impSemana, valor: '5' },
      { fila: 5, campo: 'rol', motivo: MSG.impRolSuper, valor: '3' },
      { fila: 6, campo: 'usuario', motivo: MSG.impUsuarioAjeno, valor: foreign.usuario.toUpperCase() },
      { fila: 8, campo: 'usuario', motivo: MSG.impRepetido(2), valor: `${tag}-ANA` },
    ]);

    const created = await db()
      .select()
      .from(users)
      .where(sql`${users.usuario} like ${`${tag}-%`}`)
      .orderBy(asc(users.usuario));
    expect(
      created.map((u) => [
        u.usuario,
        u.nombre,
        u.rol,
        u.limiteDeCompras,
        u.presupuestoDefault,
        u.passwordHash,
      ]),
    ).toEqual([
      [`${tag}-ana`, 'Ana Ávila', 1, 3, 150000, null],
      [`${tag}-beto`, 'Beto Díaz', 2, -1, 200050, null],
    ]);
    expect(created[0]).toMatchObject({
      idCliente: client.id,
      cp: '06000',
      activeWeek: 1,
      entregaWeek: 2,
      activo: true,
    });
    const [updated] = await db().select().from(users).where(eq(users.id, mine.id));
    expect(updated).toMatchObject({
      nombre: 'Nombre Nuevo',
      colonia: 'Roma',
      presupuestoDefault: 90000,
      limiteDeCompras: 7,
    });
    const [untouched] = await db().select().from(users).where(eq(users.id, foreign.id));
    expect(untouched!.idCliente).toBe(other.id);

    // The welcome e-mail arrives at the SMTP server with a single-use link stored only as its hash.
    await t.app.mailer.flush();
    const mail = await smtp.waitFor((m) => m.to.includes(`${tag}-ana@example.test`));
    expect(mail.subject).toBe('Bienvenido al Portal de Compras');
    const token = /http:\/\/portal\.test\/restablecer\/([\w-]+)/.exec(mail.text)?.[1];
    expect(token).toBeTruthy();
    const [stored] = await db()
      .select()
      .from(passwordTokens)
      .where(eq(passwordTokens.tokenHash, createHash('sha256').update(token!).digest('hex')));
    expect(stored).toMatchObject({ userId: created[0]!.id, purpose: 'bienvenida', usedAt: null });
    const ttlHours = (stored!.expiresAt.getTime() - Date.now()) / 3_600_000;
    expect(ttlHours).toBeGreaterThan(71);
    expect(ttlHours).toBeLessThanOrEqual(72);
    await smtp.waitFor((m) => m.to.includes(`${tag}-beto@example.test`));
    const check = await new ApiClient(t.app).post('/api/restablecer/verificar', { token });
    expect(check.json()).toMatchObject({ usuario: `${tag}-ana`, proposito: 'bienvenida' });

    // Re-running the same file creates, changes and sends nothing.
    const [outboxBefore] = await db().select({ n: count() }).from(emailOutbox);
    const snapshot = await db()
      .select({ id: users.id, updatedAt: users.updatedAt })
      .from(users)
      .where(eq(users.idCliente, client.id))
      .orderBy(asc(users.id));
    const again = await uploadAndWait('usuarios', client.id, file);
    expect(again).toMatchObject({ status: 'terminado', okRows: 3, errorRows: 4 });
    const [outboxAfter] = await db().select({ n: count() }).from(emailOutbox);
    expect(outboxAfter!.n).toBe(outboxBefore!.n);
    const snapshot2 = await db()
      .select({ id: users.id, updatedAt: users.updatedAt })
      .from(users)
      .where(eq(users.idCliente, client.id))
      .orderBy(asc(users.id));
    expect(snapshot2).toEqual(snapshot);
  });

  it('a template filled in as downloaded (Spanish columns, the legend row kept) and the spec’s own column names both import', async () => {
    const client = await makeClient(db(), { cantidadAutorizadores: 1 });
    const tag = uniq('col');
    const template = await admin.post('/api/template/usuarios', { id_cliente: client.id });
    const [head, legend] = template.body.slice(1).split('\r\n');
    expect(legend).toContain(MSG.leyendaRol);
    const row = (usuario: string) =>
      csvRow(
        USER_COLUMNS.map(
          (c) =>
            ({
              usuario,
              user_id: `${usuario}@example.test`,
              nombre: 'Persona',
              rol: '1',
              direccion_entrega: 'Planta',
              active_week: '1',
              entrega_week: '2',
            })[c as string] ?? '',
        ),
      );
    // As downloaded: Spanish header, the legend left in place, then the rows.
    const spanish = `${head}\r\n${legend}\r\n${row(`${tag}-a`)}${row(`${tag}-b`)}`;
    expect(await uploadAndWait('usuarios', client.id, spanish)).toMatchObject({
      status: 'terminado',
      totalRows: 2,
      okRows: 2,
      errorRows: 0,
    });
    // The specification's names, in another order of case and without accents where it has them.
    const spec = csvRow(USER_COLUMNS.map((c) => c.toUpperCase())) + row(`${tag}-c`);
    expect(await uploadAndWait('usuarios', client.id, spec)).toMatchObject({ okRows: 1, errorRows: 0 });
    // Spanish names written without accents are the same columns.
    const plain = csvRow(
      spanishHeader(USER_COLUMNS).map((h) => h.normalize('NFD').replace(/[\u0300-\u036f]/g, '')),
    );
    expect(await uploadAndWait('usuarios', client.id, plain + row(`${tag}-d`))).toMatchObject({ okRows: 1 });
    const made = await db()
      .select({ usuario: users.usuario, entrega: users.entregaWeek })
      .from(users)
      .where(eq(users.idCliente, client.id));
    expect(made.map((u) => u.usuario).sort()).toEqual([`${tag}-a`, `${tag}-b`, `${tag}-c`, `${tag}-d`]);
    expect(made.every((u) => u.entrega === 2)).toBe(true);
    // A file holding only the legend has no data rows.
    const onlyLegend = await upload('usuarios', client.id, { data: `${head}\r\n${legend}\r\n` });
    expect(onlyLegend.statusCode).toBe(400);
    expect(onlyLegend.json().msg).toBe(MSG.csvSinRegistros);
  });

  it('users: a changed e-mail retires the pending links; a user without a password gets a new welcome link there', async () => {
    const client = await makeClient(db(), { cantidadAutorizadores: 1 });
    const tag = uniq('enl');
    const line = (usuario: string, correo: string) =>
      csvRow(
        USER_COLUMNS.map(
          (c) =>
            ({
              usuario,
              user_id: correo,
              nombre: 'Persona',
              rol: '1',
              direccion_entrega: 'Planta',
              active_week: '1',
              entrega_week: '1',
            })[c as string] ?? '',
        ),
      );
    // A new account whose e-mail was mistyped, and an account with a password whose address changes.
    const withPassword = await makeUser(db(), { rol: 1, idCliente: client.id, usuario: `${tag}-pw` });
    const unchanged = await makeUser(db(), { rol: 1, idCliente: client.id, usuario: `${tag}-igual` });
    const first =
      csvRow(USER_COLUMNS) +
      line(`${tag}-nuevo`, `${tag}-nuveo@example.test`) +
      line(unchanged.usuario, unchanged.email);
    expect(await uploadAndWait('usuarios', client.id, first)).toMatchObject({ okRows: 2, errorRows: 0 });
    await t.app.mailer.flush();
    const stolen = linkIn((await smtp.waitFor((m) => m.to.includes(`${tag}-nuveo@example.test`))).text);
    const planted = await plantLinks(db(), withPassword.id);
    const kept = await plantLinks(db(), unchanged.id);
    await expectLinkLive(t.app, stolen, 'antes de corregir');

    const second =
      csvRow(USER_COLUMNS) +
      line(`${tag}-nuevo`, `${tag}-nuevo@example.test`) +
      line(withPassword.usuario, `${tag}-pw-nuevo@example.test`) +
      line(unchanged.usuario, unchanged.email);
    expect(await uploadAndWait('usuarios', client.id, second)).toMatchObject({ okRows: 3, errorRows: 0 });
    await expectLinkRefused(t.app, stolen, 'bienvenida a la dirección equivocada');
    await expectLinkRefused(t.app, planted.bienvenida, 'bienvenida (correo cambiado)');
    await expectLinkRefused(t.app, planted.recuperacion, 'recuperación (correo cambiado)');
    await expectLinkLive(t.app, kept.bienvenida, 'fila sin cambio de correo');
    await expectLinkLive(t.app, kept.recuperacion, 'fila sin cambio de correo');

    // The corrected address gets a new welcome link that works; the account with a password gets none.
    await t.app.mailer.flush();
    const token = linkIn((await smtp.waitFor((m) => m.to.includes(`${tag}-nuevo@example.test`))).text);
    expect(token).not.toBe(stolen);
    await expectLinkLive(t.app, token, 'bienvenida nueva');
    expect(
      await db()
        .select()
        .from(emailOutbox)
        .where(eq(emailOutbox.to, `${tag}-pw-nuevo@example.test`)),
    ).toEqual([]);
    // Re-running the corrected file sends nothing and retires nothing.
    const [outboxBefore] = await db().select({ n: count() }).from(emailOutbox);
    expect(await uploadAndWait('usuarios', client.id, second)).toMatchObject({ okRows: 3 });
    const [outboxAfter] = await db().select({ n: count() }).from(emailOutbox);
    expect(outboxAfter!.n).toBe(outboxBefore!.n);
    await expectLinkLive(t.app, token, 'bienvenida nueva tras repetir');
  });

  it('users in category mode: one budget column per category; 0 removes a budget, empty keeps it', async () => {
    const client = await clientWithCategories({ modoPresupuesto: 'categoria', cantidadAutorizadores: 2 });
    const cats = await db().select().from(categories).where(eq(categories.idCliente, client.id));
    const idOf = (nombre: string) => cats.find((c) => c.nombre === nombre)!.id;
    const tag = uniq('cat');
    const header = [...USER_COLUMNS, 'presupuesto:Papelería', 'Presupuesto:limpieza'];
    const line = (usuario: string, papeleria: string, limpieza: string, rol = '1') =>
      csvRow([
        usuario,
        `${usuario}@example.test`,
        'Persona',
        rol,
        'Planta',
        ...Array(9).fill(''),
        '2',
        '3',
        '',
        '',
        papeleria,
        limpieza,
      ]);
    const first = csvRow(header) + line(`${tag}-a`, '500', '250.50') + line(`${tag}-b`, 'mucho', '', '3');
    const job = await uploadAndWait('usuarios', client.id, first);
    expect(job).toMatchObject({ okRows: 1, errorRows: 1 });
    expect(job.errors).toEqual([
      { fila: 3, campo: 'presupuesto:papelería', motivo: MSG.impPresupuestoCategoria, valor: 'mucho' },
    ]);
    const [a] = await db()
      .select()
      .from(users)
      .where(eq(users.usuario, `${tag}-a`));
    expect(a!.presupuestoDefault).toBe(0);
    const budgets = async () =>
      (
        await db()
          .select({ c: userCategoryBudgets.categoryId, p: userCategoryBudgets.presupuesto })
          .from(userCategoryBudgets)
          .where(eq(userCategoryBudgets.userId, a!.id))
      ).sort((x, y) => x.c - y.c);
    expect(await budgets()).toEqual(
      [
        { c: idOf('Papelería'), p: 50_000 },
        { c: idOf('Limpieza'), p: 25_050 },
      ].sort((x, y) => x.c - y.c),
    );
    const second = csvRow(header) + line(`${tag}-a`, '0', '') + line(`${tag}-b`, '100', '', '3');
    const job2 = await uploadAndWait('usuarios', client.id, second);
    expect(job2).toMatchObject({ okRows: 2, errorRows: 0 });
    expect(await budgets()).toEqual([{ c: idOf('Limpieza'), p: 25_050 }]);

    const unknownColumn = csvRow([...USER_COLUMNS, 'presupuesto:Ferretería']) + line(`${tag}-c`, '', '');
    const refused = await upload('usuarios', client.id, { data: unknownColumn });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().msg).toBe(MSG.csvEncabezados([], ['presupuesto:Ferretería']));
  });
});
