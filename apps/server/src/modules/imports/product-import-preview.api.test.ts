import { IMPORT_MAX_BYTES } from '@portal/shared/limits';
import { asc, count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  cartItems,
  categories,
  importJobs,
  products,
  scheduledPrices,
  storedFiles,
  systemLogs,
} from '../../db/schema/index.ts';
import { csvRow } from '../../lib/csv.ts';
import { sizeMessage } from '../../lib/files.ts';
import { MSG } from '../../messages.ts';
import { clientWithAdmin } from '../../test/client-admin.ts';
import { makeCategory, makeClient, makeProduct, makeUser, TEST_PASSWORD } from '../../test/factories.ts';
import { fixture } from '../../test/fixture-files.ts';
import { ApiClient, createTestApp, DB_KINDS, type TestApp } from '../../test/harness.ts';
import { pricePreviewWorld } from '../../test/price-preview-fixtures.ts';
import { multipartBody, type UploadFile } from '../../test/uploads.ts';
import { PRODUCT_COLUMNS } from './product-import.ts';

const URL = '/api/importaciones/productos/vista_previa';
const HEADER = [...PRODUCT_COLUMNS, 'vigente_desde'];
/** A date far after any day the suite runs on: such a row schedules its price. */
const LATER = '01/03/2099';

/**
 * The price preview of a product import (decision 0132): the file read like its import, the rows that change
 * an existing product's price weighed like the inventory list's preview, nothing written.
 */
