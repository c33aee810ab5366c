import { DEFAULT_ICONO } from '@portal/shared/domain/icons';
import type { ImportRowError } from '@portal/shared/schemas/imports';
import { eq, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { categories, products } from '../../db/schema/index.ts';
import { type CsvTable, cellOf } from '../../lib/csv-read.ts';
import { MSG } from '../../messages.ts';
import { parseFlagCell, parsePesosCell } from './cells.ts';

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
}

/**
 * Creates or updates one batch of products by (client, clave_interna) in a single statement. A row equal
 * to the stored product is left alone (no write, no new updated_at), so re-running a file changes nothing.
 */
export async function upsertProducts(
  tx: Tx,
  idCliente: number,
  rows: readonly ProductImportRow[],
  categoryIds: Map<string, number>,
): Promise<BatchResult> {
  if (rows.length === 0) return { creados: 0, actualizados: 0 };
  const values = rows.map((r) => ({
    idCliente,
    idCategoria: categoryIds.get(r.categoria.toLowerCase())!,
    claveInterna: r.claveInterna,
    claveCliente: r.claveCliente,
    nombre: r.nombre,
    descripcion: r.descripcion,
    unidadDeMedida: r.unidadDeMedida,
    precio: r.precio,
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
    .returning({ inserted: sql<boolean>`(xmax = 0)` });
  const creados = written.filter((w) => w.inserted).length;
  return { creados, actualizados: written.length - creados };
}
