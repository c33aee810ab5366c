import { centavosToPesos } from '@portal/shared/domain/money';
import { USERS_PER_PAGE } from '@portal/shared/limits';
import type { UserDto, UsersResponse } from '@portal/shared/schemas/users';
import { and, asc, count, desc, eq, inArray, ne, type SQL, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { preparedOnce, shapeOf, type Val } from '../../db/prepared.ts';
import { clients, orders, userCategoryBudgets, userProducts, users } from '../../db/schema/index.ts';
import { foldedLike, foldedPattern, offsetOf } from '../../db/search.ts';
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
    categorias: JSON.stringify(
      budgets.map((b) => ({ id: b.id, presupuesto: centavosToPesos(b.presupuesto) })),
    ),
    id_cliente: cliente.id,
    cliente,
    dos_pasos: u.totpSecret !== null,
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

/** Users of clients (never administrators), maybe of one client, maybe searched. */
function usersWhere(a: { idCliente?: Val<number>; like?: Val<string> }) {
  const conditions: SQL[] = [ne(users.rol, 4)];
  if (a.idCliente !== undefined) conditions.push(eq(users.idCliente, a.idCliente));
  if (a.like !== undefined) conditions.push(foldedLike(SEARCHED, a.like));
  return and(...conditions);
}

/** A page of users with their client and category budgets (a JSON array, read with the page). */
function usersPageQuery(db: Db, where: SQL | undefined) {
  const b = userCategoryBudgets;
  return db
    .select({
      user: users,
      cliente: { id: clients.id, nombre: clients.nombre },
      budgets: sql<{ id: number; presupuesto: number }[]>`(select coalesce(json_agg(json_build_object(
        'id', ${b.categoryId}, 'presupuesto', ${b.presupuesto}) order by ${b.categoryId}), '[]'::json)
        from ${b} where ${b.userId} = ${users.id})`,
    })
    .from(users)
    .innerJoin(clients, eq(clients.id, users.idCliente))
    .where(where)
    .orderBy(sql`lower(${users.usuario})`, asc(users.id))
    .limit(USERS_PER_PAGE)
    .offset(sql.placeholder('offset'));
}

/**
 * Users of clients (administrators are never listed), by username, 10 per page. Each shape of the list
 * (with or without client and search) runs as named prepared statements: built and planned once.
 */
export async function listUsers(
  db: Db,
  query: { id_cliente?: number; page: number; q?: string },
): Promise<UsersResponse> {
  const filter = { idCliente: query.id_cliente || undefined, like: foldedPattern(query.q) };
  const { shape, args } = shapeOf(filter);
  const [rows, totals] = await Promise.all([
    preparedOnce(db, `portal_users_page_${shape}`, (d) => usersPageQuery(d, usersWhere(args))).execute({
      ...filter,
      offset: offsetOf(query.page, USERS_PER_PAGE),
    }),
    preparedOnce(db, `portal_users_count_${shape}`, (d) =>
      d.select({ n: count() }).from(users).where(usersWhere(args)),
    ).execute(filter),
  ]);
  return {
    usuarios: rows.map((r) => userDto(r.user, r.cliente, r.budgets)),
    total: totals[0]?.n ?? 0,
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
