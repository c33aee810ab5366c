import { centavosToPesos } from '@portal/shared/domain/money';
import { ROLES } from '@portal/shared/domain/roles';
import type {
  AssignAllResponse,
  AssignResponse,
  BatchAssignResponse,
  CopyAssignmentsResponse,
  CopyMode,
  UserProductsResponse,
} from '@portal/shared/schemas/assignments';
import { and, asc, count, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { type Db, rowsOf, type Tx } from '../../db/client.ts';
import { categories, clients, products, userProducts, users } from '../../db/schema/index.ts';
import { offsetOf, searchCondition } from '../../db/search.ts';
import { audit, requestMeta } from '../../lib/audit.ts';
import { ownClientOf, userInScope } from '../../lib/client-scope.ts';
import type { Deps } from '../../lib/deps.ts';
import { badRequest, notFound, unprocessable } from '../../lib/errors.ts';
import { imageUrl, thumbUrl } from '../../lib/files.ts';
import { MSG } from '../../messages.ts';
import type { AuthContext } from '../../plugins/auth-guard.ts';

const userNotFound = () => notFound(MSG.usuarioNoEncontrado, 'USER_NOT_FOUND');

/** The client's `limite_por_defecto`: the limit of a new assignment made without one (issue 37). */
export const defaultLimit = (idCliente: number) =>
  sql<number>`(select ${clients.limitePorDefecto} from ${clients} where ${clients.id} = ${idCliente})`;

/**
 * Only rol-1 users have product assignments; anyone else answers like a missing user, and so does a buyer
 * of another client for a client administrator (decision 0122).
 */
async function findBuyer(db: Db | Tx, auth: Pick<AuthContext, 'user'>, id: number, lock = false) {
  const own = ownClientOf(auth);
  const q = db
    .select({
      id: users.id,
      usuario: users.usuario,
      nombre: users.nombre,
      idCliente: clients.id,
      cliente: clients.nombre,
      limitePorDefecto: clients.limitePorDefecto,
    })
    .from(users)
    .innerJoin(clients, eq(clients.id, users.idCliente))
    .where(
      and(
        eq(users.id, id),
        eq(users.rol, ROLES.usuario),
        own === null ? undefined : eq(users.idCliente, own),
      ),
    )
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
  auth: Pick<AuthContext, 'user'>,
  id: number,
  query: { page: number; per_page: number; q?: string; categoria?: number },
): Promise<UserProductsResponse> {
  const buyer = await findBuyer(db, auth, id);
  if (!buyer) throw userNotFound();
  const conditions: SQL[] = [eq(products.idCliente, buyer.idCliente)];
  // Another client's category matches none of this client's products: an empty page, not an error.
  if (query.categoria) conditions.push(eq(products.idCategoria, query.categoria));
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
    cliente: { id: buyer.idCliente, nombre: buyer.cliente, limite_por_defecto: buyer.limitePorDefecto },
  };
}

