/**
 * An área's month (decision 0123): its budget (the base plus the month's top-ups and transfers) and what the
 * non-cancelled orders charged to it spend (area_month_spend, kept by the order's lifecycle seam). A purchase
 * or an approval locks the área's row after the buyer's (the order's, then the buyer's, then the área's: one
 * order everywhere), so two buyers of one área can never both spend its last pesos.
 */
import { ROLES } from '@portal/shared/domain/roles';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { isTransaction, prepared } from '../../db/prepared.ts';
import { areaMonthSpend, areas, budgetAdjustments, users } from '../../db/schema/index.ts';

export interface AreaMonth {
  id: number;
  nombre: string;
  codigo: string;
  cuentaContable: string | null;
  /** The monthly base (centavos). */
  base: number;
  /** This month's top-ups and transfers, signed (centavos). */
  ajustes: number;
  /** base + ajustes. */
  presupuesto: number;
  /** The month's non-cancelled orders charged to the área (centavos). */
  utilizado: number;
}

/** The áreas' figures for business month `mes` (YYYY-MM-01); `lock` takes their rows for update, by id. */
export async function areaMonths(
  db: Db | Tx,
  ids: readonly number[],
  mes: string,
  opts: { lock?: boolean } = {},
): Promise<Map<number, AreaMonth>> {
  const out = new Map<number, AreaMonth>();
  if (ids.length === 0) return out;
  const sorted = [...new Set(ids)].sort((x, y) => x - y);
  if (opts.lock && isTransaction(db)) await lockAreas(db, sorted);
  const rows = await db
    .select({
      id: areas.id,
      nombre: areas.nombre,
      codigo: areas.codigo,
      cuentaContable: areas.cuentaContable,
      base: areas.presupuesto,
      // Aliased by hand: inside a selected expression the builder names columns without their table.
      ajustes: sql<string>`coalesce((select sum(b.importe) from ${budgetAdjustments} b
        where b.id_area = "areas"."id" and b.mes = ${mes}::date), 0)`,
      utilizado: sql<string>`coalesce((select s.importe from ${areaMonthSpend} s
        where s.id_area = "areas"."id" and s.mes = ${mes}::date), 0)`,
    })
    .from(areas)
    .where(inArray(areas.id, sorted));
  for (const r of rows) {
    const ajustes = Number(r.ajustes);
    out.set(r.id, {
      id: r.id,
      nombre: r.nombre,
      codigo: r.codigo,
      cuentaContable: r.cuentaContable,
      base: r.base,
      ajustes,
      presupuesto: r.base + ajustes,
      utilizado: Number(r.utilizado),
    });
  }
  return out;
}

/**
 * Locks áreas' rows to the end of the caller's transaction, in id order (so two transactions locking the same
 * áreas never wait on each other in a cycle). Taken after the buyer's row, never before.
 */
export async function lockAreas(tx: Tx, ids: readonly number[]): Promise<void> {
  const sorted = [...new Set(ids)].sort((x, y) => x - y);
  await tx.execute(
    sql`select id from ${areas} where id = any(${sql.param(sorted)}::int4[]) order by id for update`,
  );
}

/**
 * Tells the live updates (decision 0116) whose budget figures just changed — these buyers, and the active
 * buyers of these áreas — so that their open screens ask again (the budget cards, the área's line, their
 * top-up requests). The database sends it at this transaction's commit, never for a rollback, on the live
 * updates' channel through the function the triggers of migration 0041 use: 'b:<user ids>' (or 'b:*' when
 * they are too many to name). Only ids: the page reads the figures through its own routes.
 */
export async function announceBudgets(
  tx: Tx,
  who: { users?: readonly number[]; areas?: readonly number[] },
): Promise<void> {
  const userIds = [...new Set(who.users ?? [])];
  const areaIds = [...new Set(who.areas ?? [])];
  if (userIds.length === 0 && areaIds.length === 0) return;
  await tx.execute(sql`select portal_live_notify('b', (select string_agg(t.id::text, ',' order by t.id) from (
      select u.id from ${users} u where u.id = any(${sql.param(userIds)}::int4[])
      union
      select u.id from ${users} u
        where u.id_area = any(${sql.param(areaIds)}::int4[]) and u.rol = ${ROLES.usuario} and u.activo
    ) t))`);
}

/** What the área's other orders of the month spend: its month without this order (unless it is cancelled). */
export function areaOthers(area: AreaMonth, order: { status: string; total: number }): number {
  return area.utilizado - (order.status === 'cancelado' ? 0 : order.total);
}

/** The user's approved top-ups of business month `mes` (YYYY-MM-01), per category (0: the whole budget). */
export async function userTopups(db: Db | Tx, userId: number, mes: string): Promise<Map<number, number>> {
  const rows = await db
    .select({
      c: budgetAdjustments.idCategoria,
      i: sql<string>`sum(${budgetAdjustments.importe})`,
    })
    .from(budgetAdjustments)
    .where(and(eq(budgetAdjustments.userId, userId), eq(budgetAdjustments.mes, mes)))
    .groupBy(budgetAdjustments.idCategoria);
  return new Map(rows.map((r) => [r.c, Number(r.i)]));
}

/**
 * Approved top-ups of several buyers in several business months (YYYY-MM-01), keyed `user|mes`, each per
 * category (0: the whole budget): the authorizers' list reads a whole page's at once.
 */
export async function usersTopups(
  db: Db | Tx,
  userIds: readonly number[],
  meses: readonly string[],
): Promise<Map<string, Map<number, number>>> {
  const out = new Map<string, Map<number, number>>();
  if (userIds.length === 0 || meses.length === 0) return out;
  // A named statement over two arrays: built and planned once, whatever the page's buyers and months (built
  // with 50 ids on every call it was a tenth of the authorizer's list's Node time, finding 57).
  const rows = await prepared(db, 'portal_users_topups', (d) =>
    d
      .select({
        u: budgetAdjustments.userId,
        m: budgetAdjustments.mes,
        c: budgetAdjustments.idCategoria,
        i: sql<string>`sum(${budgetAdjustments.importe})`,
      })
      .from(budgetAdjustments)
      .where(
        and(
          sql`${budgetAdjustments.userId} = any(${sql.placeholder('users')}::integer[])`,
          sql`${budgetAdjustments.mes} = any(${sql.placeholder('meses')}::date[])`,
        ),
      )
      .groupBy(budgetAdjustments.userId, budgetAdjustments.mes, budgetAdjustments.idCategoria),
  ).execute({ users: [...userIds], meses: [...meses] });
  for (const r of rows) {
    const key = `${r.u}|${r.m}`;
    const m = out.get(key) ?? new Map<number, number>();
    m.set(r.c, Number(r.i));
    out.set(key, m);
  }
  return out;
}

/** One área's month (see `areaMonths`), or null when it does not exist. */
export async function areaMonth(
  db: Db | Tx,
  id: number,
  mes: string,
  opts: { lock?: boolean } = {},
): Promise<AreaMonth | null> {
  return (await areaMonths(db, [id], mes, opts)).get(id) ?? null;
}

/** The area of a client, or null (another client's área answers like a missing one). */
export async function areaOfClient(
  db: Db | Tx,
  id: number,
  idCliente: number,
): Promise<{ id: number; nombre: string; idResponsable: number | null } | null> {
  const [row] = await db
    .select({ id: areas.id, nombre: areas.nombre, idResponsable: areas.idResponsable })
    .from(areas)
    .where(and(eq(areas.id, id), eq(areas.idCliente, idCliente)));
  return row ?? null;
}
