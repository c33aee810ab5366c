import { centavosToPesos } from '@portal/shared/domain/money';
import { USERS_PER_PAGE } from '@portal/shared/limits';
import { splitSort } from '@portal/shared/schemas/sort';
import { type UserDto, type UsersQuery, type UsersResponse, UsersSort } from '@portal/shared/schemas/users';
import { and, asc, count, desc, eq, inArray, ne, type SQL, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { COUNT_ROWS_TO_MERGE, mergeKeptCounts } from '../../db/kept-counts.ts';
import { type PageWindow, pageWindow, preparedOnce, shapeOf, type Val } from '../../db/prepared.ts';
import {
  clients,
  orders,
  userCategoryBudgets,
  userCounts,
  userProducts,
  users,
} from '../../db/schema/index.ts';
import { foldedLike, foldedPattern } from '../../db/search.ts';
import { iso } from '../../lib/form.ts';

export type UserRow = typeof users.$inferSelect;

/** Category budgets (centavos) of some users. */
export async function budgetsOf(db: Db | Tx, userIds: number[]) {
  const map = new Map<number, { id: number; presupuesto: number }[]>();
  if (userIds.length === 0) return map;
  const rows = await db
    .select({
      userId: userCategoryBudgets.userId,
      id: userCategoryBudgets.categoryId,
      presupuesto: userCategoryBudgets.presupuesto,
    })
    .from(userCategoryBudgets)
    .where(inArray(userCategoryBudgets.userId, userIds))
    .orderBy(asc(userCategoryBudgets.categoryId));
  for (const r of rows) {
    const list = map.get(r.userId) ?? [];
    list.push({ id: r.id, presupuesto: r.presupuesto });
    map.set(r.userId, list);
  }
  return map;
}

export function userDto(
  u: UserRow,
  cliente: { id: number; nombre: string },
  budgets: { id: number; presupuesto: number }[],
): UserDto {
  return {
    id: u.id,
    usuario: u.usuario,
    user_id: u.email,
    nombre: u.nombre,
    rol: u.rol,
    direccion_entrega: u.direccionEntrega,
    area: u.area,
    localidad: u.localidad,
    region: u.region,
    coordinacion: u.coordinacion,
    calle: u.calle,
    colonia: u.colonia,
    ciudad: u.ciudad,
    cp: u.cp,
    estado: u.estado,
    active_week: u.activeWeek,
    entrega_week: u.entregaWeek,
    activo: u.activo,
    limite_de_compras: u.limiteDeCompras,
    presupuesto_default: centavosToPesos(u.presupuestoDefault),
    id_area: u.idArea,
    categorias: JSON.stringify(
      budgets.map((b) => ({ id: b.id, presupuesto: centavosToPesos(b.presupuesto) })),
    ),
    id_cliente: cliente.id,
    cliente,
    dos_pasos: u.totpSecret !== null,
    ultimo_acceso: u.ultimoAcceso ? iso(u.ultimoAcceso) : null,
    created_at: iso(u.createdAt),
    updated_at: iso(u.updatedAt),
  };
}

/** A user of a client (never an administrator) with its client's name; undefined otherwise. */
export async function findClientUser(db: Db | Tx, id: number, lock = false) {
  const q = db
    .select({ user: users, cliente: { id: clients.id, nombre: clients.nombre } })
    .from(users)
    .innerJoin(clients, eq(clients.id, users.idCliente))
    .where(and(eq(users.id, id), ne(users.rol, 4)))
    .limit(1);
  const [row] = lock ? await q.for('update', { of: users }) : await q;
  return row;
}

const SEARCHED = [users.usuario, users.nombre, users.email];

interface UsersFilter {
  idCliente?: Val<number>;
  like?: Val<string>;
  rol?: Val<number>;
  activo?: Val<boolean>;
}

/** Users of clients (never administrators), maybe of one client, role or status, maybe searched. */
function usersWhere(a: UsersFilter) {
  const conditions: SQL[] = [ne(users.rol, 4)];
  if (a.idCliente !== undefined) conditions.push(eq(users.idCliente, a.idCliente));
  if (a.rol !== undefined) conditions.push(eq(users.rol, a.rol));
  if (a.activo !== undefined) conditions.push(eq(users.activo, a.activo));
  if (a.like !== undefined) conditions.push(foldedLike(SEARCHED, a.like));
  return and(...conditions);
}

/**
 * The list's order (decision 0067), then the id in the same direction. Never signed in (null) sorts as
 * the oldest last sign-in: first ascending, last descending. Each has its index within a client
 * (users_cliente_usuario_idx, users_cliente_nombre_idx, users_cliente_acceso_idx).
 */
function usersOrder(orden: UsersSort): SQL[] {
  const { field, direction } = splitSort(orden);
  const dir = direction === 'asc' ? asc : desc;
  switch (field) {
    case 'nombre':
      return [dir(sql`lower(${users.nombre})`), dir(users.id)];
    case 'ultimo_acceso':
      return direction === 'asc'
        ? [sql`${users.ultimoAcceso} asc nulls first`, asc(users.id)]
        : [sql`${users.ultimoAcceso} desc nulls last`, desc(users.id)];
    default:
      return [dir(sql`lower(${users.usuario})`), dir(users.id)];
  }
}

/** The kept counts' rows of a filter's keys (decision 0078): client, role and status, any of them. */
function keptWhere(a: UsersFilter): SQL {
  const k = userCounts;
  const conditions: SQL[] = [sql`true`];
  if (a.idCliente !== undefined) conditions.push(eq(k.idCliente, a.idCliente));
  if (a.rol !== undefined) conditions.push(eq(k.rol, a.rol));
  if (a.activo !== undefined) conditions.push(eq(k.activo, a.activo));
  return and(...conditions)!;
}

/**
 * The list's total without a search, from the kept counts (decision 0078): the sum of the +1 and −1 rows of
 * the filter's keys — the same number as counting the users, in the same snapshot — and how many rows it
 * summed. Read with the page (its columns `keptTotal` and `keptRows`), or alone for a page past the end.
 */
function keptTotalColumns(a: UsersFilter) {
  const k = userCounts;
  return {
    keptTotal: sql<number>`(select coalesce(sum(${k.n}), 0)::int from ${k} where ${keptWhere(a)})`,
    keptRows: sql<number>`(select count(*)::int from ${k} where ${keptWhere(a)})`,
  };
}

/**
 * After a total summed many rows, they are merged into one row a key, in one statement that deletes what it
 * sees and inserts their sums (a row appended meanwhile stays, and is summed next time).
 */
async function keptTotal(
  db: Db,
  total: { keptTotal: number; keptRows: number } | undefined,
): Promise<number> {
  if ((total?.keptRows ?? 0) > COUNT_ROWS_TO_MERGE) await mergeUserCounts(db);
  return total?.keptTotal ?? 0;
}

/** One row a key for the kept counts (decision 0078). */
export function mergeUserCounts(db: Db | Tx): Promise<void> {
  const k = userCounts;
  return mergeKeptCounts(db, k, [k.idCliente, k.rol, k.activo], k.n);
}

/**
 * A page of users with their client and category budgets (a JSON array, read with the page); without a search
 * (`kept`: the filter's placeholders), the kept total too. Past the first page the page's ids are read first
 * and only those users are joined and given their budgets: PostgreSQL computes a row's select list before
 * OFFSET skips it, so page 50 ran the budgets' subquery for 500 users to show 10 (2.5 of its 3 ms).
 */
function usersPageQuery(
  db: Db,
  where: SQL | undefined,
  orden: UsersSort,
  window: PageWindow,
  kept: UsersFilter | null,
) {
  const b = userCategoryBudgets;
  const pageIds =
    window.offset === 0
      ? undefined
      : db
          .select({ id: users.id })
          .from(users)
          .where(where)
          .orderBy(...usersOrder(orden))
          .limit(window.limit)
          .offset(window.offset);
  return db
    .select({
      user: users,
      cliente: { id: clients.id, nombre: clients.nombre },
      budgets: sql<{ id: number; presupuesto: number }[]>`(select coalesce(json_agg(json_build_object(
        'id', ${b.categoryId}, 'presupuesto', ${b.presupuesto}) order by ${b.categoryId}), '[]'::json)
        from ${b} where ${b.userId} = ${users.id})`,
      ...(kept ? keptTotalColumns(kept) : { keptTotal: sql<number>`0`, keptRows: sql<number>`0` }),
    })
    .from(users)
    .innerJoin(clients, eq(clients.id, users.idCliente))
    .where(pageIds ? inArray(users.id, pageIds) : where)
    .orderBy(...usersOrder(orden))
    .limit(window.limit)
    .offset(pageIds ? 0 : window.offset);
}

/**
 * Users of clients (administrators are never listed), 10 per page, filtered and sorted (decision 0067).
 * Each shape of the list (which filters are given, and the sort) runs as named prepared statements: built
 * and planned once.
 */
export async function listUsers(
  db: Db,
  query: Pick<UsersQuery, 'id_cliente' | 'page' | 'q' | 'rol' | 'estatus'> & { orden?: UsersSort },
): Promise<UsersResponse> {
  const filter = {
    idCliente: query.id_cliente || undefined,
    like: foldedPattern(query.q),
    rol: query.rol,
    activo: query.estatus === undefined ? undefined : query.estatus === 'activo',
  };
  const orden = query.orden ?? UsersSort.byDefault;
  const { shape, args } = shapeOf(filter);
  const window = pageWindow(query.page, USERS_PER_PAGE);
  // Without a search the total comes with the page (decision 0078); with one, the matches are counted.
  const kept = filter.like === undefined;
  const [rows, counted] = await Promise.all([
    preparedOnce(db, `portal_users_page_${shape}_${orden}_${window.shape}`, (d) =>
      usersPageQuery(d, usersWhere(args), orden, window, kept ? args : null),
    ).execute({ ...filter, ...window.values }),
    kept
      ? undefined
      : preparedOnce(db, `portal_users_count_${shape}`, (d) =>
          d.select({ n: count() }).from(users).where(usersWhere(args)),
        ).execute(filter),
  ]);
  let total = counted?.[0]?.n ?? 0;
  if (kept) {
    // A page past the end brings no row, and no total with it: the total is read alone.
    const carried =
      rows[0] ??
      (
        await preparedOnce(db, `portal_users_kept_total_${shape}`, (d) =>
          d.select(keptTotalColumns(args)).from(sql`(select 1) as one`),
        ).execute(filter)
      )[0];
    total = await keptTotal(db, carried);
  }
  return {
    usuarios: rows.map((r) => userDto(r.user, r.cliente, r.budgets)),
    total,
    page: query.page,
    per_page: USERS_PER_PAGE,
  };
}

/** The full record of GET /api/usuarios/{id}: fields, category budgets, assignments, latest orders. */
export async function userDetail(db: Db | Tx, id: number): Promise<UserDto | undefined> {
  const row = await findClientUser(db, id);
  if (!row) return undefined;
  const [budgets, assigned, history] = await Promise.all([
    budgetsOf(db, [id]),
    db
      .select({ id: userProducts.productId })
      .from(userProducts)
      .where(and(eq(userProducts.userId, id), eq(userProducts.asignado, true)))
      .orderBy(asc(userProducts.productId)),
    db
      .select({
        id: orders.id,
        total: orders.total,
        status: orders.status,
        transactionDate: orders.transactionDate,
      })
      .from(orders)
      .where(eq(orders.idUser, id))
      .orderBy(desc(orders.id))
      .limit(10),
  ]);
  return {
    ...userDto(row.user, row.cliente, budgets.get(id) ?? []),
    asignados: assigned.length,
    productos: assigned.map((a) => a.id),
    historial: history.map((o) => ({
      id: o.id,
      total: centavosToPesos(o.total),
      status: o.status,
      transaction_date: iso(o.transactionDate),
    })),
  };
}

/** A user's budgets per category (centavos) replaced by these; `categorias` absent keeps the stored ones. */
export async function storeCategoryBudgets(
  tx: Tx,
  userId: number,
  budget: { categorias?: readonly { id: number; presupuesto: number }[] },
) {
  if (!budget.categorias) return;
  await tx.delete(userCategoryBudgets).where(eq(userCategoryBudgets.userId, userId));
  if (budget.categorias.length > 0) {
    await tx
      .insert(userCategoryBudgets)
      .values(budget.categorias.map((c) => ({ userId, categoryId: c.id, presupuesto: c.presupuesto })));
  }
}
