import { DEFAULT_ICONO } from '@portal/shared/domain/icons';
import { centavosToPesos, pesosToCentavos } from '@portal/shared/domain/money';
import { INVENTORY_PER_PAGE } from '@portal/shared/limits';
import { MSG as SHARED_MSG } from '@portal/shared/messages';
import {
  type ActivateBatchResponse,
  type AdminCategoryDto,
  type AdminProductDto,
  type CategoryBody,
  type CategoryUpdateBody,
  INVENTORY_SORT,
  type InventoryResponse,
  type InventorySort,
  ProductForm,
} from '@portal/shared/schemas/inventory';
import { splitSort } from '@portal/shared/schemas/sort';
import { and, asc, count, desc, eq, inArray, isNull, ne, type SQL, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { type Db, rowsOf, type Tx } from '../../db/client.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { categories, clients, products, scheduledPrices } from '../../db/schema/index.ts';
import { searchCondition } from '../../db/search.ts';
import { audit, requestMeta } from '../../lib/audit.ts';
import type { Deps } from '../../lib/deps.ts';
import { type AppError, badRequest, conflict, notFound } from '../../lib/errors.ts';
import { FileRejectedError, imageUrl, storeImageWithThumb, thumbUrl } from '../../lib/files.ts';
import { type MultipartBody, readMultipart } from '../../lib/multipart.ts';
import { MSG } from '../../messages.ts';

async function assertClient(db: Db | Tx, idCliente: number): Promise<void> {
  const [row] = await db.select({ id: clients.id }).from(clients).where(eq(clients.id, idCliente)).limit(1);
  if (!row) throw notFound(MSG.invClienteInexistente, 'CLIENT_NOT_FOUND');
}

/** A category of that client (another client's answers like a missing one). */
async function categoryOf(db: Db | Tx, idCliente: number, idCategoria: number) {
  const [row] = await db
    .select()
    .from(categories)
    .where(and(eq(categories.id, idCategoria), eq(categories.idCliente, idCliente)))
    .limit(1);
  if (!row) throw notFound(MSG.invCategoriaInexistente, 'CATEGORY_NOT_FOUND');
  return row;
}

// ---------------------------------------------------------------------------------------------------------
// Products

const productColumns = {
  id: products.id,
  idCliente: products.idCliente,
  idCategoria: products.idCategoria,
  categoria: categories.nombre,
  claveInterna: products.claveInterna,
  claveCliente: products.claveCliente,
  nombre: products.nombre,
  descripcion: products.descripcion,
  unidadDeMedida: products.unidadDeMedida,
  precio: products.precio,
  activo: products.activo,
  impuesto: products.impuesto,
  imagen: products.imagen,
  existencia: products.existencia,
  diasEntrega: products.diasEntrega,
  reservado: products.reservado,
  createdAt: products.createdAt,
  updatedAt: products.updatedAt,
  programadoPrecio: scheduledPrices.precio,
  programadoDesde: scheduledPrices.vigenteDesde,
};

/** The product's pending price change, if any (at most one: decision 0132). */
export const pendingPriceJoin = and(
  eq(scheduledPrices.productId, products.id),
  isNull(scheduledPrices.appliedAt),
);

type ProductRow = Omit<typeof products.$inferSelect, 'busqueda'> & {
  categoria: string;
  programadoPrecio: number | null;
  programadoDesde: string | null;
};

function productDto(r: ProductRow): AdminProductDto {
  return {
    id: r.id,
    id_cliente: r.idCliente,
    id_categoria: r.idCategoria,
    categoria: r.categoria,
    clave_interna: r.claveInterna,
    clave_cliente: r.claveCliente,
    nombre: r.nombre,
    descripcion: r.descripcion,
    unidad_de_medida: r.unidadDeMedida,
    precio: centavosToPesos(r.precio),
    activo: r.activo,
    impuesto: r.impuesto,
    imagen: imageUrl(r.imagen),
    miniatura: thumbUrl(r.imagen),
    existencia: r.existencia,
    reservado: r.reservado,
    dias_entrega: r.diasEntrega,
    precio_programado:
      r.programadoPrecio === null || r.programadoDesde === null
        ? null
        : { precio: centavosToPesos(r.programadoPrecio), vigente_desde: r.programadoDesde },
    created_at: r.createdAt.toISOString(),
    updated_at: r.updatedAt.toISOString(),
  };
}

export async function productById(db: Db | Tx, id: number): Promise<AdminProductDto | null> {
  const [row] = await db
    .select(productColumns)
    .from(products)
    .innerJoin(categories, eq(categories.id, products.idCategoria))
    .leftJoin(scheduledPrices, pendingPriceJoin)
    .where(eq(products.id, id))
    .limit(1);
  return row ? productDto(row) : null;
}

/**
 * The inventory's ORDER BY: the column asked for, then (for active, which many products share) the
 * product's name A→Z, then the id, so pages never overlap. Each reads an index on (id_cliente, …); the
 * category's sort is `idsByCategory`.
 */
function inventoryOrder(orden: InventorySort): SQL[] {
  const { field, direction } = splitSort(orden);
  const by = direction === 'asc' ? asc : desc;
  switch (field) {
    case 'clave':
      // Unique within the client: the id never decides.
      return [by(products.claveInterna)];
    case 'precio':
      return [by(products.precio), by(products.id)];
    case 'activo':
      return [by(products.activo), asc(products.nombre), asc(products.id)];
    default:
      return [by(products.nombre), by(products.id)];
  }
}

/**
 * One page of ids sorted by the category's name, then the product's name A→Z, then the id. A join sorted
 * by a column of the other table cannot read an index, and sorting a client's 100,000 products for each
 * page costs about 85 ms on the large data set: instead, for each of the client's few categories, its first
 * `offset + limit` products in name order (index (id_categoria, nombre, id)), and only those rows are sorted
 * (0.8 ms for the first page, 65 ms for page 100; decision 0069).
 */
async function idsByCategory(
  db: Db,
  idCliente: number,
  /** The list's filters on products, without the client's (the categories are the client's). */
  filters: SQL | undefined,
  direction: 'asc' | 'desc',
  limit: number,
  offset: number,
): Promise<number[]> {
  const rows = await rowsOf<{ id: number }>(
    db,
    sql`select p.id from (select id, nombre from categories where id_cliente = ${idCliente}) k
      cross join lateral (
        select ${products.id} as id, ${products.nombre} as nombre from ${products}
        where ${products.idCategoria} = k.id and ${filters ?? sql`true`}
        order by ${products.nombre}, ${products.id}
        limit ${offset + limit}
      ) p
      order by k.nombre ${direction === 'asc' ? sql`asc` : sql`desc`}, p.nombre, p.id
      limit ${limit} offset ${offset}`,
  );
  return rows.map((r) => Number(r.id));
}

/** A client's products (active or not), paginated and sorted by the server, searchable like the catalogue. */
export async function adminInventory(
  deps: Pick<Deps, 'db'>,
  query: {
    id_cliente: number;
    page: number;
    per_page: number;
    q?: string;
    categoria?: number;
    activo?: boolean;
    orden?: InventorySort;
  },
): Promise<InventoryResponse> {
  await assertClient(deps.db, query.id_cliente);
  const filters: SQL[] = [];
  if (query.categoria) filters.push(eq(products.idCategoria, query.categoria));
  if (query.activo !== undefined) filters.push(eq(products.activo, query.activo));
  const search = query.q ? searchCondition(query.q) : undefined;
  if (search) filters.push(search);
  const where = and(eq(products.idCliente, query.id_cliente), ...filters);
  const orden = query.orden ?? INVENTORY_SORT.byDefault;
  const offset = (query.page - 1) * query.per_page;
  const selectRows = () =>
    deps.db
      .select(productColumns)
      .from(products)
      .innerJoin(categories, eq(categories.id, products.idCategoria))
      .leftJoin(scheduledPrices, pendingPriceJoin);
  const pageRows = async () => {
    const { field, direction } = splitSort(orden);
    if (field !== 'categoria') {
      return selectRows()
        .where(where)
        .orderBy(...inventoryOrder(orden))
        .limit(query.per_page)
        .offset(offset);
    }
    // The client's categories hold only its products: no client condition inside, so that the planner
    // reads (id_categoria, nombre, id) in order rather than (id_cliente, id_categoria) and a sort.
    const ids = await idsByCategory(
      deps.db,
      query.id_cliente,
      and(...filters),
      direction,
      query.per_page,
      offset,
    );
    if (ids.length === 0) return [];
    const position = new Map(ids.map((id, i) => [id, i]));
    const rows = await selectRows().where(inArray(products.id, ids));
    return rows.sort((a, b) => position.get(a.id)! - position.get(b.id)!);
  };
  const [rows, totals] = await Promise.all([
    pageRows(),
    deps.db.select({ n: count() }).from(products).where(where),
  ]);
  return {
    productos: rows.map(productDto),
    total: totals[0]?.n ?? 0,
    page: query.page,
    per_page: query.per_page,
  };
}

/** Form fields from multipart (with the image) or from a JSON body (the activo toggle). */
async function readForm(request: FastifyRequest): Promise<MultipartBody> {
  if (request.isMultipart()) return readMultipart(request);
  const body = request.body;
  const fields: Record<string, string> = {};
  if (body && typeof body === 'object' && !Array.isArray(body)) {
    for (const [k, v] of Object.entries(body as Record<string, unknown>)) {
      if (v === null || v === undefined) continue;
      if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') fields[k] = String(v);
    }
  }
  return { fields, files: {}, received: {} };
}

/** Zod issues as field messages; the message is the field's own when there is one, else the spec's. */
function formError(issues: readonly { path: PropertyKey[]; message: string }[]): AppError {
  const errors: Record<string, string> = {};
  for (const issue of issues) errors[String(issue.path[0] ?? '_')] ??= issue.message;
  const distinct = new Set(Object.values(errors));
  const msg = distinct.size === 1 ? [...distinct][0]! : MSG.procesoFallido;
  return badRequest('VALIDATION', msg, errors);
}

async function parseProductForm(request: FastifyRequest) {
  const { fields, files } = await readForm(request);
  const parsed = ProductForm.safeParse(fields);
  if (!parsed.success) throw formError(parsed.error.issues);
  return { form: parsed.data, image: files.imagen ?? null };
}

async function storeImage(tx: Tx, idCliente: number, data: Buffer): Promise<string> {
  try {
    return (await storeImageWithThumb(tx, { data, idCliente })).id;
  } catch (err) {
    if (err instanceof FileRejectedError) throw badRequest(err.code, err.message, { imagen: err.message });
    throw err;
  }
}

async function assertClaveFree(tx: Tx, idCliente: number, clave: string, exceptId?: number) {
  const conditions = [eq(products.idCliente, idCliente), eq(products.claveInterna, clave)];
  if (exceptId) conditions.push(ne(products.id, exceptId));
  const [row] = await tx
    .select({ id: products.id })
    .from(products)
    .where(and(...conditions))
    .limit(1);
  if (row) throw conflict('DUPLICATE_CLAVE', MSG.invClaveInternaDuplicada(clave));
}

export async function createProduct(
  deps: Pick<Deps, 'db'>,
  request: FastifyRequest,
): Promise<{ status: 'ok'; msg: string; articulo: AdminProductDto }> {
  const auth = request.auth!;
  const { form, image } = await parseProductForm(request);
  if (form.id) throw badRequest('VALIDATION', MSG.invSoloAlta, { id: MSG.invSoloAlta });
  try {
    const id = await deps.db.transaction(async (tx) => {
      await assertClient(tx, form.id_cliente);
      await categoryOf(tx, form.id_cliente, form.id_categoria);
      await assertClaveFree(tx, form.id_cliente, form.clave_interna);
      const imagen = image ? await storeImage(tx, form.id_cliente, image.data) : null;
      const [row] = await tx
        .insert(products)
        .values({
          idCliente: form.id_cliente,
          idCategoria: form.id_categoria,
          claveInterna: form.clave_interna,
          claveCliente: form.clave_cliente ?? '',
          nombre: form.nombre,
          descripcion: form.descripcion ?? '',
          unidadDeMedida: form.unidad_de_medida || 'Pieza',
          precio: pesosToCentavos(form.precio),
          activo: form.activo ?? true,
          impuesto: form.impuesto ?? true,
          imagen,
          existencia: form.existencia ?? null,
          diasEntrega: form.dias_entrega ?? null,
        })
        .returning({ id: products.id });
      await audit(tx, {
        userId: auth.user.id,
        eventType: 'producto_creado',
        description: `Producto ${form.clave_interna} (${form.nombre}) creado`,
        metadata: {
          id_producto: row!.id,
          id_cliente: form.id_cliente,
          id_categoria: form.id_categoria,
          clave_interna: form.clave_interna,
          imagen: imagen ?? null,
          ...requestMeta(request),
        },
      });
      return row!.id;
    });
    return { status: 'ok', msg: MSG.creadoCorrectamente, articulo: (await productById(deps.db, id))! };
  } catch (err) {
    if (isUniqueViolation(err, 'products_cliente_clave_unique')) {
      throw conflict('DUPLICATE_CLAVE', MSG.invClaveInternaDuplicada(form.clave_interna));
    }
    throw err;
  }
}

export async function updateProduct(
  deps: Deps,
  request: FastifyRequest,
  id: number,
): Promise<{ status: 'ok'; msg: string; articulo: AdminProductDto; inventarios: InventoryResponse }> {
  const auth = request.auth!;
  const { form, image } = await parseProductForm(request);
  if (form.id && form.id !== id) throw badRequest('VALIDATION', MSG.invIdDistinto, { id: MSG.invIdDistinto });
  try {
    await deps.db.transaction(async (tx) => {
      const [current] = await tx.select().from(products).where(eq(products.id, id)).for('update').limit(1);
      if (!current || current.idCliente !== form.id_cliente) {
        throw notFound(MSG.invProductoInexistente, 'PRODUCT_NOT_FOUND');
      }
      await categoryOf(tx, current.idCliente, form.id_categoria);
      if (form.clave_interna !== current.claveInterna) {
        await assertClaveFree(tx, current.idCliente, form.clave_interna, id);
      }
      let imagen = current.imagen;
      if (image) imagen = await storeImage(tx, current.idCliente, image.data);
      else if (form.eliminar_imagen) imagen = null;
      const next = {
        idCategoria: form.id_categoria,
        claveInterna: form.clave_interna,
        claveCliente: form.clave_cliente ?? current.claveCliente,
        nombre: form.nombre,
        descripcion: form.descripcion ?? current.descripcion,
        unidadDeMedida: form.unidad_de_medida || current.unidadDeMedida,
        precio: pesosToCentavos(form.precio),
        activo: form.activo ?? current.activo,
        impuesto: form.impuesto ?? current.impuesto,
        imagen,
        existencia: form.existencia === undefined ? current.existencia : form.existencia,
        diasEntrega: form.dias_entrega === undefined ? current.diasEntrega : form.dias_entrega,
      };
      const changed = (Object.keys(next) as (keyof typeof next)[]).filter((k) => next[k] !== current[k]);
      if (changed.length === 0) return;
      await tx
        .update(products)
        .set({ ...next, updatedAt: deps.clock.now() })
        .where(eq(products.id, id));
      const toggle = changed.length === 1 && changed[0] === 'activo';
      await audit(tx, {
        userId: auth.user.id,
        eventType: toggle
          ? next.activo
            ? 'producto_activado'
            : 'producto_desactivado'
          : 'producto_modificado',
        description: toggle
          ? `Producto ${next.claveInterna} ${next.activo ? 'activado' : 'desactivado'}`
          : `Producto ${next.claveInterna} (${next.nombre}) modificado`,
        metadata: {
          id_producto: id,
          id_cliente: current.idCliente,
          cambios: changed.map(snakeCase),
          ...requestMeta(request),
        },
      });
    });
  } catch (err) {
    if (isUniqueViolation(err, 'products_cliente_clave_unique')) {
      throw conflict('DUPLICATE_CLAVE', MSG.invClaveInternaDuplicada(form.clave_interna));
    }
    throw err;
  }
  const [articulo, inventarios] = await Promise.all([
    productById(deps.db, id),
    adminInventory(deps, { id_cliente: form.id_cliente, page: 1, per_page: INVENTORY_PER_PAGE }),
  ]);
  return { status: 'ok', msg: MSG.modificadoCorrectamente, articulo: articulo!, inventarios };
}

/**
 * POST /api/productos/activar_lote: the products, all of one client, made active or inactive in one
 * transaction with one log entry. Any id of another client than the first's, or missing, is a 404 and
 * nothing changes.
 */
export async function activateBatch(
  deps: Pick<Deps, 'clock' | 'db'>,
  request: FastifyRequest,
  body: { ids: number[]; activo: boolean },
): Promise<ActivateBatchResponse> {
  const auth = request.auth!;
  const ids = [...new Set(body.ids)];
  return deps.db.transaction(async (tx) => {
    const found = await tx
      .select({ id: products.id, idCliente: products.idCliente, activo: products.activo })
      .from(products)
      .where(inArray(products.id, ids))
      .orderBy(asc(products.id))
      .for('update');
    const idCliente = found.find((p) => p.id === ids[0])?.idCliente;
    if (found.length !== ids.length || found.some((p) => p.idCliente !== idCliente)) {
      throw notFound(MSG.invProductoInexistente, 'PRODUCT_NOT_FOUND');
    }
    const toChange = found.filter((p) => p.activo !== body.activo).map((p) => p.id);
    if (toChange.length > 0) {
      await tx
        .update(products)
        .set({ activo: body.activo, updatedAt: deps.clock.now() })
        .where(inArray(products.id, toChange));
    }
    await audit(tx, {
      userId: auth.user.id,
      eventType: body.activo ? 'productos_activados_lote' : 'productos_desactivados_lote',
      description: `${ids.length} producto(s) ${body.activo ? 'activado(s)' : 'desactivado(s)'} en lote (${toChange.length} cambiaron)`,
      metadata: {
        id_cliente: idCliente,
        productos: ids.length,
        cambiados: toChange.length,
        activo: body.activo,
        ...(toChange.length <= 50 ? { ids_cambiados: toChange } : {}),
        ...requestMeta(request),
      },
    });
    return {
      status: 'ok',
      msg: SHARED_MSG.invLoteHecho(ids.length, body.activo),
      productos: ids.length,
      cambiados: toChange.length,
    };
  });
}

function snakeCase(key: string): string {
  return key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

// ---------------------------------------------------------------------------------------------------------
// Categories

async function categoryRows(db: Db | Tx, where: SQL): Promise<AdminCategoryDto[]> {
  const rows = await db
    .select({
      id: categories.id,
      idCliente: categories.idCliente,
      nombre: categories.nombre,
      icono: categories.icono,
      createdAt: categories.createdAt,
      updatedAt: categories.updatedAt,
      // Written out with explicit aliases: inside a one-table select Drizzle leaves columns unqualified.
      productos: sql<number>`(select count(*) from products p where p.id_categoria = categories.id)::int`,
      asignado: sql<number>`(select coalesce(sum(b.presupuesto), 0) from user_category_budgets b
        inner join users u on u.id = b.user_id where b.category_id = categories.id and u.activo)::bigint`,
    })
    .from(categories)
    .where(where)
    .orderBy(asc(categories.nombre), asc(categories.id));
  return rows.map((r) => ({
    id: r.id,
    id_cliente: r.idCliente,
    nombre: r.nombre,
    icono: r.icono,
    productos: Number(r.productos),
    presupuesto_total_asignado: centavosToPesos(Number(r.asignado)),
    created_at: r.createdAt.toISOString(),
    updated_at: r.updatedAt.toISOString(),
  }));
}

export async function listCategories(deps: Pick<Deps, 'db'>, idCliente: number): Promise<AdminCategoryDto[]> {
  await assertClient(deps.db, idCliente);
  return categoryRows(deps.db, eq(categories.idCliente, idCliente));
}

async function assertCategoryNameFree(tx: Tx, idCliente: number, nombre: string, exceptId?: number) {
  const conditions = [
    eq(categories.idCliente, idCliente),
    sql`lower(${categories.nombre}) = lower(${nombre})`,
  ];
  if (exceptId) conditions.push(ne(categories.id, exceptId));
  const [row] = await tx
    .select({ id: categories.id })
    .from(categories)
    .where(and(...conditions))
    .limit(1);
  if (row) throw conflict('DUPLICATE_CATEGORY', MSG.invCategoriaDuplicada(nombre));
}

export async function createCategory(
  deps: Pick<Deps, 'db'>,
  request: FastifyRequest,
  body: CategoryBody,
): Promise<{ status: 'ok'; msg: string; categoria: AdminCategoryDto }> {
  const auth = request.auth!;
  try {
    const id = await deps.db.transaction(async (tx) => {
      await assertClient(tx, body.id_cliente);
      await assertCategoryNameFree(tx, body.id_cliente, body.nombre);
      const [row] = await tx
        .insert(categories)
        .values({ idCliente: body.id_cliente, nombre: body.nombre, icono: body.icono ?? DEFAULT_ICONO })
        .returning({ id: categories.id });
      await audit(tx, {
        userId: auth.user.id,
        eventType: 'categoria_creada',
        description: `Categoría ${body.nombre} creada`,
        metadata: {
          id_categoria: row!.id,
          id_cliente: body.id_cliente,
          icono: body.icono ?? DEFAULT_ICONO,
          ...requestMeta(request),
        },
      });
      return row!.id;
    });
    const [categoria] = await categoryRows(deps.db, eq(categories.id, id));
    return { status: 'ok', msg: MSG.creadoCorrectamente, categoria: categoria! };
  } catch (err) {
    if (isUniqueViolation(err, 'categories_cliente_nombre_unique')) {
      throw conflict('DUPLICATE_CATEGORY', MSG.invCategoriaDuplicada(body.nombre));
    }
    throw err;
  }
}

export async function updateCategory(
  deps: Pick<Deps, 'clock' | 'db'>,
  request: FastifyRequest,
  id: number,
  body: CategoryUpdateBody,
): Promise<{ status: 'ok'; msg: string; categoria: AdminCategoryDto; categorias: AdminCategoryDto[] }> {
  const auth = request.auth!;
  let idCliente = 0;
  try {
    await deps.db.transaction(async (tx) => {
      const [current] = await tx
        .select()
        .from(categories)
        .where(eq(categories.id, id))
        .for('update')
        .limit(1);
      if (!current || (body.id_cliente !== undefined && body.id_cliente !== current.idCliente)) {
        throw notFound(MSG.invCategoriaInexistente, 'CATEGORY_NOT_FOUND');
      }
      idCliente = current.idCliente;
      const next = { nombre: body.nombre, icono: body.icono ?? current.icono };
      const changed = (Object.keys(next) as (keyof typeof next)[]).filter((k) => next[k] !== current[k]);
      if (changed.length === 0) return;
      if (next.nombre.toLowerCase() !== current.nombre.toLowerCase()) {
        await assertCategoryNameFree(tx, current.idCliente, next.nombre, id);
      }
      await tx
        .update(categories)
        .set({ ...next, updatedAt: deps.clock.now() })
        .where(eq(categories.id, id));
      await audit(tx, {
        userId: auth.user.id,
        eventType: 'categoria_modificada',
        description: `Categoría ${current.nombre} modificada`,
        metadata: {
          id_categoria: id,
          id_cliente: current.idCliente,
          cambios: changed,
          ...(changed.includes('nombre') ? { nombre_anterior: current.nombre, nombre: next.nombre } : {}),
          ...requestMeta(request),
        },
      });
    });
  } catch (err) {
    if (isUniqueViolation(err, 'categories_cliente_nombre_unique')) {
      throw conflict('DUPLICATE_CATEGORY', MSG.invCategoriaDuplicada(body.nombre));
    }
    throw err;
  }
  const categorias = await categoryRows(deps.db, eq(categories.idCliente, idCliente));
  return {
    status: 'ok',
    msg: MSG.modificadoCorrectamente,
    categoria: categorias.find((c) => c.id === id)!,
    categorias,
  };
}
