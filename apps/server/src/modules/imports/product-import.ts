import { DEFAULT_ICONO } from '@portal/shared/domain/icons';
import { DIAS_ENTREGA_MAX, EXISTENCIA_MAX } from '@portal/shared/domain/stock';
import type { ImportRowError } from '@portal/shared/schemas/imports';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { type Db, rowsOf, type Tx } from '../../db/client.ts';
import { lockProductsByClave } from '../../db/product-locks.ts';
import { categories, products } from '../../db/schema/index.ts';
import { type CsvTable, cellOf } from '../../lib/csv-read.ts';
import { MSG } from '../../messages.ts';
import { upsertScheduledPrices } from '../inventory/scheduled-prices.service.ts';
import { parseDateCell, parseFlagCell, parseIntCell, parsePesosCell } from './cells.ts';

/** The product template's columns, in order (docs/domain.md "Imports"). */
export const PRODUCT_COLUMNS = [
  'clave_interna',
  'clave_cliente',
  'nombre',
  'descripcion',
  'unidad_de_medida',
  'precio',
  'impuesto',
  'activo',
  'categoria',
] as const;

/** Optional columns of the product file (decision 0124): a blank cell, or no column, keeps the product's value. */
export const PRODUCT_OPTIONAL_COLUMNS = ['existencia', 'dias_entrega', 'vigente_desde'] as const;

export interface ProductImportRow {
  fila: number;
  claveInterna: string;
  claveCliente: string;
  nombre: string;
  descripcion: string;
  unidadDeMedida: string;
  /** Centavos. */
  precio: number;
  impuesto: boolean;
  activo: boolean;
  categoria: string;
  /** Units on hand; undefined keeps the product's (a new product's stock is then unknown). */
  existencia?: number;
  /** Lead time in days; undefined keeps the product's. */
  diasEntrega?: number;
  /**
   * The business date (YYYY-MM-DD) the row's price holds from (decision 0132); after today it is
   * scheduled and the product keeps its price until then; undefined, today or before: the price now.
   */
  vigenteDesde?: string;
}

export interface Validated<T> {
  rows: T[];
  errors: ImportRowError[];
  /** Rows refused (a row with two bad cells counts once). */
  badRows: Set<number>;
}

/** What a row's check gets: its cells by column, a way to refuse a cell, and a check of repeated keys. */
export interface RowCheck {
  fila: number;
  get: (name: string) => string;
  fail: (campo: string, motivo: string, valor?: string) => void;
  /** Refuses the cell when an earlier row had the same key ('Está repetido en el archivo (fila n).'). */
  once: (key: string, campo: string, valor: string) => void;
  /** A text cell: required (blank refused) and at most `max` characters. */
  text: (name: string, required: boolean, max: number) => string;
}

/**
 * Checks every row of an import on its own (no database): `check` reads the row's cells and refuses the
 * bad ones; a row is kept (as `check` built it) only when none of its cells was refused.
 */
/** Rows checked between two turns of the event loop. */
const VALIDATE_SLICE = 2000;

export async function validateRows<T extends { fila: number }>(
  table: CsvTable,
  index: Map<string, number>,
  check: (row: RowCheck) => T,
): Promise<Validated<T>> {
  const rows: T[] = [];
  const errors: ImportRowError[] = [];
  const badRows = new Set<number>();
  const firstRowOfKey = new Map<string, number>();
  for (const [i, record] of table.records.entries()) {
    // A turn of the event loop every few thousand rows: a 100,000-row file never holds other requests.
    if (i > 0 && i % VALIDATE_SLICE === 0) await new Promise<void>((resolve) => setImmediate(resolve));
    const fila = record.fila;
    const rowErrors: ImportRowError[] = [];
    const fail = (campo: string, motivo: string, valor?: string) =>
      rowErrors.push({ fila, campo, motivo, ...(valor ? { valor: valor.slice(0, 100) } : {}) });
    const get = (name: string) => cellOf(record, index, name);
    const row = check({
      fila,
      get,
      fail,
      once: (key, campo, valor) => {
        const first = firstRowOfKey.get(key);
        if (first !== undefined) fail(campo, MSG.impRepetido(first), valor);
        else firstRowOfKey.set(key, fila);
      },
      text: (name, required, max) => {
        const v = get(name);
        if (required && v === '') fail(name, MSG.impObligatorio);
        else if (v.length > max) fail(name, MSG.impLargo(max), v);
        return v;
      },
    });
    if (rowErrors.length) {
      errors.push(...rowErrors);
      badRows.add(fila);
    } else rows.push(row);
  }
  return { rows, errors, badRows };
}