describe.each(DB_KINDS)('product import: price preview (%s)', (kind) => {
  let t: TestApp;
  let admin: ApiClient;
  const db = () => t.database.db;

  beforeAll(async () => {
    t = await createTestApp(kind);
    const a = await makeUser(db(), { rol: 4, idCliente: null });
    admin = await new ApiClient(t.app).loginOk(a.usuario, TEST_PASSWORD);
  });
  afterAll(async () => t?.close());

  async function preview(idCliente: number | undefined, data?: string | Buffer, api = admin) {
    const fields: Record<string, number> = idCliente === undefined ? {} : { id_cliente: idCliente };
    const files: Record<string, UploadFile> =
      data === undefined ? {} : { file: { data, filename: 'productos.csv', type: 'text/csv' } };
    const { payload, headers } = await multipartBody(fields, files);
    return api.post(URL, payload, { headers });
  }

  /** A product file: one row per [clave, precio, vigente_desde?]. */
  const fileOf = (rows: [string, string, string?][]) =>
    csvRow(HEADER) +
    rows
      .map(([clave, precio, desde]) =>
        csvRow([clave, '', `Producto ${clave}`, '', 'Pieza', precio, '1', '1', 'Papelería', desde ?? '']),
      )
      .join('');

  /** What the preview must leave as it was: prices, scheduled changes, files, imports, categories, log. */
  async function snapshot(idCliente: number) {
    const n = async (
      table: typeof scheduledPrices | typeof storedFiles | typeof importJobs | typeof systemLogs,
    ) => (await db().select({ n: count() }).from(table))[0]!.n;
    return {
      products: await db()
        .select({ id: products.id, precio: products.precio, updatedAt: products.updatedAt })
        .from(products)
        .where(eq(products.idCliente, idCliente))
        .orderBy(asc(products.id)),
      categories: await db().select().from(categories).where(eq(categories.idCliente, idCliente)),
      scheduled: await n(scheduledPrices),
      files: await n(storedFiles),
      imports: await n(importJobs),
      logs: await n(systemLogs),
    };
  }

  it('weighs the rows that change a price: carts, lists, orders waiting for approval and each buyer’s cart; writes nothing', async () => {
    const { client, aAt120bAt40 } = await pricePreviewWorld(db());
    // Another client's product under a clave of the file: its buyer's cart is not this client's business.
    const other = await makeClient(db());
    const otherCategory = await makeCategory(db(), other.id, 'Papelería');
    const foreign = await makeProduct(db(), {
      idCliente: other.id,
      idCategoria: otherCategory.id,
      claveInterna: 'OTRO-1',
      precio: 1000,
    });
    const otherBuyer = await makeUser(db(), { rol: 1, idCliente: other.id });
    await db().insert(cartItems).values({ userId: otherBuyer.id, productId: foreign.id, cantidad: 1 });
    const before = await snapshot(client.id);

    const file = fileOf([
      // a from now (a date already past reads as now), b from a later date, c at its own price.
      ['A-1', '120', '01/01/2020'],
      ['B-1', '40', LATER],
      ['C-1', '20'],
      // A new product, and the other client's clave: both a new product of this client.
      ['NUEVO-1', '15'],
      ['OTRO-1', '5'],
      // Refused: a later date for a product that does not exist yet, and a price that is not one.
      ['NUEVO-2', '15', LATER],
      ['D-1', 'diez'],
    ]);
    const res = await preview(client.id, file);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      ...aAt120bAt40,
      filas: 7,
      filas_con_error: 2,
      precios_ahora: 1,
      precios_programados: 1,
      productos_nuevos: 2,
    });
    // Nothing written: prices, pending changes, the file, an import, a category, the log.
    expect(await snapshot(client.id)).toEqual(before);
    expect((await db().select().from(products).where(eq(products.id, foreign.id)))[0]!.precio).toBe(1000);

    // A file with the template's Spanish header and no price change: zeros.
    const same = `${csvRow(['Clave interna', 'Clave cliente', 'Nombre', 'Descripción', 'Unidad de medida', 'Precio', 'Impuesto', 'Activo', 'Categoría'])}${csvRow(['A-1', '', 'Producto A-1', '', 'Pieza', '100.00', '1', '1', 'Papelería'])}${csvRow(['C-1', '', 'Producto C-1', '', 'Pieza', '20', '1', '1', 'Papelería'])}`;
    const none = await preview(client.id, same);
    expect(none.statusCode, none.body).toBe(200);
    expect(none.json()).toEqual({
      productos: 0,
      carritos: 0,
      listas: 0,
      pedidos_pendientes: 0,
      compradores: [],
      compradores_total: 0,
      filas: 2,
      filas_con_error: 0,
      precios_ahora: 0,
      precios_programados: 0,
      productos_nuevos: 0,
    });
    expect(await snapshot(client.id)).toEqual(before);
  });

  it('refuses what the upload refuses (Spanish 400), a missing client with 404, and roles other than the importer’s', async () => {
    const client = await makeClient(db());
    await makeCategory(db(), client.id, 'Papelería');
    const before = await snapshot(client.id);
    const refuse = async (data: string | Buffer | undefined, msg: string, code?: string) => {
      const res = await preview(client.id, data);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().msg).toBe(msg);
      if (code) expect(res.json().code).toBe(code);
    };
    await refuse(undefined, MSG.archivoNoSeleccionado);
    await refuse(Buffer.alloc(0), MSG.archivoNoSeleccionado);
    await refuse(fixture('products.xlsx'), MSG.csvNoEsTexto);
    await refuse(fixture('calendario.pdf'), MSG.csvNoEsTexto);
    await refuse(fixture('products-latin1.csv'), MSG.csvNoUtf8);
    await refuse('   \r\n', MSG.csvVacio);
    await refuse(csvRow(HEADER), MSG.csvSinRegistros);
    await refuse(
      'clave,nombre,precio,categoria\r\nA,B,1,C\r\n',
      MSG.csvEncabezados(
        ['clave_interna', 'clave_cliente', 'descripcion', 'unidad_de_medida', 'impuesto', 'activo'],
        ['clave'],
      ),
      'CSV_HEADER',
    );
    await refuse(`${fileOf([['A-1', '10']])}A,B,C\r\n`, MSG.csvAnchoFila(3, 3, 10));
    // Over IMPORT_MAX_BYTES (20 MB), under the parser's 25 MB: the limit's own message, as the upload says.
    const line = `${'x,'.repeat(8)}Papelería\r\n`;
    const huge = `${csvRow(PRODUCT_COLUMNS)}${line.repeat(Math.ceil((21 * 1024 * 1024) / Buffer.byteLength(line)))}`;
    await refuse(huge, sizeMessage(IMPORT_MAX_BYTES), 'FILE_SIZE');
    // No client named: 400; a client that does not exist: 404.
    expect((await preview(undefined, fileOf([['A-1', '10']]))).statusCode).toBe(400);
    const missing = await preview(2_000_000_000, fileOf([['A-1', '10']]));
    expect(missing.statusCode).toBe(404);
    expect(missing.json().msg).toBe(MSG.invClienteInexistente);
    expect(await snapshot(client.id)).toEqual(before);

    // Anonymous 401; a buyer and a client administrator (products stay the distributor's) 403.
    const anon = new ApiClient(t.app);
    await anon.csrf();
    const buyer = await makeUser(db(), { rol: 1, idCliente: client.id });
    const clientAdmin = await clientWithAdmin(t, {
      permisosCliente: ['usuarios', 'asignaciones', 'presupuestos'],
    });
    const calls: [ApiClient, number, number][] = [
      [anon, 401, client.id],
      [await new ApiClient(t.app).loginOk(buyer.usuario, TEST_PASSWORD), 403, client.id],
      [clientAdmin.api, 403, clientAdmin.client.id],
    ];
    for (const [api, status, id] of calls) {
      expect((await preview(id, fileOf([['A-1', '10']]), api)).statusCode).toBe(status);
    }
  });
});
