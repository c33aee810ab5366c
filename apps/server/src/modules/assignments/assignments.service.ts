import { centavosToPesos } from '@portal/shared/domain/money';
import { ROLES } from '@portal/shared/domain/roles';
import { MSG } from '@portal/shared/messages';
import type {
  AssignAllResponse,
  AssignResponse,
  UserProductsResponse,
} from '@portal/shared/schemas/assignments';
import { and, asc, count, eq, type SQL, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type Db, rowsOf, type Tx } from '../../db/client.ts';
import { categories, clients, products, userProducts, users } from '../../db/schema/index.ts';
import { offsetOf } from '../../db/search.ts';
import { audit, requestMeta } from '../../lib/audit.ts';
import { notFound } from '../../lib/errors.ts';
import type { AuthContext } from '../../plugins/auth-guard.ts';
import { imageUrl, thumbUrl } from '../shopping/buyer-state.ts';
import { searchCondition } from '../shopping/catalogue.service.ts';

const userNotFound = () => notFound(MSG.usuarioNoEncontrado, 'USER_NOT_FOUND');

/** Only rol-1 users have product assignments; anyone else answers like a missing user. */
async function findBuyer(db: Db | Tx, id: number, lock = false) {
  const q = db
    .select({
      id: users.id,
      usuario: users.usuario,
      nombre: users.nombre,
      idCliente: clients.id,
      cliente: clients.nombre,
    })
    .from(users)
    .innerJoin(clients, eq(clients.id, users.idCliente))
    .where(and(eq(users.id, id), eq(users.rol, ROLES.usuario)))
    .limit(1);
  const [row] = lock ? await q.for('update', { of: users }) : await q;
  return row;
}

async function assignedCount(db: Db | Tx, userId: number, idCliente: number): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(userProducts)
    .innerJoin(products, eq(products.id, userProducts.productId))
    .where(
      and(
        eq(userProducts.userId, userId),
        eq(userProducts.asignado, true),
        eq(products.idCliente, idCliente),
      ),
    );
  return row?.n ?? 0;
}

/** Every product of the user's client (active or not) with the user's assignment, by name. */
export async function userProductList(
  db: Db,
  id: number,
  query: { page: number; per_page: number; q?: string },
): Promise<UserProductsResponse> {
  const buyer = await findBuyer(db, id);
  if (!buyer) throw userNotFound();
  const conditions: SQL[] = [eq(products.idCliente, buyer.idCliente)];
  const search = query.q ? searchCondition(query.q) : undefined;
  if (search) conditions.push(search);
  const where = and(...conditions);
  const [rows, totals, asignados] = await Promise.all([
    db
      .select({
        product: products,
        categoria: categories.nombre,
        asignado: sql<boolean>`coalesce(${userProducts.asignado}, false)`,
        cantidadLimite: sql<number>`coalesce(${userProducts.cantidadLimite}, 1)`,
      })
      .from(products)
      .innerJoin(categories, eq(categories.id, products.idCategoria))
      .leftJoin(userProducts, and(eq(userProducts.productId, products.id), eq(userProducts.userId, buyer.id)))
      .where(where)
      .orderBy(asc(products.nombre), asc(products.id))
      .limit(query.per_page)
      .offset(offsetOf(query.page, query.per_page)),
    db.select({ n: count() }).from(products).where(where),
    assignedCount(db, buyer.id, buyer.idCliente),
  ]);
  return {
    productos: rows.map(({ product: p, categoria, asignado, cantidadLimite }) => ({
      id: p.id,
      id_cliente: p.idCliente,
      id_categoria: p.idCategoria,
      categoria,
      clave_interna: p.claveInterna,
      clave_cliente: p.claveCliente,
      nombre: p.nombre,
      descripcion: p.descripcion,
      unidad_de_medida: p.unidadDeMedida,
      precio: centavosToPesos(p.precio),
      activo: p.activo,
      impuesto: p.impuesto,
      imagen: imageUrl(p.imagen),
      miniatura: thumbUrl(p.imagen),
      asignado: Boolean(asignado),
      cantidad_limite: Number(cantidadLimite),
    })),
    total: totals[0]?.n ?? 0,
    page: query.page,
    per_page: query.per_page,
    usuario: { id: buyer.id, usuario: buyer.usuario, nombre: buyer.nombre, asignados },
    cliente: { id: buyer.idCliente, nombre: buyer.cliente },
  };
}