const LIMITS = { clave_interna: 50, clave_cliente: 50, nombre: 200, descripcion: 2000, unidad_de_medida: 50 };

/** Checks every product row on its own (no database); a row is kept only when all of its cells are valid. */
export function validateProductRows(
  table: CsvTable,
  index: Map<string, number>,
): Promise<Validated<ProductImportRow>> {
  return validateRows(table, index, ({ fila, get, fail, once, text: textCell }) => {
    const text = (name: keyof typeof LIMITS, required: boolean) => textCell(name, required, LIMITS[name]);
    const claveInterna = text('clave_interna', true);
    const claveCliente = text('clave_cliente', false);
    const nombre = text('nombre', true);
    const descripcion = text('descripcion', false);
    const unidad = text('unidad_de_medida', false);

    const precioText = get('precio');
    const precio = precioText === '' ? null : parsePesosCell(precioText);
    if (precioText === '') fail('precio', MSG.impObligatorio);
    else if (precio === null) fail('precio', MSG.impPrecio, precioText);

    const flag = (name: 'impuesto' | 'activo'): boolean => {
      const v = get(name);
      if (v === '') return true;
      const parsed = parseFlagCell(v);
      if (parsed === null) fail(name, MSG.impSiNo, v);
      return parsed ?? true;
    };
    const impuesto = flag('impuesto');
    const activo = flag('activo');

    const categoria = get('categoria').replace(/\s+/g, ' ');
    if (categoria === '') fail('categoria', MSG.impObligatorio);
    else if (categoria.length > 100) fail('categoria', MSG.impLargo(100), categoria);

    if (claveInterna !== '') once(claveInterna, 'clave_interna', claveInterna);

    // Stock and lead time (decision 0124): whole numbers; blank keeps what the product has.
    const whole = (name: 'existencia' | 'dias_entrega', max: number, motivo: string): number | undefined => {
      const v = get(name);
      if (v === '') return undefined;
      const n = parseIntCell(v);
      if (n === null || n < 0 || n > max) {
        fail(name, motivo, v);
        return undefined;
      }
      return n;
    };
    const existencia = whole('existencia', EXISTENCIA_MAX, MSG.existenciaInvalida);
    const diasEntrega = whole('dias_entrega', DIAS_ENTREGA_MAX, MSG.diasEntregaInvalidos);
    const vigenteText = get('vigente_desde');
    const vigenteDesde = vigenteText === '' ? undefined : parseDateCell(vigenteText);
    if (vigenteDesde === null) fail('vigente_desde', MSG.impFecha, vigenteText);

    return {
      fila,
      claveInterna,
      claveCliente,
      nombre,
      descripcion,
      unidadDeMedida: unidad || 'Pieza',
      precio: precio ?? 0,
      impuesto,
      activo,
      categoria,
      ...(existencia !== undefined ? { existencia } : {}),
      ...(diasEntrega !== undefined ? { diasEntrega } : {}),
      ...(vigenteDesde ? { vigenteDesde } : {}),
    };
  });
}

/** Category ids by lower-cased name; the ones missing are created (with the default icon). */
export async function ensureCategories(
  db: Db | Tx,
  idCliente: number,
  names: Iterable<string>,
): Promise<Map<string, number>> {
  const byKey = new Map<string, number>();
  const load = async () => {
    const rows = await db
      .select({ id: categories.id, nombre: categories.nombre })
      .from(categories)
      .where(eq(categories.idCliente, idCliente));
    for (const r of rows) byKey.set(r.nombre.toLowerCase(), r.id);
  };
  await load();
  const missing = new Map<string, string>();
  for (const name of names) {
    const key = name.toLowerCase();
    if (!byKey.has(key) && !missing.has(key)) missing.set(key, name);
  }
  if (missing.size) {
    const values = [...missing.values()].map((nombre) => ({ idCliente, nombre, icono: DEFAULT_ICONO }));
    for (let i = 0; i < values.length; i += 500) {
      await db
        .insert(categories)
        .values(values.slice(i, i + 500))
        .onConflictDoNothing();
    }
    await load();
  }
  return byKey;
}

