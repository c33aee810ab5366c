import { businessMonth } from '@portal/shared/domain/time';
import { type AdminOverview, OVERVIEW_TOPUP_CLIENTS } from '@portal/shared/schemas/overview';
import { and, asc, between, count, desc, eq, gte, inArray, lt } from 'drizzle-orm';
import { budgetTopups, clients, importJobs, orders, users } from '../../db/schema/index.ts';
import type { Deps } from '../../lib/deps.ts';

const STATUSES = ['pendiente', 'espera', 'aprobado', 'cancelado'] as const;

/** The administrator's home figures, with the budget top-ups waiting for a decision per client. */
export async function adminOverview(deps: Deps, now = deps.clock.now()): Promise<AdminOverview> {
  const month = businessMonth(now, deps.config.BUSINESS_TZ);
  const weekAgo = new Date(now.getTime() - 7 * 24 * 3_600_000);
  const [clientRows, userRows, orderRows, runningRows, failedRows, topupRows] = await Promise.all([
    deps.db.select({ n: count() }).from(clients).where(eq(clients.activo, true)),
    deps.db
      .select({ n: count() })
      .from(users)
      .where(and(eq(users.activo, true), between(users.rol, 1, 3))),
    deps.db
      .select({ status: orders.status, n: count() })
      .from(orders)
      .where(and(gte(orders.transactionDate, month.start), lt(orders.transactionDate, month.end)))
      .groupBy(orders.status),
    deps.db
      .select({ n: count() })
      .from(importJobs)
      .where(inArray(importJobs.status, ['pendiente', 'procesando'])),
    deps.db
      .select({ n: count() })
      .from(importJobs)
      .where(and(eq(importJobs.status, 'fallido'), gte(importJobs.createdAt, weekAgo))),
    // The top-ups waiting, per client (decision 0123): a handful of rows, the clients that have some.
    deps.db
      .select({ id: clients.id, nombre: clients.nombre, pendientes: count() })
      .from(budgetTopups)
      .innerJoin(clients, eq(clients.id, budgetTopups.idCliente))
      .where(eq(budgetTopups.estado, 'pendiente'))
      .groupBy(clients.id, clients.nombre)
      .orderBy(desc(count()), asc(clients.nombre), asc(clients.id)),
  ]);
  const pedidos = { pendiente: 0, espera: 0, aprobado: 0, cancelado: 0, total: 0 };
  for (const row of orderRows) {
    if ((STATUSES as readonly string[]).includes(row.status)) {
      pedidos[row.status as (typeof STATUSES)[number]] = row.n;
      pedidos.total += row.n;
    }
  }
  return {
    clientes_activos: clientRows[0]?.n ?? 0,
    usuarios_activos: userRows[0]?.n ?? 0,
    mes: month.key,
    pedidos_mes: pedidos,
    importaciones: { en_proceso: runningRows[0]?.n ?? 0, fallidas_7_dias: failedRows[0]?.n ?? 0 },
    ampliaciones_pendientes: {
      total: topupRows.reduce((sum, r) => sum + r.pendientes, 0),
      clientes: topupRows.slice(0, OVERVIEW_TOPUP_CLIENTS),
    },
  };
}
