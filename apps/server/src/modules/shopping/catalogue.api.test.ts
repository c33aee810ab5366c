import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { products, userProducts } from '../../db/schema/index.ts';
import {
  assign,
  makeCategory,
  makeClient,
  makeProduct,
  makeUser,
  TEST_PASSWORD,
} from '../../test/factories.ts';
import { ApiClient, createTestApp, DB_KINDS, type TestApp } from '../../test/harness.ts';

describe.each(DB_KINDS)('catalogue: order and page size (%s)', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(async () => t?.close());
  const db = () => t.database.db;

  /** A client, a signed-in rol-1 user and a category. */
  async function buyer() {
    const client = await makeClient(db(), { limiteDeCompras: -1 });
    const user = await makeUser(db(), { rol: 1, idCliente: client.id, presupuestoDefault: 500000 });
    const category = await makeCategory(db(), client.id, 'Papelería');
    const api = await new ApiClient(t.app).loginOk(user.usuario, TEST_PASSWORD);
    return { client, user, category, api };
  }

  const names = async (api: ApiClient, query: string) => {
    const res = await api.get(`/api/catalogo${query}`);
    expect(res.statusCode, query).toBe(200);
    return (res.json().productos as { nombre: string }[]).map((p) => p.nombre);
  };

  it('sorts by name (the default), clave interna or price, ties by name and id, across pages', async () => {
    const { user, client, category, api } = await buyer();
    const other = await makeCategory(db(), client.id, 'Limpieza');
    for (const [nombre, claveInterna, precio, idCategoria] of [
      ['Borrador blanco', 'C-300', 5000, category.id],
      ['Agenda 2027', 'C-200', 1000, category.id],
      ['Cinta adhesiva', 'C-100', 3000, category.id],
      ['Dado de notas', 'C-400', 1000, category.id],
      ['Escoba', 'C-050', 100, other.id],
    ] as const) {
      const p = await makeProduct(db(), { idCliente: client.id, idCategoria, nombre, claveInterna, precio });
      await assign(db(), user.id, p.id);
    }
    const byName = ['Agenda 2027', 'Borrador blanco', 'Cinta adhesiva', 'Dado de notas'];
    const cat = `categoria=${category.id}`;
    expect(await names(api, `?${cat}`)).toEqual(byName);
    expect(await names(api, `?${cat}&orden=nombre`)).toEqual(byName);
    expect(await names(api, `?${cat}&orden=clave`)).toEqual([
      'Cinta adhesiva',
      'Agenda 2027',
      'Borrador blanco',
      'Dado de notas',
    ]);
    expect(await names(api, `?${cat}&orden=precio`)).toEqual([
      'Agenda 2027',
      'Dado de notas',
      'Cinta adhesiva',
      'Borrador blanco',
    ]);
    // The order holds across pages, with the search and without the category filter.
    expect(await names(api, `?${cat}&orden=precio&per_page=2&page=2`)).toEqual([
      'Cinta adhesiva',
      'Borrador blanco',
    ]);
    const page2 = (await api.get(`/api/catalogo?orden=clave&per_page=2&page=2`)).json();
    expect(page2.total).toBe(5);
    expect(page2.productos.map((p: { clave_interna: string }) => p.clave_interna)).toEqual([
      'C-200',
      'C-300',
    ]);
    expect(await names(api, '?orden=precio&q=c-')).toEqual([
      'Escoba',
      'Agenda 2027',
      'Dado de notas',
      'Cinta adhesiva',
      'Borrador blanco',
    ]);
  });

  it('refuses an unknown order with 400', async () => {
    const { api } = await buyer();
    for (const orden of ['precio_desc', 'id', '']) {
      const res = await api.get(`/api/catalogo?orden=${orden}`);
      expect(res.statusCode, orden).toBe(400);
    }
  });

  it('answers a page of 96 products; more than 100 a page is refused', async () => {
    const { user, client, category, api } = await buyer();
    const rows = await db()
      .insert(products)
      .values(
        Array.from({ length: 97 }, (_, i) => ({
          idCliente: client.id,
          idCategoria: category.id,
          claveInterna: `P-${String(i).padStart(3, '0')}`,
          nombre: `Producto ${String(i).padStart(3, '0')}`,
          precio: 100 + i,
        })),
      )
      .returning({ id: products.id });
    await db()
      .insert(userProducts)
      .values(rows.map((r) => ({ userId: user.id, productId: r.id, cantidadLimite: 5, asignado: true })));
    const first = (await api.get('/api/catalogo?per_page=96')).json();
    expect(first).toMatchObject({ total: 97, page: 1, per_page: 96 });
    expect(first.productos).toHaveLength(96);
    const second = (await api.get('/api/catalogo?per_page=96&page=2&orden=precio')).json();
    expect(second.productos.map((p: { nombre: string }) => p.nombre)).toEqual(['Producto 096']);
    expect((await api.get('/api/catalogo?per_page=101')).statusCode).toBe(400);
  });
});
