import { centavosToPesos } from '@portal/shared/domain/money';
import type { CatalogResponse } from '@portal/shared/schemas/shopping';
import { and, asc, count, eq, type Placeholder, type SQL, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client.ts';
import { preparedOnce, type Val } from '../../db/prepared.ts';
import { categories, products, userProducts } from '../../db/schema/index.ts';
import type { AuthContext } from '../../plugins/auth-guard.ts';
import { imageUrl, thumbUrl } from './buyer-state.ts';

const ACCENTED = 'áàäâéèëêíìïîóòöôúùüûñç';
const PLAIN = 'aaaaeeeeiiiioooouuuunc';

/** Lower-case and without accents, the same way on both sides of a comparison. */
export function foldText(text: string): string {
  return text
    .toLowerCase()
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '');
}

const folded = (column: SQL | typeof products.nombre) =>
  sql`translate(lower(${column}), ${ACCENTED}, ${PLAIN})`;

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

interface SearchTerms<T> {
  /** `%term%`, folded and escaped. */
  like: T;
  /** `price%` when the term reads as a price ("189.9", "$1,250"). */
  price?: T;
}

/** The values a search compares with; undefined for an empty one. */
function searchTerms(q: string): SearchTerms<string> | undefined {
  const term = foldText(q.trim());
  if (!term) return undefined;
  const price = term.replace(/[$,\s]/g, '');
  return {
    like: `%${escapeLike(term)}%`,
    price: /^\d+(\.\d{0,2})?$/.test(price) ? `${escapeLike(price)}%` : undefined,
  };
}

function searchSql(terms: SearchTerms<string | Placeholder>): SQL {
  const parts: SQL[] = [
    sql`${folded(products.nombre)} like ${terms.like}`,
    sql`lower(${products.claveInterna}) like ${terms.like}`,
    sql`lower(${products.claveCliente}) like ${terms.like}`,
  ];
  if (terms.price !== undefined) {
    parts.push(sql`to_char(${products.precio} / 100.0, 'FM999999999990.00') like ${terms.price}`);
  }
  return sql`(${sql.join(parts, sql` or `)})`;
}

/** Search by name, internal or client key (case- and accent-insensitive) or price ("189.9", "$1,250"). */
export function searchCondition(q: string): SQL | undefined {
  const terms = searchTerms(q);
  return terms && searchSql(terms);
}

/** What a buyer's catalogue shows: its active, assigned products of its client, maybe of one category. */
function catalogueWhere(v: {
  userId: Val<number>;
  idCliente: Val<number>;
  categoria?: Val<number>;
  terms?: SearchTerms<Val<string>>;
}) {
  const conditions: SQL[] = [
    eq(userProducts.userId, v.userId),
    eq(userProducts.asignado, true),
    eq(products.activo, true),
    eq(products.idCliente, v.idCliente),
  ];
  if (v.categoria !== undefined) conditions.push(eq(products.idCategoria, v.categoria));
  if (v.terms) conditions.push(searchSql(v.terms));
  return and(...conditions);
}

type CatalogueShape = { categoria: boolean; search: boolean; price: boolean };

/**
 * The catalogue page in one of its shapes (with or without category and search), built once per shape and
 * run as a named prepared statement: the buyer's most used list is neither rebuilt nor replanned.
 */
function cataloguePage(db: Db, shape: CatalogueShape) {
  const p = sql.placeholder;
  const name = `portal_catalogue_${Number(shape.categoria)}${Number(shape.search)}${Number(shape.price)}`;
  return preparedOnce(db, name, (d) =>
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
        // The total rides on every row of the page: one query instead of a page and a count.
        total: sql<number>`count(*) over ()`.mapWith(Number),
      })
      .from(userProducts)
      .innerJoin(products, eq(products.id, userProducts.productId))
      .innerJoin(categories, eq(categories.id, products.idCategoria))
      .where(
        catalogueWhere({
          userId: p('userId'),
          idCliente: p('idCliente'),
          categoria: shape.categoria ? p('categoria') : undefined,
          terms: shape.search ? { like: p('like'), price: shape.price ? p('price') : undefined } : undefined,
        }),
      )
      .orderBy(asc(products.nombre), asc(products.id))
      .limit(p('limit'))
      .offset(p('offset')),
  );
}

/** The products assigned to the user: active, of its client, paginated by the server. */
export async function userCatalogue(
  app: FastifyInstance,
  auth: AuthContext,
  query: { q?: string; categoria?: number; page: number; per_page: number },
): Promise<CatalogResponse> {
  const userId = auth.user.id;
  const idCliente = auth.user.idCliente ?? -1;
  const terms = query.q ? searchTerms(query.q) : undefined;
  const rows = await cataloguePage(app.db, {
    categoria: Boolean(query.categoria),
    search: Boolean(terms),
    price: terms?.price !== undefined,
  }).execute({
    userId,
    idCliente,
    categoria: query.categoria,
    like: terms?.like,
    price: terms?.price,
    limit: query.per_page,
    offset: (query.page - 1) * query.per_page,
  });
  // A page past the end has no row to carry the total; only then is it counted on its own.
  let total = rows[0]?.total ?? 0;
  if (rows.length === 0 && query.page > 1) {
    const [counted] = await app.db
      .select({ n: count() })
      .from(userProducts)
      .innerJoin(products, eq(products.id, userProducts.productId))
      .where(catalogueWhere({ userId, idCliente, categoria: query.categoria || undefined, terms }));
    total = counted?.n ?? 0;
  }
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
    })),
    total,
    page: query.page,
    per_page: query.per_page,
  };
}
