import { centavosToPesos } from '@portal/shared/domain/money';
import { disponibilidad, UMBRAL_EXISTENCIA_DEFAULT } from '@portal/shared/domain/stock';
import { businessDate } from '@portal/shared/domain/time';
import type { CatalogOrder, CatalogResponse } from '@portal/shared/schemas/shopping';
import { and, asc, count, eq, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { pendingPricesOf } from '../../db/pending-prices.ts';
import { preparedOnce, shapeOf, type Val } from '../../db/prepared.ts';
import { categories, products, userProducts } from '../../db/schema/index.ts';
import { searchSql, searchTerms } from '../../db/search.ts';
import type { Deps } from '../../lib/deps.ts';
import { imageUrl, thumbUrl } from '../../lib/files.ts';
import type { AuthContext } from '../../plugins/auth-guard.ts';

interface CatalogueFilter {
  userId: Val<number>;
  idCliente: Val<number>;
  categoria?: Val<number>;
  like?: Val<string>;
  price?: Val<string>;
}

/** What a buyer's catalogue shows: its active, assigned products of its client, maybe of one category. */
function catalogueWhere(f: CatalogueFilter) {
  const conditions: SQL[] = [
    eq(userProducts.userId, f.userId),
    eq(userProducts.asignado, true),
    eq(products.activo, true),
    eq(products.idCliente, f.idCliente),
  ];
  if (f.categoria !== undefined) conditions.push(eq(products.idCategoria, f.categoria));
  if (f.like !== undefined) conditions.push(searchSql({ like: f.like, price: f.price }));
  return and(...conditions);
}

/** Each order's columns; the product id last, so equal names, claves or prices keep one order across pages. */
const ORDER_BY: Record<CatalogOrder, SQL[]> = {
  nombre: [asc(products.nombre), asc(products.id)],
  clave: [asc(products.claveInterna), asc(products.id)],
  precio: [asc(products.precio), asc(products.nombre), asc(products.id)],
};

/**
 * The catalogue page for one combination of filters and one order, built once and run as a named prepared
 * statement: the buyer's most used list is neither rebuilt nor replanned.
 */
function cataloguePage(db: Db, shape: string, orden: CatalogOrder, filter: CatalogueFilter) {
  const p = sql.placeholder;
  return preparedOnce(db, `portal_catalogue_${shape}_${orden}`, (d) =>
    d
      .select({
        id: products.id,
        nombre: products.nombre,
        descripcion: products.descripcion,
        claveInterna: products.claveInterna,
        claveCliente: products.claveCliente,
        unidadDeMedida: products.unidadDeMedida,
        precio: products.precio,
        impuesto: products.impuesto,
        idCategoria: products.idCategoria,
        categoria: categories.nombre,
        imagen: products.imagen,
        cantidadLimite: userProducts.cantidadLimite,
        // Stock (decision 0124): columns of the product's own row, no other read.
        existencia: products.existencia,
        reservado: products.reservado,
        diasEntrega: products.diasEntrega,
        // The total rides on every row of the page: one query instead of a page and a count.
        total: sql<number>`count(*) over ()`.mapWith(Number),
      })
      .from(userProducts)
      .innerJoin(products, eq(products.id, userProducts.productId))
      .innerJoin(categories, eq(categories.id, products.idCategoria))
      .where(catalogueWhere(filter))
      .orderBy(...ORDER_BY[orden])
      .limit(p('limit'))
      .offset(p('offset')),
  );
}

/** The products assigned to the user: active, of its client, paginated by the server. */
export async function userCatalogue(
  deps: Pick<Deps, 'db' | 'clock' | 'config'>,
  auth: AuthContext,
  query: { q?: string; categoria?: number; page: number; per_page: number; orden?: CatalogOrder },
): Promise<CatalogResponse> {
  const terms = query.q ? searchTerms(query.q) : undefined;
  const filter = {
    userId: auth.user.id,
    idCliente: auth.user.idCliente ?? -1,
    categoria: query.categoria || undefined,
    like: terms?.like,
    price: terms?.price,
  };
  const { shape, args } = shapeOf(filter);
  const rows = await cataloguePage(deps.db, shape, query.orden ?? 'nombre', args).execute({
    ...filter,
    limit: query.per_page,
    offset: (query.page - 1) * query.per_page,
  });
  // A page past the end has no row to carry the total; only then is it counted on its own.
  let total = rows[0]?.total ?? 0;
  if (rows.length === 0 && query.page > 1) {
    const [counted] = await deps.db
      .select({ n: count() })
      .from(userProducts)
      .innerJoin(products, eq(products.id, userProducts.productId))
      .where(catalogueWhere(filter));
    total = counted?.n ?? 0;
  }
  const umbral = auth.client?.umbralExistencia ?? UMBRAL_EXISTENCIA_DEFAULT;
  const today = businessDate(deps.clock.now(), deps.config.BUSINESS_TZ);
  const pending = await pendingPricesOf(
    deps.db,
    rows.map((r) => r.id),
  );
  return {
    productos: rows.map((r) => ({
      id: r.id,
      nombre: r.nombre,
      descripcion: r.descripcion,
      clave_interna: r.claveInterna,
      clave_cliente: r.claveCliente,
      unidad_de_medida: r.unidadDeMedida,
      precio: centavosToPesos(r.precio),
      impuesto: r.impuesto,
      id_categoria: r.idCategoria,
      categoria: r.categoria,
      imagen: imageUrl(r.imagen),
      miniatura: thumbUrl(r.imagen),
      cantidad_limite: r.cantidadLimite,
      disponibilidad: disponibilidad(r, umbral, today),
      precio_programado: pending.get(r.id) ?? null,
    })),
    total,
    page: query.page,
    per_page: query.per_page,
  };
}
