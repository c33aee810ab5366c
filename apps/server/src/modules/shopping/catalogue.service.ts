import { centavosToPesos } from '@portal/shared/domain/money';
import type { CatalogResponse } from '@portal/shared/schemas/shopping';
import { and, asc, count, eq, type SQL, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
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

/** Search by name, internal or client key (case- and accent-insensitive) or price ("189.9", "$1,250"). */
export function searchCondition(q: string): SQL | undefined {
  const term = foldText(q.trim());
  if (!term) return undefined;
  const like = `%${escapeLike(term)}%`;
  const parts: SQL[] = [
    sql`${folded(products.nombre)} like ${like}`,
    sql`lower(${products.claveInterna}) like ${like}`,
    sql`lower(${products.claveCliente}) like ${like}`,
  ];
  const price = term.replace(/[$,\s]/g, '');
  if (/^\d+(\.\d{0,2})?$/.test(price)) {
    parts.push(sql`to_char(${products.precio} / 100.0, 'FM999999999990.00') like ${`${escapeLike(price)}%`}`);
  }
  return sql`(${sql.join(parts, sql` or `)})`;
}

/** The products assigned to the user: active, of its client, paginated by the server. */
export async function userCatalogue(
  app: FastifyInstance,
  auth: AuthContext,
  query: { q?: string; categoria?: number; page: number; per_page: number },
): Promise<CatalogResponse> {
  const userId = auth.user.id;
  const idCliente = auth.user.idCliente ?? -1;
  const conditions: SQL[] = [
    eq(userProducts.userId, userId),
    eq(userProducts.asignado, true),
    eq(products.activo, true),
    eq(products.idCliente, idCliente),
  ];
  if (query.categoria) conditions.push(eq(products.idCategoria, query.categoria));
  const search = query.q ? searchCondition(query.q) : undefined;
  if (search) conditions.push(search);
  const where = and(...conditions);
  const rows = await app.db
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
    .where(where)
    .orderBy(asc(products.nombre), asc(products.id))
    .limit(query.per_page)
    .offset((query.page - 1) * query.per_page);
  // A page past the end has no row to carry the total; only then is it counted on its own.
  let total = rows[0]?.total ?? 0;
  if (rows.length === 0 && query.page > 1) {
    const [counted] = await app.db
      .select({ n: count() })
      .from(userProducts)
      .innerJoin(products, eq(products.id, userProducts.productId))
      .where(where);
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
