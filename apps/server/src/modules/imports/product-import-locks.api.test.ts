import { setTimeout as sleep } from 'node:timers/promises';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { products } from '../../db/schema/index.ts';
import { makeCategory, makeClient, makeProduct, uniq } from '../../test/factories.ts';
import { freshDatabase, type TestDatabase } from '../../test/harness.ts';
import { type ProductImportRow, upsertProducts } from './product-import.ts';

/**
 * The products import takes its row locks in id order like an approval's reservation (decision 0124), so
 * the two never deadlock. Needs two connections at once: PostgreSQL only (CI sets TEST_DATABASE_URL).
 */
describe.runIf(process.env.TEST_DATABASE_URL)('products import lock order (postgres)', () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await freshDatabase('postgres');
  });
  afterAll(async () => {
    await t?.drop();
  });

  it('an import listing products in reverse id order waits for an approval holding the first and never deadlocks', async () => {
    const db = t.database.db;
    const client = await makeClient(db);
    const category = await makeCategory(db, client.id, 'Papelería');
    const made = async () =>
      makeProduct(db, { idCliente: client.id, idCategoria: category.id, precio: 1000, existencia: 5 });
    const a = await made();
    const b = await made();
    expect(a.id).toBeLessThan(b.id);
    const row = (p: typeof a, nombre: string): ProductImportRow => ({
      fila: 1,
      claveInterna: p.claveInterna,
      claveCliente: p.claveCliente,
      nombre,
      descripcion: p.descripcion,
      unidadDeMedida: p.unidadDeMedida,
      precio: p.precio,
      impuesto: p.impuesto,
      activo: true,
      categoria: 'Papelería',
      existencia: 9,
    });
    const nombre = uniq('Renombrado');
    const categories = new Map([['papelería', category.id]]);
    let approvalHasA!: () => void;
    const aLocked = new Promise<void>((resolve) => {
      approvalHasA = resolve;
    });
    const steps: string[] = [];
    // The approval's order: A, then (after the import has started) B.
    const approval = db.transaction(async (tx) => {
      await tx.execute(sql`select id from products where id = ${a.id} for update`);
      approvalHasA();
      await sleep(300);
      await tx.execute(sql`select id from products where id = ${b.id} for update`);
      steps.push('aprobación');
    });
    await aLocked;
    // The file names B before A: without the id-order lock the upsert would hold B and wait for A.
    const importing = db.transaction(async (tx) => {
      await upsertProducts(tx, client.id, [row(b, nombre), row(a, nombre)], categories, {
        today: '2026-01-01',
        now: new Date(),
        createdBy: null,
      });
      steps.push('importación');
    });
    const results = await Promise.allSettled([approval, importing]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled']);
    expect(steps).toEqual(['aprobación', 'importación']);
    const after = await db
      .select({ nombre: products.nombre, existencia: products.existencia })
      .from(products)
      .where(eq(products.idCliente, client.id));
    expect(after).toEqual([
      { nombre, existencia: 9 },
      { nombre, existencia: 9 },
    ]);
  });
});
