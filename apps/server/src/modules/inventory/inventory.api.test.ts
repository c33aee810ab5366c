import { ICONOS } from '@portal/shared/domain/icons';
import { and, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { categories, products, storedFileParts, systemLogs } from '../../db/schema/index.ts';
import { FILE_PART_BYTES, IMAGE_TYPE_MESSAGE, sizeMessage, thumbIdFor } from '../../lib/files.ts';
import { MSG } from '../../messages.ts';
import {
  makeCategory,
  makeClient,
  makeProduct,
  makeUser,
  TEST_PASSWORD,
  uniq,
} from '../../test/factories.ts';
import { fixture } from '../../test/fixture-files.ts';
import { ApiClient, createTestApp, DB_KINDS, type TestApp } from '../../test/harness.ts';
import { makeNoisePng, multipartBody, type UploadFile } from '../../test/uploads.ts';

describe.each(DB_KINDS)('administration: inventory, categories, icons (%s)', (kind) => {
  let t: TestApp;
  let admin: ApiClient;
  let adminId: number;
  let buyer: ApiClient;
  let authorizer: ApiClient;
  const db = () => t.database.db;

  beforeAll(async () => {
    t = await createTestApp(kind);
    const a = await makeUser(db(), { rol: 4, idCliente: null });
    adminId = a.id;
    admin = await new ApiClient(t.app).loginOk(a.usuario, TEST_PASSWORD);
    const client = await makeClient(db(), { limiteDeCompras: -1 });
    const u1 = await makeUser(db(), { rol: 1, idCliente: client.id });
    const u2 = await makeUser(db(), { rol: 2, idCliente: client.id });
    buyer = await new ApiClient(t.app).loginOk(u1.usuario, TEST_PASSWORD);
    authorizer = await new ApiClient(t.app).loginOk(u2.usuario, TEST_PASSWORD);
  });
  afterAll(async () => t?.close());

  /** Posts a multipart form as the given client. */
  async function postForm(
    api: ApiClient,
    url: string,
    fields: Record<string, string | number>,
    files: Record<string, UploadFile> = {},
  ) {
    const { payload, headers } = await multipartBody(fields, files);
    return api.post(url, payload, { headers });
  }

  async function world() {
    const client = await makeClient(db());
    const papeleria = await makeCategory(db(), client.id, 'Papelería');
    const limpieza = await makeCategory(db(), client.id, 'Limpieza');
    return { client, papeleria, limpieza };
  }

  it('every route: anonymous 401, roles 1-3 get 403', async () => {
    const anon = new ApiClient(t.app);
    await anon.csrf();
    const calls: [string, string][] = [
      ['GET', '/api/productos?id_cliente=1'],
      ['POST', '/api/productos'],
      ['POST', '/api/productos/actualizar/1'],
      ['GET', '/api/categorias?id_cliente=1'],
      ['POST', '/api/categorias'],
      ['POST', '/api/categorias/update/1'],
      ['GET', '/api/iconos'],
    ];
    for (const [method, url] of calls) {
      const send = (c: ApiClient) => (method === 'GET' ? c.get(url) : c.post(url, {}));
      expect((await send(anon)).statusCode, `${method} ${url}`).toBe(401);
      expect((await send(buyer)).statusCode, `${method} ${url}`).toBe(403);
      expect((await send(authorizer)).statusCode, `${method} ${url}`).toBe(403);
    }
  });

  it('icon catalogue: about 40 tabler names with Spanish labels', async () => {
    const res = await admin.get('/api/iconos');
    expect(res.statusCode).toBe(200);
    const iconos = res.json().iconos as { nombre: string; etiqueta: string }[];
    expect(iconos.length).toBeGreaterThanOrEqual(35);
    expect(iconos.map((i) => i.nombre)).toEqual([...ICONOS]);
    expect(iconos.map((i) => i.nombre)).toEqual(
      expect.arrayContaining(['IconPencil', 'IconTool', 'IconSpray', 'IconDeviceDesktop', 'IconShirt']),
    );
    for (const i of iconos) {
      expect(i.nombre).toMatch(/^Icon[A-Z]/);
      expect(i.etiqueta.length).toBeGreaterThan(0);
    }
  });

  it('categories: create, validation, unique per client ignoring case, update, list with counts', async () => {
    const { client } = await world();
    const other = await makeClient(db());

    const missing = await admin.post('/api/categorias', {
      nombre: '  ',
      icono: 'IconPencil',
      id_cliente: client.id,
    });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().msg).toBe('El nombre es obligatorio');
    const noName = await admin.post('/api/categorias', { id_cliente: client.id });
    expect(noName.json().msg).toBe(MSG.nombreObligatorio);
    const badIcon = await admin.post('/api/categorias', {
      nombre: 'Café',
      icono: 'IconNope',
      id_cliente: client.id,
    });
    expect(badIcon.statusCode).toBe(400);
    expect(badIcon.json().msg).toBe(MSG.invIconoInvalido);
    const noClient = await admin.post('/api/categorias', { nombre: 'Café', icono: 'IconCoffee' });
    expect(noClient.statusCode).toBe(400);
    expect(noClient.json().msg).toBe(MSG.invClienteRequerido);
    const unknownClient = await admin.post('/api/categorias', { nombre: 'Café', id_cliente: 99999999 });
    expect(unknownClient.statusCode).toBe(404);

    const created = await admin.post('/api/categorias', {
      nombre: ' Cafetería ',
      icono: 'IconCoffee',
      id_cliente: client.id,
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json()).toMatchObject({
      status: 'ok',
      msg: 'Creado correctamente',
      categoria: { nombre: 'Cafetería', icono: 'IconCoffee', id_cliente: client.id, productos: 0 },
    });
    const id = created.json().categoria.id as number;

    const dup = await admin.post('/api/categorias', { nombre: 'CAFETERÍA', id_cliente: client.id });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().msg).toBe(MSG.invCategoriaDuplicada('CAFETERÍA'));
    // The same name in another client is fine; no icon takes the default.
    const elsewhere = await admin.post('/api/categorias', { nombre: 'Cafetería', id_cliente: other.id });
    expect(elsewhere.statusCode).toBe(201);
    expect(elsewhere.json().categoria.icono).toBe('IconPackage');

    await makeProduct(db(), { idCliente: client.id, idCategoria: id, precio: 1000 });
    await makeProduct(db(), { idCliente: client.id, idCategoria: id, precio: 1000, activo: false });
    const list = await admin.get(`/api/categorias?id_cliente=${client.id}`);
    expect(list.statusCode).toBe(200);
    const cafe = list.json().categorias.find((c: { id: number }) => c.id === id);
    expect(cafe).toMatchObject({ nombre: 'Cafetería', productos: 2, presupuesto_total_asignado: 0 });
    expect(list.json().categorias.map((c: { nombre: string }) => c.nombre)).toEqual([
      'Cafetería',
      'Limpieza',
      'Papelería',
    ]);

    const renamed = await admin.post(`/api/categorias/update/${id}`, {
      nombre: 'Café y alimentos',
      icono: 'IconCookie',
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json()).toMatchObject({
      status: 'ok',
      msg: 'Modificado correctamente',
      categoria: { id, nombre: 'Café y alimentos', icono: 'IconCookie' },
    });
    expect(renamed.json().categorias).toHaveLength(3);
    const clash = await admin.post(`/api/categorias/update/${id}`, { nombre: 'papelería' });
    expect(clash.statusCode).toBe(409);
    const emptyName = await admin.post(`/api/categorias/update/${id}`, { nombre: '' });
    expect(emptyName.json().msg).toBe(MSG.nombreObligatorio);
    // Another client's id in the body answers like a missing category.
    const foreign = await admin.post(`/api/categorias/update/${id}`, { nombre: 'X', id_cliente: other.id });
    expect(foreign.statusCode).toBe(404);
    expect((await admin.post('/api/categorias/update/99999999', { nombre: 'X' })).statusCode).toBe(404);

    const logs = await db()
      .select()
      .from(systemLogs)
      .where(and(eq(systemLogs.userId, adminId), eq(systemLogs.eventType, 'categoria_modificada')));
    const entry = logs.find((l) => (l.metadata as { id_categoria?: number }).id_categoria === id);
    expect(entry?.metadata).toMatchObject({
      id_cliente: client.id,
      cambios: ['nombre', 'icono'],
      user_agent: 'api-test',
    });
    expect(entry?.metadata).toHaveProperty('ip');
  });

  it('products: create with a real JPG, served by /api/img with its thumbnail; listed with amounts in pesos', async () => {
    const { client, papeleria } = await world();
    const jpg = fixture('sky-800x600.jpg');
    const res = await postForm(
      admin,
      '/api/productos',
      {
        id: 0,
        id_cliente: client.id,
        id_categoria: papeleria.id,
        clave_interna: 'PAP-001',
        clave_cliente: 'C-77',
        nombre: 'Cuaderno profesional',
        descripcion: 'Raya, 100 hojas',
        unidad_de_medida: 'Pieza',
        precio: '35.90',
        activo: 1,
        impuesto: 0,
      },
      { imagen: { data: jpg, filename: 'cuaderno.jpg', type: 'image/jpeg' } },
    );
    expect(res.statusCode, res.body).toBe(201);
    const articulo = res.json().articulo;
    expect(res.json()).toMatchObject({ status: 'ok', msg: 'Creado correctamente' });
    expect(articulo).toMatchObject({
      id_cliente: client.id,
      id_categoria: papeleria.id,
      categoria: 'Papelería',
      clave_interna: 'PAP-001',
      clave_cliente: 'C-77',
      nombre: 'Cuaderno profesional',
      precio: 35.9,
      activo: true,
      impuesto: false,
    });
    const [row] = await db().select().from(products).where(eq(products.id, articulo.id));
    expect(row!.precio).toBe(3590);
    expect(articulo.imagen).toBe(`/api/img/${row!.imagen}`);
    expect(articulo.miniatura).toBe(`/api/img/${thumbIdFor(row!.imagen!)}`);

    const img = await t.app.inject({ method: 'GET', url: articulo.imagen });
    expect(img.statusCode).toBe(200);
    expect(img.headers['content-type']).toBe('image/jpeg');
    expect(img.rawPayload.equals(jpg)).toBe(true);
    const thumb = await t.app.inject({ method: 'GET', url: articulo.miniatura });
    expect(thumb.statusCode).toBe(200);
    expect(thumb.headers['content-type']).toBe('image/jpeg');
    expect(thumb.rawPayload.length).toBeLessThan(jpg.length * 2);

    const list = await admin.get(`/api/productos?id_cliente=${client.id}`);
    expect(list.statusCode).toBe(200);
    expect(list.json()).toMatchObject({ total: 1, page: 1, per_page: 24 });
    expect(list.json().productos[0]).toMatchObject({ id: articulo.id, precio: 35.9 });

    const [log] = await db()
      .select()
      .from(systemLogs)
      .where(and(eq(systemLogs.eventType, 'producto_creado'), eq(systemLogs.userId, adminId)));
    expect(log?.metadata).toMatchObject({
      id_producto: articulo.id,
      id_cliente: client.id,
      clave_interna: 'PAP-001',
    });
  });

  it('products: a 1.5 MB picture is stored in parts and served back byte for byte, with its length', async () => {
    const { client, papeleria } = await world();
    const png = await makeNoisePng(1.5);
    expect(png.length).toBeGreaterThan(5 * FILE_PART_BYTES);
    const res = await postForm(
      admin,
      '/api/productos',
      {
        id_cliente: client.id,
        id_categoria: papeleria.id,
        clave_interna: 'PAP-FOTO',
        nombre: 'Foto grande',
        precio: '10',
      },
      { imagen: { data: png, filename: 'foto.png', type: 'image/png' } },
    );
    expect(res.statusCode, res.body).toBe(201);
    const { imagen, miniatura } = res.json().articulo as { imagen: string; miniatura: string };
    const parts = await db()
      .select({ part: storedFileParts.part })
      .from(storedFileParts)
      .where(eq(storedFileParts.fileId, imagen.slice('/api/img/'.length)));
    expect(parts).toHaveLength(Math.ceil(png.length / FILE_PART_BYTES));
    const img = await t.app.inject({ method: 'GET', url: imagen });
    expect(img.statusCode).toBe(200);
    expect(img.headers['content-type']).toBe('image/png');
    expect(img.headers['content-length']).toBe(String(png.length));
    expect(img.rawPayload.equals(png)).toBe(true);
    const thumb = await t.app.inject({ method: 'GET', url: miniatura });
    expect(thumb.headers['content-length']).toBe(String(thumb.rawPayload.length));
    expect((await sharp(thumb.rawPayload).metadata()).format).toBe('jpeg');
  });

  it('products: a PNG is accepted; a text file named x.png, a 6 MB image and a PDF named x.jpg are refused', async () => {
    const { client, papeleria } = await world();
    const base = {
      id_cliente: client.id,
      id_categoria: papeleria.id,
      nombre: 'Folder',
      precio: 10,
    };
    const png = fixture('sky-64x48.png');
    const ok = await postForm(
      admin,
      '/api/productos',
      { ...base, clave_interna: 'F-1' },
      {
        imagen: { data: png, filename: 'folder.png', type: 'image/png' },
      },
    );
    expect(ok.statusCode, ok.body).toBe(201);
    const served = await t.app.inject({ method: 'GET', url: ok.json().articulo.imagen });
    expect(served.headers['content-type']).toBe('image/png');

    const text = await postForm(
      admin,
      '/api/productos',
      { ...base, clave_interna: 'F-2' },
      {
        imagen: { data: 'hola, no soy una imagen', filename: 'x.png', type: 'image/png' },
      },
    );
    expect(text.statusCode).toBe(400);
    expect(text.json().msg).toBe(IMAGE_TYPE_MESSAGE);

    const pdf = await postForm(
      admin,
      '/api/productos',
      { ...base, clave_interna: 'F-3' },
      {
        imagen: {
          data: fixture('calendario.pdf'),
          filename: 'x.jpg',
          type: 'image/jpeg',
        },
      },
    );
    expect(pdf.statusCode).toBe(400);
    expect(pdf.json().msg).toBe(IMAGE_TYPE_MESSAGE);

    const big = await makeNoisePng(6);
    expect(big.length).toBeGreaterThan(5 * 1024 * 1024);
    const tooBig = await postForm(
      admin,
      '/api/productos',
      { ...base, clave_interna: 'F-4' },
      {
        imagen: { data: big, filename: 'grande.png', type: 'image/png' },
      },
    );
    expect(tooBig.statusCode).toBe(400);
    expect(tooBig.json().msg).toBe(sizeMessage(5 * 1024 * 1024));

    // Nothing was created by the refused uploads.
    const rows = await db().select().from(products).where(eq(products.idCliente, client.id));
    expect(rows.map((r) => r.claveInterna)).toEqual(['F-1']);
  });

  it('products: validation messages, client and category required, unique clave_interna per client', async () => {
    const { client, papeleria } = await world();
    const other = await world();
    const none = await postForm(admin, '/api/productos', { nombre: 'X', clave_interna: 'X', precio: 1 });
    expect(none.statusCode).toBe(400);
    expect(none.json().msg).toBe(MSG.invClienteYCategoria);
    expect(Object.keys(none.json().errors).sort()).toEqual(['id_categoria', 'id_cliente']);

    const base = { id_cliente: client.id, id_categoria: papeleria.id, clave_interna: 'V-1', nombre: 'Vaso' };
    for (const precio of ['abc', '-1', '1.234', '']) {
      const res = await postForm(admin, '/api/productos', { ...base, precio });
      expect(res.statusCode, precio).toBe(400);
      expect(res.json().msg).toBe(MSG.invPrecioInvalido);
      expect(res.json().errors.precio).toBe(MSG.invPrecioInvalido);
    }
    const many = await postForm(admin, '/api/productos', { id_cliente: client.id, precio: 'x' });
    expect(many.statusCode).toBe(400);
    expect(many.json().msg).toBe('No se pudo completar el proceso, verifique sus datos.');
    expect(Object.keys(many.json().errors).sort()).toEqual([
      'clave_interna',
      'id_categoria',
      'nombre',
      'precio',
    ]);
    const flag = await postForm(admin, '/api/productos', { ...base, precio: 1, activo: 'quizá' });
    expect(flag.json().msg).toBe(MSG.valorSiNoInvalido);
    const long = await postForm(admin, '/api/productos', { ...base, precio: 1, nombre: 'x'.repeat(201) });
    expect(long.json().errors.nombre).toBe(MSG.invTextoLargo(200));

    // A category of another client answers like a missing one.
    const foreignCat = await postForm(admin, '/api/productos', {
      ...base,
      id_categoria: other.papeleria.id,
      precio: 1,
    });
    expect(foreignCat.statusCode).toBe(404);
    expect(foreignCat.json().msg).toBe(MSG.invCategoriaInexistente);
    expect(
      (await postForm(admin, '/api/productos', { ...base, id_cliente: 99999999, precio: 1 })).statusCode,
    ).toBe(404);

    const first = await postForm(admin, '/api/productos', { ...base, precio: '12.5' });
    expect(first.statusCode, first.body).toBe(201);
    expect(first.json().articulo).toMatchObject({ unidad_de_medida: 'Pieza', activo: true, impuesto: true });
    const dup = await postForm(admin, '/api/productos', { ...base, precio: 3 });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().msg).toBe(MSG.invClaveInternaDuplicada('V-1'));
    // The same key in another client is another product.
    const elsewhere = await postForm(admin, '/api/productos', {
      ...base,
      id_cliente: other.client.id,
      id_categoria: other.papeleria.id,
      precio: 3,
    });
    expect(elsewhere.statusCode).toBe(201);
    // Edits go through /actualizar.
    const withId = await postForm(admin, '/api/productos', {
      ...base,
      id: 5,
      clave_interna: 'V-2',
      precio: 1,
    });
    expect(withId.statusCode).toBe(400);
  });

  it('products: update, toggle keeps what it does not send, image removal, another client → 404, audit', async () => {
    const { client, papeleria, limpieza } = await world();
    const other = await world();
    const png = fixture('sky-64x48.png');
    const created = await postForm(
      admin,
      '/api/productos',
      {
        id: 0,
        id_cliente: client.id,
        id_categoria: papeleria.id,
        clave_interna: 'T-1',
        clave_cliente: 'CLI-1',
        nombre: 'Tóner negro',
        descripcion: 'Rinde 2,000 páginas',
        unidad_de_medida: 'Cartucho',
        precio: '1250.00',
        activo: 1,
        impuesto: 1,
      },
      { imagen: { data: png, filename: 't.png', type: 'image/png' } },
    );
    const id = created.json().articulo.id as number;
    const imagen = created.json().articulo.imagen as string;

    // The toggle: only id, id_cliente, id_categoria, clave_interna, nombre, precio, activo.
    const toggle = await postForm(admin, `/api/productos/actualizar/${id}`, {
      id,
      id_cliente: client.id,
      id_categoria: papeleria.id,
      clave_interna: 'T-1',
      nombre: 'Tóner negro',
      precio: 1250,
      activo: 0,
    });
    expect(toggle.statusCode, toggle.body).toBe(200);
    expect(toggle.json()).toMatchObject({ status: 'ok', msg: 'Modificado correctamente' });
    expect(toggle.json().articulo).toMatchObject({
      activo: false,
      clave_cliente: 'CLI-1',
      descripcion: 'Rinde 2,000 páginas',
      unidad_de_medida: 'Cartucho',
      impuesto: true,
      imagen,
    });
    expect(toggle.json().inventarios).toMatchObject({ total: 1, page: 1, per_page: 24 });
    expect(toggle.json().inventarios.productos[0]).toMatchObject({ id, activo: false });
    const [offLog] = await db()
      .select()
      .from(systemLogs)
      .where(eq(systemLogs.eventType, 'producto_desactivado'));
    expect(offLog?.metadata).toMatchObject({ id_producto: id, id_cliente: client.id, cambios: ['activo'] });

    // The same toggle as JSON also works.
    const on = await admin.post(`/api/productos/actualizar/${id}`, {
      id,
      id_cliente: client.id,
      id_categoria: papeleria.id,
      clave_interna: 'T-1',
      nombre: 'Tóner negro',
      precio: 1250,
      activo: 1,
    });
    expect(on.statusCode, on.body).toBe(200);
    expect(on.json().articulo.activo).toBe(true);

    const edit = await postForm(admin, `/api/productos/actualizar/${id}`, {
      id,
      id_cliente: client.id,
      id_categoria: limpieza.id,
      clave_interna: 'T-2',
      clave_cliente: '',
      nombre: 'Tóner negro XL',
      descripcion: '',
      precio: '1399.99',
      impuesto: 0,
      eliminar_imagen: 1,
    });
    expect(edit.statusCode, edit.body).toBe(200);
    expect(edit.json().articulo).toMatchObject({
      id_categoria: limpieza.id,
      categoria: 'Limpieza',
      clave_interna: 'T-2',
      clave_cliente: '',
      descripcion: '',
      nombre: 'Tóner negro XL',
      precio: 1399.99,
      impuesto: false,
      activo: true,
      imagen: null,
      miniatura: null,
    });
    const [row] = await db().select().from(products).where(eq(products.id, id));
    expect(row).toMatchObject({ precio: 139999, imagen: null, claveInterna: 'T-2' });
    const [editLog] = await db()
      .select()
      .from(systemLogs)
      .where(eq(systemLogs.eventType, 'producto_modificado'));
    expect(editLog?.metadata).toMatchObject({ id_producto: id });
    expect((editLog?.metadata as { cambios: string[] }).cambios).toEqual(
      expect.arrayContaining(['id_categoria', 'clave_interna', 'precio', 'impuesto', 'imagen']),
    );

    // Unique key on update; another client's product or category answers like a missing one.
    await makeProduct(db(), {
      idCliente: client.id,
      idCategoria: papeleria.id,
      precio: 100,
      claveInterna: 'T-3',
    });
    const clash = await postForm(admin, `/api/productos/actualizar/${id}`, {
      id_cliente: client.id,
      id_categoria: papeleria.id,
      clave_interna: 'T-3',
      nombre: 'X',
      precio: 1,
    });
    expect(clash.statusCode).toBe(409);
    const asOther = await postForm(admin, `/api/productos/actualizar/${id}`, {
      id_cliente: other.client.id,
      id_categoria: other.papeleria.id,
      clave_interna: 'T-2',
      nombre: 'X',
      precio: 1,
    });
    expect(asOther.statusCode).toBe(404);
    expect(asOther.json().msg).toBe(MSG.invProductoInexistente);
    const foreignCategory = await postForm(admin, `/api/productos/actualizar/${id}`, {
      id_cliente: client.id,
      id_categoria: other.papeleria.id,
      clave_interna: 'T-2',
      nombre: 'X',
      precio: 1,
    });
    expect(foreignCategory.statusCode).toBe(404);
    const missing = await postForm(admin, '/api/productos/actualizar/99999999', {
      id_cliente: client.id,
      id_categoria: papeleria.id,
      clave_interna: 'T-2',
      nombre: 'X',
      precio: 1,
    });
    expect(missing.statusCode).toBe(404);
    const mismatch = await postForm(admin, `/api/productos/actualizar/${id}`, {
      id: id + 1,
      id_cliente: client.id,
      id_categoria: papeleria.id,
      clave_interna: 'T-2',
      nombre: 'X',
      precio: 1,
    });
    expect(mismatch.statusCode).toBe(400);
    const [unchanged] = await db().select().from(products).where(eq(products.id, id));
    expect(unchanged!.nombre).toBe('Tóner negro XL');
  });

  it('inventory list: server pagination, accent- and case-insensitive search, category and activo filters', async () => {
    const { client, papeleria, limpieza } = await world();
    const other = await world();
    await makeProduct(db(), {
      idCliente: other.client.id,
      idCategoria: other.papeleria.id,
      precio: 1,
      nombre: 'Jabón ajeno',
    });
    for (let i = 1; i <= 30; i++) {
      await makeProduct(db(), {
        idCliente: client.id,
        idCategoria: i <= 20 ? papeleria.id : limpieza.id,
        precio: i * 100,
        nombre: `Artículo ${String(i).padStart(2, '0')}`,
        claveInterna: `ART-${i}`,
        claveCliente: `CC-${i}`,
        activo: i % 3 !== 0,
      });
    }
    await makeProduct(db(), {
      idCliente: client.id,
      idCategoria: limpieza.id,
      precio: 4550,
      nombre: 'Jabón líquido Ñandú',
      claveInterna: 'LIM-77',
    });
    const page1 = (await admin.get(`/api/productos?id_cliente=${client.id}`)).json();
    expect(page1).toMatchObject({ total: 31, page: 1, per_page: 24 });
    expect(page1.productos).toHaveLength(24);
    expect(page1.productos[0].nombre).toBe('Artículo 01');
    const page2 = (await admin.get(`/api/productos?id_cliente=${client.id}&page=2`)).json();
    expect(page2.productos).toHaveLength(7);
    const small = (await admin.get(`/api/productos?id_cliente=${client.id}&per_page=5&page=3`)).json();
    expect(small.productos.map((p: { nombre: string }) => p.nombre)).toEqual([
      'Artículo 11',
      'Artículo 12',
      'Artículo 13',
      'Artículo 14',
      'Artículo 15',
    ]);

    const search = async (q: string) =>
      (await admin.get(`/api/productos?id_cliente=${client.id}&q=${encodeURIComponent(q)}`)).json();
    expect((await search('JABON')).productos.map((p: { nombre: string }) => p.nombre)).toEqual([
      'Jabón líquido Ñandú',
    ]);
    expect((await search('nandu')).total).toBe(1);
    expect((await search('lim-77')).total).toBe(1);
    expect((await search('cc-1')).total).toBe(11); // CC-1, CC-10..CC-19
    expect((await search('articulo 2')).total).toBe(10); // 20..29

    const cat = (await admin.get(`/api/productos?id_cliente=${client.id}&categoria=${limpieza.id}`)).json();
    expect(cat.total).toBe(11);
    const inactive = (await admin.get(`/api/productos?id_cliente=${client.id}&activo=0`)).json();
    expect(inactive.total).toBe(10);
    expect(inactive.productos.every((p: { activo: boolean }) => !p.activo)).toBe(true);
    const active = (await admin.get(`/api/productos?id_cliente=${client.id}&activo=1`)).json();
    expect(active.total).toBe(21);

    const noClient = await admin.get('/api/productos');
    expect(noClient.statusCode).toBe(400);
    expect(noClient.json().msg).toBe(MSG.invClienteRequerido);
    expect((await admin.get('/api/productos?id_cliente=99999999')).statusCode).toBe(404);
  });

  it('a category created here is the one products use (same client only)', async () => {
    const { client } = await world();
    const created = await admin.post('/api/categorias', { nombre: uniq('Cat'), id_cliente: client.id });
    const idCategoria = created.json().categoria.id as number;
    const [row] = await db().select().from(categories).where(eq(categories.id, idCategoria));
    expect(row!.idCliente).toBe(client.id);
    const res = await postForm(admin, '/api/productos', {
      id_cliente: client.id,
      id_categoria: idCategoria,
      clave_interna: 'Z-1',
      nombre: 'Zeta',
      precio: 0,
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().articulo.precio).toBe(0);
  });
});