/** POST /api/productos/asignar: enables or disables one product for a rol-1 user (upsert). */
export async function assignProduct(
  deps: Pick<Deps, 'clock' | 'db'>,
  request: FastifyRequest,
  auth: AuthContext,
  body: { id_producto: number; id_user: number; cantidad_limite?: number; status: boolean },
): Promise<AssignResponse> {
  return deps.db.transaction(async (tx) => {
    const buyer = await findBuyer(tx, auth, body.id_user, true);
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
        cantidadLimite: body.cantidad_limite ?? defaultLimit(buyer.idCliente),
      })
      .onConflictDoUpdate({
        target: [userProducts.userId, userProducts.productId],
        set: {
          asignado: body.status,
          cantidadLimite:
            body.cantidad_limite === undefined ? sql`${userProducts.cantidadLimite}` : body.cantidad_limite,
          updatedAt: deps.clock.now(),
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
 * The one set-based write of many assignments (asignar_todos, asignar_lote): every pair of `userIds` and the
 * client's products (all of them, only `productIds`, or only those of `categoryIds`) in one
 * INSERT ... SELECT ... ON CONFLICT, whatever the number of users and products. Without a limit each
 * assignment keeps its own (the client's `limite_por_defecto` for a new one). Returns the pairs written. The caller has checked that the
 * users are rol-1 users of `idCliente`.
 */
async function writeAssignments(
  tx: Tx,
  o: {
    userIds: readonly number[];
    idCliente: number;
    productIds?: readonly number[];
    categoryIds?: readonly number[];
    asignado: boolean;
    limit: number | null;
  },
): Promise<number> {
  const list = (ids: readonly number[]) =>
    sql.join(
      ids.map((i) => sql`${i}::integer`),
      sql`, `,
    );
  const onlyProducts = o.productIds ? sql` and p.id in (${list(o.productIds)})` : sql``;
  const onlyCategory = o.categoryIds ? sql` and p.id_categoria in (${list(o.categoryIds)})` : sql``;
  const [row] = await rowsOf<{ n: number }>(
    tx,
    sql`
      with written as (
        insert into ${userProducts} (user_id, product_id, asignado, cantidad_limite, updated_at)
        select u.id, p.id, ${o.asignado}::boolean, coalesce(${o.limit}::integer, ${defaultLimit(o.idCliente)}), now()
        from ${users} u
        cross join ${products} p
        where u.id in (${list(o.userIds)}) and p.id_cliente = ${o.idCliente}${onlyProducts}${onlyCategory}
        on conflict (user_id, product_id) do update set
          asignado = excluded.asignado,
          cantidad_limite = coalesce(${o.limit}::integer, ${userProducts}.cantidad_limite),
          updated_at = excluded.updated_at
        returning 1
      )
      select count(*)::integer as n from written`,
  );
  return Number(row?.n ?? 0);
}

/**
 * POST /api/productos/asignar_todos: enables or disables every product of the user's client (or only
 * `ids`, which must all be of that client) in one statement. Without cantidad_limite each assignment
 * keeps its limit (1 for new ones).
 */
export async function assignAll(
  deps: Pick<Deps, 'db'>,
  request: FastifyRequest,
  auth: AuthContext,
  body: { id_user: number; status: boolean; cantidad_limite?: number; ids?: number[] },
): Promise<AssignAllResponse> {
  return deps.db.transaction(async (tx) => {
    const buyer = await findBuyer(tx, auth, body.id_user, true);
    if (!buyer) throw userNotFound();
    const ids = body.ids ? [...new Set(body.ids)] : undefined;
    const limit = body.cantidad_limite ?? null;
    const written = await writeAssignments(tx, {
      userIds: [buyer.id],
      idCliente: buyer.idCliente,
      productIds: ids,
      asignado: body.status,
      limit,
    });
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

/** Users by id (any role but administrators, who have no client), locked in id order. */
async function lockClientUsers(tx: Tx, ids: readonly number[]) {
  return tx
    .select({
      id: users.id,
      usuario: users.usuario,
      nombre: users.nombre,
      rol: users.rol,
      idCliente: users.idCliente,
    })
    .from(users)
    .where(and(inArray(users.id, [...ids]), sql`${users.idCliente} is not null`))
    .orderBy(asc(users.id))
    .for('update', { of: users });
}

/**
 * POST /api/usuarios/{id}/productos/copiar (decision 0061). Both users are rol-1 users of one client.
 * reemplazar: for every product the source or the target has an assignment of, the target gets the
 * source's (asignado, cantidad_limite), a product the source has none of being "not enabled, limit 1" —
 * so the target's list afterwards reads exactly like the source's. agregar: each product the source has
 * enabled and the target has not (no row, or not enabled) is enabled with the source's limit; a product
 * both have enabled keeps the target's limit, and nothing is disabled. Cart lines are left alone, as with
 * the single switch: a disabled product stays in the cart and the purchase refuses it.
 */
export async function copyAssignments(
  deps: Pick<Deps, 'db'>,
  request: FastifyRequest,
  auth: AuthContext,
  targetId: number,
  body: { desde_usuario_id: number; modo: CopyMode },
): Promise<CopyAssignmentsResponse> {
  const sourceId = body.desde_usuario_id;
  if (sourceId === targetId) {
    throw badRequest('SAME_USER', MSG.copiaMismoUsuario, { desde_usuario_id: MSG.copiaMismoUsuario });
  }
  return deps.db.transaction(async (tx) => {
    const found = await lockClientUsers(tx, [targetId, sourceId]);
    const target = found.find((u) => u.id === targetId);
    const source = found.find((u) => u.id === sourceId);
    // A source of another client answers like a missing user.
    if (
      !target ||
      !source ||
      source.idCliente !== target.idCliente ||
      !userInScope(auth, target) ||
      !userInScope(auth, source)
    )
      throw userNotFound();
    if (target.rol !== ROLES.usuario || source.rol !== ROLES.usuario) {
      throw unprocessable('NOT_A_BUYER', MSG.asignacionSoloUsuarios);
    }
    const idCliente = target.idCliente!;
    const before = await assignedCount(tx, target.id, idCliente);
    const statement =
      body.modo === 'reemplazar'
        ? sql`
          insert into ${userProducts} (user_id, product_id, asignado, cantidad_limite, updated_at)
          select ${target.id}::integer, p.id, coalesce(s.asignado, false), coalesce(s.cantidad_limite, 1), now()
          from ${products} p
          left join ${userProducts} s on s.user_id = ${source.id} and s.product_id = p.id
          left join ${userProducts} t on t.user_id = ${target.id} and t.product_id = p.id
          where p.id_cliente = ${idCliente} and (s.user_id is not null or t.user_id is not null)
          on conflict (user_id, product_id) do update set
            asignado = excluded.asignado,
            cantidad_limite = excluded.cantidad_limite,
            updated_at = excluded.updated_at
          where (${userProducts}.asignado, ${userProducts}.cantidad_limite)
            is distinct from (excluded.asignado, excluded.cantidad_limite)
          returning 1`
        : sql`
          insert into ${userProducts} (user_id, product_id, asignado, cantidad_limite, updated_at)
          select ${target.id}::integer, s.product_id, true, s.cantidad_limite, now()
          from ${userProducts} s
          join ${products} p on p.id = s.product_id and p.id_cliente = ${idCliente}
          where s.user_id = ${source.id} and s.asignado
          on conflict (user_id, product_id) do update set
            asignado = true,
            cantidad_limite = excluded.cantidad_limite,
            updated_at = excluded.updated_at
          where not ${userProducts}.asignado
          returning 1`;
    const written = (await rowsOf(tx, statement)).length;
    const after = await assignedCount(tx, target.id, idCliente);
    await audit(tx, {
      userId: auth.user.id,
      eventType: 'asignaciones_copiadas',
      description: `Productos de ${source.usuario} copiados a ${target.usuario} (${body.modo}): ${written} asignación(es) escrita(s), ${after} habilitado(s)`,
      metadata: {
        id_usuario: target.id,
        desde_usuario_id: source.id,
        modo: body.modo,
        escritos: written,
        habilitados_antes: before,
        habilitados_despues: after,
        ...requestMeta(request),
      },
    });
    return {
      status: 'ok',
      msg:
        body.modo === 'reemplazar'
          ? MSG.copiaReemplazo(source.usuario, target.usuario, after)
          : MSG.copiaAgregado(source.usuario, target.usuario, after - before),
      usuario: { id: target.id, usuario: target.usuario, nombre: target.nombre, asignados: after },
      actualizados: written,
    };
  });
}

/**
 * POST /api/productos/asignar_lote (decision 0061): one assignment for every pair of the rol-1 users and
 * the products (a list, or every product of a category) of one client, in one transaction and one
 * statement. The client is the first user's; any other client's user, product or category answers like
 * a missing one and nothing is written.
 */
export async function assignBatch(
  deps: Pick<Deps, 'db'>,
  request: FastifyRequest,
  auth: AuthContext,
  body: {
    usuarios: number[];
    productos?: number[];
    categoria_id?: number;
    categorias?: number[];
    asignado: boolean;
    cantidad_limite?: number;
  },
): Promise<BatchAssignResponse> {
  const userIds = [...new Set(body.usuarios)];
  const productIds = body.productos ? [...new Set(body.productos)] : undefined;
  // One category (categoria_id) or several (categorias): the same thing. The schema lets exactly one of
  // productos, categoria_id and categorias through.
  const categoryList = productIds ? undefined : [...new Set(body.categorias ?? [body.categoria_id!])];
  return deps.db.transaction(async (tx) => {
    const found = await lockClientUsers(tx, userIds);
    const idCliente = found.find((u) => u.id === userIds[0])?.idCliente;
    if (
      found.length !== userIds.length ||
      found.some((u) => u.idCliente !== idCliente || !userInScope(auth, u))
    ) {
      throw userNotFound();
    }
    if (found.some((u) => u.rol !== ROLES.usuario)) {
      throw unprocessable('NOT_A_BUYER', MSG.asignacionSoloUsuarios);
    }
    let productCount: number;
    let categoria: string | undefined;
    if (productIds) {
      const [row] = await tx
        .select({ n: count() })
        .from(products)
        .where(and(inArray(products.id, productIds), eq(products.idCliente, idCliente!)));
      if ((row?.n ?? 0) !== productIds.length) throw notFound(MSG.productoNoExiste, 'PRODUCT_NOT_FOUND');
      productCount = productIds.length;
    } else {
      const categoryIds = categoryList!;
      const cats = await tx
        .select({ nombre: categories.nombre })
        .from(categories)
        .where(and(inArray(categories.id, categoryIds), eq(categories.idCliente, idCliente!)))
        .orderBy(asc(categories.nombre));
      // Any category of another client (or missing) answers like a missing one; nothing is written.
      if (cats.length !== categoryIds.length)
        throw notFound(MSG.invCategoriaInexistente, 'CATEGORY_NOT_FOUND');
      const [n] = await tx
        .select({ n: count() })
        .from(products)
        .where(inArray(products.idCategoria, categoryIds));
      productCount = n?.n ?? 0;
      categoria = cats.length <= 3 ? cats.map((c) => c.nombre).join(', ') : `${cats.length} categorías`;
    }
    const limit = body.cantidad_limite ?? null;
    const written = await writeAssignments(tx, {
      userIds,
      idCliente: idCliente!,
      productIds,
      categoryIds: categoryList,
      asignado: body.asignado,
      limit,
    });
    await audit(tx, {
      userId: auth.user.id,
      eventType: 'asignacion_lote',
      description: `${productCount} producto(s)${categoria ? ` de ${categoria}` : ''} ${body.asignado ? 'habilitado(s)' : 'no habilitado(s)'} para ${userIds.length} usuario(s)`,
      metadata: {
        id_cliente: idCliente,
        usuarios: userIds.length,
        productos: productCount,
        escritos: written,
        asignado: body.asignado,
        cantidad_limite: limit,
        ...(categoryList?.length === 1 ? { id_categoria: categoryList[0] } : {}),
        ...(categoryList && categoryList.length > 1 ? { ids_categorias: categoryList } : {}),
        ...(userIds.length <= 50 ? { ids_usuarios: userIds } : {}),
        ...requestMeta(request),
      },
    });
    return {
      status: 'ok',
      msg: MSG.loteAsignado(productCount, userIds.length, body.asignado),
      usuarios: userIds.length,
      productos: productCount,
      actualizados: written,
    };
  });
}