/** POST /api/productos/asignar: enables or disables one product for a rol-1 user (upsert). */
export async function assignProduct(
  app: FastifyInstance,
  request: FastifyRequest,
  auth: AuthContext,
  body: { id_producto: number; id_user: number; cantidad_limite?: number; status: boolean },
): Promise<AssignResponse> {
  return app.db.transaction(async (tx) => {
    const buyer = await findBuyer(tx, body.id_user, true);
    if (!buyer) throw userNotFound();
    const [product] = await tx
      .select({ id: products.id, nombre: products.nombre })
      .from(products)
      .where(and(eq(products.id, body.id_producto), eq(products.idCliente, buyer.idCliente)))
      .limit(1);
    // Another client's product answers like a missing one.
    if (!product) throw notFound(MSG.productoNoExiste, 'PRODUCT_NOT_FOUND');
    const [row] = await tx
      .insert(userProducts)
      .values({
        userId: buyer.id,
        productId: product.id,
        asignado: body.status,
        cantidadLimite: body.cantidad_limite ?? 1,
      })
      .onConflictDoUpdate({
        target: [userProducts.userId, userProducts.productId],
        set: {
          asignado: body.status,
          cantidadLimite:
            body.cantidad_limite === undefined ? sql`${userProducts.cantidadLimite}` : body.cantidad_limite,
          updatedAt: new Date(),
        },
      })
      .returning();
    await audit(tx, {
      userId: auth.user.id,
      eventType: 'asignacion_actualizada',
      description: `Producto ${product.nombre} ${row!.asignado ? 'habilitado' : 'no habilitado'} para ${buyer.usuario}`,
      metadata: {
        id_usuario: buyer.id,
        id_producto: product.id,
        asignado: row!.asignado,
        cantidad_limite: row!.cantidadLimite,
        ...requestMeta(request),
      },
    });
    return {
      status: 'ok',
      msg: row!.asignado ? MSG.productoHabilitado : MSG.productoDeshabilitado,
      usuario: {
        id: buyer.id,
        usuario: buyer.usuario,
        nombre: buyer.nombre,
        asignados: await assignedCount(tx, buyer.id, buyer.idCliente),
      },
      producto: { id: product.id, asignado: row!.asignado, cantidad_limite: row!.cantidadLimite },
    };
  });
}

/**
 * POST /api/productos/asignar_todos: enables or disables every product of the user's client (or only
 * `ids`, which must all be of that client) in one statement. Without cantidad_limite each assignment
 * keeps its limit (1 for new ones).
 */
export async function assignAll(
  app: FastifyInstance,
  request: FastifyRequest,
  auth: AuthContext,
  body: { id_user: number; status: boolean; cantidad_limite?: number; ids?: number[] },
): Promise<AssignAllResponse> {
  return app.db.transaction(async (tx) => {
    const buyer = await findBuyer(tx, body.id_user, true);
    if (!buyer) throw userNotFound();
    const ids = body.ids ? [...new Set(body.ids)] : undefined;
    const limit = body.cantidad_limite ?? null;
    const onlyIds = ids
      ? sql` and p.id in (${sql.join(
          ids.map((i) => sql`${i}`),
          sql`, `,
        )})`
      : sql``;
    const written = (
      await rowsOf(
        tx,
        sql`
      insert into ${userProducts} (user_id, product_id, asignado, cantidad_limite, updated_at)
      select ${buyer.id}::integer, p.id, ${body.status}::boolean, coalesce(${limit}::integer, 1), now()
      from ${products} p
      where p.id_cliente = ${buyer.idCliente}${onlyIds}
      on conflict (user_id, product_id) do update set
        asignado = excluded.asignado,
        cantidad_limite = coalesce(${limit}::integer, ${userProducts}.cantidad_limite),
        updated_at = excluded.updated_at
      returning product_id`,
      )
    ).length;
    // An id of another client (or none at all) answers like a missing product; nothing is written.
    if (ids && written !== ids.length) throw notFound(MSG.productoNoExiste, 'PRODUCT_NOT_FOUND');
    await audit(tx, {
      userId: auth.user.id,
      eventType: 'asignacion_actualizada',
      description: `${written} producto(s) ${body.status ? 'habilitado(s)' : 'no habilitado(s)'} para ${buyer.usuario}`,
      metadata: {
        id_usuario: buyer.id,
        asignado: body.status,
        cantidad_limite: limit,
        productos: written,
        masiva: true,
        ...(ids ? { ids } : {}),
        ...requestMeta(request),
      },
    });
    return {
      status: 'ok',
      msg: body.status ? MSG.productosHabilitados(written) : MSG.productosDeshabilitados(written),
      usuario: {
        id: buyer.id,
        usuario: buyer.usuario,
        nombre: buyer.nombre,
        asignados: await assignedCount(tx, buyer.id, buyer.idCliente),
      },
      actualizados: written,
    };
  });
}