export interface BatchResult {
  creados: number;
  actualizados: number;
  /** Prices scheduled for a later date (products import, decision 0132). */
  programados?: number;
}

/** What the products import needs of the moment it runs (scheduled prices, decision 0132). */
export interface ImportMoment {
  /** The business date today (YYYY-MM-DD). */
  today: string;
  now: Date;
  /** Who uploaded the file. */
  createdBy: number | null;
}

/**
 * Creates or updates one batch of products by (client, clave_interna) in a single statement. A row equal
 * to the stored product is left alone (no write, no new updated_at), so re-running a file changes nothing.
 */
export async function upsertProducts(
  tx: Tx,
  idCliente: number,
  allRows: readonly ProductImportRow[],
  categoryIds: Map<string, number>,
  moment: ImportMoment,
): Promise<BatchResult & { errors: ImportRowError[] }> {
  if (allRows.length === 0) return { creados: 0, actualizados: 0, errors: [] };
  // The batch's existing products locked in id order first, like an approval's reservation locks them, so
  // an import racing approvals of the same products never deadlocks (decision 0124).
  await lockProductsByClave(
    tx,
    idCliente,
    allRows.map((r) => r.claveInterna),
  );
  const { rows, schedule, errors } = await splitScheduled(tx, idCliente, allRows, moment.today);
  const values = rows.map((r) => ({
    idCliente,
    idCategoria: categoryIds.get(r.categoria.toLowerCase())!,
    claveInterna: r.claveInterna,
    claveCliente: r.claveCliente,
    nombre: r.nombre,
    descripcion: r.descripcion,
    unidadDeMedida: r.unidadDeMedida,
    // A price scheduled for later leaves the product's own until its date.
    precio: schedule.get(r.claveInterna)?.actual ?? r.precio,
    impuesto: r.impuesto,
    activo: r.activo,
  }));
  const written = await tx
    .insert(products)
    .values(values)
    .onConflictDoUpdate({
      target: [products.idCliente, products.claveInterna],
      set: {
        idCategoria: sql`excluded.id_categoria`,
        claveCliente: sql`excluded.clave_cliente`,
        nombre: sql`excluded.nombre`,
        descripcion: sql`excluded.descripcion`,
        unidadDeMedida: sql`excluded.unidad_de_medida`,
        precio: sql`excluded.precio`,
        impuesto: sql`excluded.impuesto`,
        activo: sql`excluded.activo`,
        updatedAt: sql`now()`,
      },
      setWhere: sql`(products.id_categoria, products.clave_cliente, products.nombre, products.descripcion,
        products.unidad_de_medida, products.precio, products.impuesto, products.activo)
        is distinct from (excluded.id_categoria, excluded.clave_cliente, excluded.nombre, excluded.descripcion,
        excluded.unidad_de_medida, excluded.precio, excluded.impuesto, excluded.activo)`,
    })
    .returning({ clave: products.claveInterna, inserted: sql<boolean>`(xmax = 0)` });
  const creados = written.filter((w) => w.inserted).length;
  const touched = new Set(written.map((w) => w.clave));
  // Stock and lead time given in the file (decision 0124): only those cells, only when they differ.
  const stock = rows.filter((r) => r.existencia !== undefined || r.diasEntrega !== undefined);
  if (stock.length > 0) {
    const values = sql.join(
      stock.map(
        (r) =>
          sql`(${r.claveInterna}::text, ${r.existencia !== undefined}::boolean, ${r.existencia ?? null}::int, ${r.diasEntrega !== undefined}::boolean, ${r.diasEntrega ?? null}::int)`,
      ),
      sql`, `,
    );
    const changed = await rowsOf<{ clave: string }>(
      tx,
      sql`update products p set
          existencia = case when v.has_e then v.e else p.existencia end,
          dias_entrega = case when v.has_d then v.d else p.dias_entrega end,
          updated_at = now()
        from (values ${values}) v(clave, has_e, e, has_d, d)
        where p.id_cliente = ${idCliente} and p.clave_interna = v.clave
          and ((v.has_e and p.existencia is distinct from v.e) or (v.has_d and p.dias_entrega is distinct from v.d))
        returning p.clave_interna as clave`,
    );
    for (const c of changed) touched.add(c.clave);
  }
  const programados = await upsertScheduledPrices(
    tx,
    idCliente,
    [...schedule.values()].map((s) => ({ productId: s.id, precio: s.precio, vigenteDesde: s.vigenteDesde })),
    moment.createdBy,
    moment.now,
  );
  for (const clave of schedule.keys()) touched.add(clave);
  return { creados, actualizados: touched.size - creados, programados, errors };
}

