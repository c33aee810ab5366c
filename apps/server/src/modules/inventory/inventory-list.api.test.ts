import { MSG as SHARED_MSG } from '@portal/shared/messages';
import type { ActivateBatchResponse, InventoryResponse } from '@portal/shared/schemas/inventory';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { products, systemLogs } from '../../db/schema/index.ts';
import { MSG } from '../../messages.ts';
import { signedInAdmin } from '../../test/admin-fixtures.ts';
import {
  makeCategory,
  makeClient,
  makeProduct,
  makeUser,
  TEST_PASSWORD,
  uniq,
} from '../../test/factories.ts';
import { ApiClient, createTestApp, DB_KINDS, type TestApp } from '../../test/harness.ts';

describe.each(DB_KINDS)('inventory as a list: server sorts and bulk activation (%s)', (kind) => {
  let t: TestApp;
  let admin: ApiClient;
  let adminId: number;
  const db = () => t.database.db;

  beforeAll(async () => {
    t = await createTestApp(kind);
    const signed = await signedInAdmin(t.app, db());
    admin = signed.api;
    adminId = signed.user.id;
  });
  afterAll(async () => t?.close());

  /** A client with two categories and five products whose columns sort differently. */
  async function world() {
    const client = await makeClient(db());
    const papeleria = await makeCategory(db(), client.id, 'Papelería');
    const aseo = await makeCategory(db(), client.id, 'Aseo');
    const p = (nombre: string, claveInterna: string, precio: number, idCategoria: number, activo = true) =>
      makeProduct(db(), { idCliente: client.id, idCategoria, nombre, claveInterna, precio, activo });
    const borrador = await p('Borrador', 'C-300', 1500, papeleria.id);
    const jabon = await p('Jabón líquido', 'A-100', 4500, aseo.id, false);
    const cinta = await p('Cinta adhesiva', 'B-200', 1500, papeleria.id);
    const escoba = await p('Escoba', 'E-500', 9900, aseo.id);
    const tijeras = await p('Tijeras', 'D-400', 2500, papeleria.id, false);
    return { client, papeleria, aseo, borrador, jabon, cinta, escoba, tijeras };
  }

  async function names(idCliente: number, query = '') {
    const res = await admin.get(`/api/productos?id_cliente=${idCliente}${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as InventoryResponse).productos.map((x) => x.nombre);
  }

  it('sorts by name (the default), clave, price, category and active, both ways, ties on the id', async () => {
    const w = await world();
    const id = w.client.id;
    const byName = ['Borrador', 'Cinta adhesiva', 'Escoba', 'Jabón líquido', 'Tijeras'];
    expect(await names(id)).toEqual(byName);
    expect(await names(id, '&orden=nombre_asc')).toEqual(byName);
    expect(await names(id, '&orden=nombre_desc')).toEqual([...byName].reverse());
    expect(await names(id, '&orden=clave_asc')).toEqual([
      'Jabón líquido',
      'Cinta adhesiva',
      'Borrador',
      'Tijeras',
      'Escoba',
    ]);
    expect(await names(id, '&orden=clave_desc')).toEqual([
      'Escoba',
      'Tijeras',
      'Borrador',
      'Cinta adhesiva',
      'Jabón líquido',
    ]);
    // Borrador and Cinta cost the same: the older id first ascending, last descending.
    expect(await names(id, '&orden=precio_asc')).toEqual([
      'Borrador',
      'Cinta adhesiva',
      'Tijeras',
      'Jabón líquido',
      'Escoba',
    ]);
    expect(await names(id, '&orden=precio_desc')).toEqual([
      'Escoba',
      'Jabón líquido',
      'Tijeras',
      'Cinta adhesiva',
      'Borrador',
    ]);
    // By category name, then the product's name A→Z within it.
    expect(await names(id, '&orden=categoria_asc')).toEqual([
      'Escoba',
      'Jabón líquido',
      'Borrador',
      'Cinta adhesiva',
      'Tijeras',
    ]);
    expect(await names(id, '&orden=categoria_desc')).toEqual([
      'Borrador',
      'Cinta adhesiva',
      'Tijeras',
      'Escoba',
      'Jabón líquido',
    ]);
    // Inactive first ascending, active first descending; by name within each.
    expect(await names(id, '&orden=activo_asc')).toEqual([
      'Jabón líquido',
      'Tijeras',
      'Borrador',
      'Cinta adhesiva',
      'Escoba',
    ]);
    expect(await names(id, '&orden=activo_desc')).toEqual([
      'Borrador',
      'Cinta adhesiva',
      'Escoba',
      'Jabón líquido',
      'Tijeras',
    ]);
  });

  it('keeps pages apart under a sort with ties, and sorts within the filters', async () => {
    const w = await world();
    const id = w.client.id;
    const page = (n: number) => names(id, `&orden=precio_asc&per_page=2&page=${n}`);
    expect([...(await page(1)), ...(await page(2)), ...(await page(3))]).toEqual([
      'Borrador',
      'Cinta adhesiva',
      'Tijeras',
      'Jabón líquido',
      'Escoba',
    ]);
    expect(await names(id, `&orden=precio_desc&categoria=${w.papeleria.id}`)).toEqual([
      'Tijeras',
      'Cinta adhesiva',
      'Borrador',
    ]);
    expect(await names(id, '&orden=clave_desc&activo=1')).toEqual(['Escoba', 'Borrador', 'Cinta adhesiva']);
  });

  it('refuses an unknown orden with 400 in Spanish', async () => {
    const w = await world();
    for (const orden of ['nombre', 'precio_up', 'id_asc', 'total_desc', '', 'NOMBRE_ASC']) {
      const res = await admin.get(`/api/productos?id_cliente=${w.client.id}&orden=${orden}`);
      expect(res.statusCode, orden).toBe(400);
      expect(res.json().msg, orden).toBe(SHARED_MSG.ordenInvalido);
    }
  });

  it('activar_lote: one transaction, one log entry with the counts', async () => {
    const w = await world();
    const ids = [w.borrador.id, w.jabon.id, w.cinta.id];
    const res = await admin.post('/api/productos/activar_lote', { ids, activo: 0 });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as ActivateBatchResponse;
    // Jabón was inactive already: three named, two changed.
    expect(body).toMatchObject({ status: 'ok', productos: 3, cambiados: 2 });
    expect(body.msg).toBe(SHARED_MSG.invLoteHecho(3, false));
    const rows = await db()
      .select({ id: products.id, activo: products.activo })
      .from(products)
      .where(eq(products.idCliente, w.client.id));
    const state = new Map(rows.map((r) => [r.id, r.activo]));
    expect(ids.map((id) => state.get(id))).toEqual([false, false, false]);
    expect(state.get(w.escoba.id)).toBe(true);
    expect(state.get(w.tijeras.id)).toBe(false);

    const logs = await db()
      .select()
      .from(systemLogs)
      .where(
        and(
          eq(systemLogs.userId, adminId),
          eq(systemLogs.eventType, 'productos_desactivados_lote'),
          sql`${systemLogs.metadata}->>'id_cliente' = ${String(w.client.id)}`,
        ),
      );
    expect(logs).toHaveLength(1);
    expect(logs[0]!.metadata).toMatchObject({
      id_cliente: w.client.id,
      productos: 3,
      cambiados: 2,
      activo: false,
    });

    // Back on, with a repeated id counted once; true and 1 both mean active.
    const on = await admin.post('/api/productos/activar_lote', {
      ids: [w.borrador.id, w.borrador.id, w.tijeras.id],
      activo: true,
    });
    expect(on.statusCode, on.body).toBe(200);
    expect(on.json()).toMatchObject({ productos: 2, cambiados: 2, msg: SHARED_MSG.invLoteHecho(2, true) });
    const after = await db()
      .select({ activo: products.activo })
      .from(products)
      .where(inArray(products.id, [w.borrador.id, w.tijeras.id]));
    expect(after.every((r) => r.activo)).toBe(true);
  });

  it('activar_lote: another client’s product or a missing one is 404 and nothing changes', async () => {
    const w = await world();
    const other = await world();
    const snapshot = async () =>
      (
        await db()
          .select({ id: products.id, activo: products.activo, updatedAt: products.updatedAt })
          .from(products)
          .where(inArray(products.idCliente, [w.client.id, other.client.id]))
          .orderBy(products.id)
      ).map((r) => `${r.id}:${r.activo}:${r.updatedAt.toISOString()}`);
    const before = await snapshot();
    for (const ids of [
      [w.borrador.id, other.cinta.id],
      [other.cinta.id, w.borrador.id],
      [w.borrador.id, 2_000_000_000],
    ]) {
      const res = await admin.post('/api/productos/activar_lote', { ids, activo: 0 });
      expect(res.statusCode, JSON.stringify(ids)).toBe(404);
      expect(res.json().msg).toBe(MSG.invProductoInexistente);
    }
    expect(await snapshot()).toEqual(before);
  });

  it('activar_lote: bad bodies are 400 in Spanish; more than 500 refused', async () => {
    const w = await world();
    const many = Array.from({ length: 501 }, (_, i) => i + 1);
    const cases: [unknown, string][] = [
      [{ ids: [], activo: 1 }, SHARED_MSG.invLoteProductos(500)],
      [{ ids: many, activo: 1 }, SHARED_MSG.invLoteProductos(500)],
      [{ activo: 1 }, SHARED_MSG.invLoteProductos(500)],
      [{ ids: [w.borrador.id] }, SHARED_MSG.invLoteActivo],
      [{ ids: [w.borrador.id], activo: 'quizá' }, SHARED_MSG.invLoteActivo],
      [{ ids: ['uno'], activo: 1 }, SHARED_MSG.invLoteProductos(500)],
    ];
    for (const [body, msg] of cases) {
      const res = await admin.post('/api/productos/activar_lote', body);
      expect(res.statusCode, JSON.stringify(body).slice(0, 60)).toBe(400);
      expect(res.json().msg, JSON.stringify(body).slice(0, 60)).toBe(msg);
    }
  });

  it('activar_lote: anonymous 401, roles 1-3 403, no XSRF token 419', async () => {
    const w = await world();
    const body = { ids: [w.borrador.id], activo: 0 };
    const anon = new ApiClient(t.app);
    await anon.csrf();
    expect((await anon.post('/api/productos/activar_lote', body)).statusCode).toBe(401);
    const buyerClient = await makeClient(db());
    for (const rol of [1, 2, 3]) {
      const u = await makeUser(db(), { rol, idCliente: buyerClient.id, usuario: uniq(`r${rol}`) });
      const api = await new ApiClient(t.app).loginOk(u.usuario, TEST_PASSWORD);
      expect((await api.post('/api/productos/activar_lote', body)).statusCode, `rol ${rol}`).toBe(403);
    }
    const noToken = await admin.post('/api/productos/activar_lote', body, { xsrf: null });
    expect(noToken.statusCode).toBe(419);
    const [row] = await db()
      .select({ activo: products.activo })
      .from(products)
      .where(eq(products.id, w.borrador.id));
    expect(row!.activo).toBe(true);
  });

  it('an inline price edit goes through the update route; a bad price is a 400 on the field', async () => {
    const w = await world();
    const base = {
      id: w.borrador.id,
      id_cliente: w.client.id,
      id_categoria: w.papeleria.id,
      clave_interna: 'C-300',
      nombre: 'Borrador',
    };
    const ok = await admin.post(`/api/productos/actualizar/${w.borrador.id}`, { ...base, precio: 18.5 });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().articulo.precio).toBe(18.5);
    for (const precio of [-1, 'doce', 1.234]) {
      const bad = await admin.post(`/api/productos/actualizar/${w.borrador.id}`, { ...base, precio });
      expect(bad.statusCode, String(precio)).toBe(400);
      expect(bad.json().errors.precio).toBe(SHARED_MSG.invPrecioInvalido);
    }
    const other = await world();
    const foreign = await admin.post(`/api/productos/actualizar/${other.cinta.id}`, {
      ...base,
      id: other.cinta.id,
      precio: 1,
    });
    expect(foreign.statusCode).toBe(404);
  });
});