/**
 * The rows whose price holds from a date after today (decision 0132): each is an existing product's
 * (a new product takes its price now: such a row is refused, 'Un producto nuevo…'), keyed by clave with the
 * product's id and current price. The rest of the row is written as usual.
 */
async function splitScheduled(tx: Tx, idCliente: number, rows: readonly ProductImportRow[], today: string) {
  const later = rows.filter((r) => r.vigenteDesde !== undefined && r.vigenteDesde > today);
  const schedule = new Map<string, { id: number; actual: number; precio: number; vigenteDesde: string }>();
  if (later.length === 0) return { rows, schedule, errors: [] as ImportRowError[] };
  const existing = await tx
    .select({ id: products.id, clave: products.claveInterna, precio: products.precio })
    .from(products)
    .where(
      and(
        eq(products.idCliente, idCliente),
        inArray(
          products.claveInterna,
          later.map((r) => r.claveInterna),
        ),
      ),
    );
  const byClave = new Map(existing.map((p) => [p.clave, p]));
  const errors: ImportRowError[] = [];
  for (const r of later) {
    const product = byClave.get(r.claveInterna);
    if (product) {
      schedule.set(r.claveInterna, {
        id: product.id,
        actual: product.precio,
        precio: r.precio,
        vigenteDesde: r.vigenteDesde!,
      });
    } else {
      errors.push({
        fila: r.fila,
        campo: 'vigente_desde',
        motivo: MSG.impVigenteNuevo,
        valor: r.vigenteDesde!,
      });
    }
  }
  const refused = new Set(errors.map((e) => e.fila));
  return { rows: rows.filter((r) => !refused.has(r.fila)), schedule, errors };
}

/** What a product file's valid rows would do to prices (the import's dry run, decision 0132). */
export interface ImportPricePlan {
  /** New price (centavos) by product id: the client's existing products whose price the file changes. */
  changes: Map<number, number>;
  /** Of those, the changes that hold now (no date, today or before) and from a later date. */
  ahora: number;
  programados: number;
  /** Rows that create a product. */
  nuevos: number;
  /** Rows the import refuses when it writes (a later date for a product that does not exist yet). */
  refused: number;
}

/**
 * Matches a product file's valid rows with the client's products by clave (one statement: the claves travel
 * as one JSON parameter) and sorts them as `upsertProducts` would write them; reads only.
 */
export async function importPricePlan(
  db: Db,
  idCliente: number,
  rows: readonly ProductImportRow[],
  today: string,
): Promise<ImportPricePlan> {
  const plan: ImportPricePlan = { changes: new Map(), ahora: 0, programados: 0, nuevos: 0, refused: 0 };
  if (rows.length === 0) return plan;
  const claves = JSON.stringify(rows.map((r) => r.claveInterna));
  const existing = await rowsOf<{ id: number; clave: string; precio: string | number }>(
    db,
    sql`select p.id, p.clave_interna as clave, p.precio from ${products} p
        join jsonb_array_elements_text(${claves}::jsonb) as c(clave) on c.clave = p.clave_interna
        where p.id_cliente = ${idCliente}`,
  );
  const byClave = new Map(existing.map((p) => [p.clave, { id: Number(p.id), precio: Number(p.precio) }]));
  for (const r of rows) {
    const later = r.vigenteDesde !== undefined && r.vigenteDesde > today;
    const product = byClave.get(r.claveInterna);
    if (!product) {
      if (later) plan.refused++;
      else plan.nuevos++;
    } else if (product.precio !== r.precio) {
      plan.changes.set(product.id, r.precio);
      if (later) plan.programados++;
      else plan.ahora++;
    }
  }
  return plan;
}
