/**
 * Budget alerts (docs/domain.md "Budget alerts", decision 0054). The order's lifecycle seam runs it inside the
 * transaction of every change that moves a buyer's month — a purchase, an approval with edited lines, a
 * cancellation, a withdrawal — after the change is written: the month's figures are the budget figures' own (`budgetState`, per user or per
 * category), the thresholds reached are `crossedThresholds`, and each (buyer, category, month, threshold) is
 * claimed by inserting its row. Only the rows this insert made send e-mail, so a retry, two purchases at once
 * or two instances never send one alert twice, and a threshold crossed again after a cancellation is not
 * sent again. One e-mail per recipient and budget (the whole budget, or one category) names the highest
 * threshold the change reached.
 */
import { type BudgetState, budgetState, withTopups } from '@portal/shared/domain/budget';
import { crossedThresholds, usedPercent } from '@portal/shared/domain/budget-alerts';
import { formatCentavos } from '@portal/shared/domain/money';
import { monthName } from '@portal/shared/domain/months';
import { ROLES } from '@portal/shared/domain/roles';
import { businessMonth } from '@portal/shared/domain/time';
import { and, eq } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { monthSpend } from '../../db/order-totals.ts';
import {
  areaBudgetAlerts,
  areas,
  budgetAlerts,
  categories,
  clients,
  orders,
  userCategoryBudgets,
  users,
} from '../../db/schema/index.ts';
import { orderEmail } from '../../lib/emails.ts';
import { addressOf, enqueueEmails } from '../../lib/mailer.ts';
import { MSG } from '../../messages.ts';
import { areaMonth, userTopups } from '../areas/area-budget.ts';

/** The month a change left, when the caller already holds it (the purchase, from the snapshot read under the lock). */
export interface KnownMonth {
  /** The client's thresholds (percent). */
  alertas: readonly number[];
  /** The buyer's budget state of the month after the change, with an empty cart. */
  state: BudgetState;
}

export async function sendBudgetAlerts(
  tx: Tx,
  config: { publicUrl: string; tz: string; now: Date },
  userId: number,
  /** An instant of the business month the change touched: the order's purchase time. */
  at: Date,
  /** The month after the change, when the caller knows it: no read unless a threshold is claimed. */
  known?: KnownMonth,
): Promise<void> {
  // Only the running month warns: a change to an order of a closed month (an approval or a cancellation
  // that comes late) says nothing about money the buyer can still spend.
  const month = businessMonth(at, config.tz);
  if (month.key !== businessMonth(config.now, config.tz).key) return;
  const readBuyer = async () =>
    (
      await tx
        .select({
          nombre: users.nombre,
          email: users.email,
          usuario: users.usuario,
          idCliente: users.idCliente,
          presupuestoDefault: users.presupuestoDefault,
          modo: clients.modoPresupuesto,
          alertas: clients.alertasPresupuesto,
          avisarAutorizadores: clients.avisarAutorizadores,
        })
        .from(users)
        .innerJoin(clients, eq(clients.id, users.idCliente))
        .where(eq(users.id, userId))
    )[0];
  let buyer = known ? undefined : await readBuyer();
  let alertas: readonly number[];
  let state: BudgetState;
  if (known) ({ alertas, state } = known);
  else {
    if (!buyer) return;
    const modo = buyer.modo === 'categoria' ? 'categoria' : 'regular';
    // The running month (decision 0072): the change was moved into it before this check.
    const { used } = await monthSpend(tx, userId, month.key);
    const topups = await userTopups(tx, userId, `${month.key}-01`);
    const budgets =
      modo === 'categoria'
        ? await tx
            .select({ id: userCategoryBudgets.categoryId, presupuesto: userCategoryBudgets.presupuesto })
            .from(userCategoryBudgets)
            .where(eq(userCategoryBudgets.userId, userId))
        : [];
    alertas = buyer.alertas;
    // The month's budget with its approved top-ups (decision 0123), as every other figure reads it.
    state = budgetState({
      modo,
      ...withTopups(buyer.presupuestoDefault, budgets, topups),
      used,
      cart: [],
    });
  }
  const figures =
    state.modo === 'regular'
      ? [{ categoryId: null, utilizado: state.utilizado, presupuesto: state.presupuesto }]
      : [...state.categorias].map(([categoryId, f]) => ({
          categoryId,
          utilizado: f.utilizado,
          presupuesto: f.presupuesto,
        }));

  for (const f of figures) {
    const crossed = crossedThresholds(f.utilizado, f.presupuesto, alertas);
    if (crossed.length === 0) continue;
    const porcentaje = usedPercent(f.utilizado, f.presupuesto);
    const claimed = await tx
      .insert(budgetAlerts)
      .values(
        crossed.map((umbral) => ({ userId, categoryId: f.categoryId, mes: month.key, umbral, porcentaje })),
      )
      .onConflictDoNothing()
      .returning({ umbral: budgetAlerts.umbral });
    if (claimed.length === 0) continue;
    buyer ??= await readBuyer();
    if (!buyer) return;
    const umbral = Math.max(...claimed.map((c) => c.umbral));
    const categoria =
      f.categoryId === null
        ? undefined
        : (
            await tx
              .select({ nombre: categories.nombre })
              .from(categories)
              .where(eq(categories.id, f.categoryId))
          )[0]?.nombre;
    const mes = monthName(month.key);
    const paragraphs = [
      MSG.avisoPresupuestoCifras(formatCentavos(f.utilizado), formatCentavos(f.presupuesto)),
      MSG.avisoPresupuestoUmbral(umbral),
    ];
    // Without an address a person still gets the bell's item (decision 0114).
    const emails = [
      orderEmail(addressOf(buyer) ?? '', buyer.nombre, {
        subject: MSG.presupuestoUsado(porcentaje, mes, categoria),
        paragraphs,
        url: `${config.publicUrl}/usuario/${f.categoryId === null ? 'principal' : `categoria/${f.categoryId}`}`,
        label: 'Ver mi presupuesto',
        para: { userId, tipo: 'presupuesto' },
      }),
    ];
    if (buyer.avisarAutorizadores && buyer.idCliente !== null) {
      const approvers = await tx
        .select({ id: users.id, email: users.email, usuario: users.usuario, nombre: users.nombre })
        .from(users)
        .where(
          and(eq(users.idCliente, buyer.idCliente), eq(users.rol, ROLES.autorizador), eq(users.activo, true)),
        );
      for (const a of approvers) {
        emails.push(
          orderEmail(addressOf(a) ?? '', a.nombre, {
            subject: MSG.presupuestoUsadoPor(buyer.nombre, porcentaje, mes, categoria),
            paragraphs,
            url: `${config.publicUrl}/autorizador/principal?estatus=todos&q=${encodeURIComponent(buyer.nombre)}`,
            label: 'Ver sus pedidos',
            para: { userId: a.id, tipo: 'presupuesto' },
          }),
        );
      }
    }
    await enqueueEmails(tx, emails);
  }
}

/**
 * The área's budget alerts (decision 0123): after a change that moved the área of an order (a purchase, an
 * approval with edits), in its transaction, with the client's thresholds; each (área, month, threshold) is
 * claimed by inserting its row and only the change that inserted it sends, to the área's responsible approver
 * (an active one; none: nothing is sent). Only the running month warns.
 */
export async function sendAreaBudgetAlerts(
  tx: Tx,
  config: { publicUrl: string; tz: string; now: Date },
  orderId: number,
  at: Date,
): Promise<void> {
  const month = businessMonth(at, config.tz);
  if (month.key !== businessMonth(config.now, config.tz).key) return;
  const [order] = await tx
    .select({ idArea: orders.idArea, alertas: clients.alertasPresupuesto })
    .from(orders)
    .innerJoin(clients, eq(clients.id, orders.idCliente))
    .where(eq(orders.id, orderId));
  if (!order?.idArea) return;
  const area = await areaMonth(tx, order.idArea, `${month.key}-01`);
  if (!area) return;
  const crossed = crossedThresholds(area.utilizado, area.presupuesto, order.alertas);
  if (crossed.length === 0) return;
  const porcentaje = usedPercent(area.utilizado, area.presupuesto);
  const claimed = await tx
    .insert(areaBudgetAlerts)
    .values(crossed.map((umbral) => ({ idArea: area.id, mes: month.key, umbral, porcentaje })))
    .onConflictDoNothing()
    .returning({ umbral: areaBudgetAlerts.umbral });
  if (claimed.length === 0) return;
  const [responsable] = await tx
    .select({ id: users.id, email: users.email, usuario: users.usuario, nombre: users.nombre })
    .from(areas)
    .innerJoin(users, eq(users.id, areas.idResponsable))
    .where(and(eq(areas.id, area.id), eq(users.activo, true)));
  if (!responsable) return;
  const umbral = Math.max(...claimed.map((c) => c.umbral));
  await enqueueEmails(tx, [
    orderEmail(addressOf(responsable) ?? '', responsable.nombre, {
      subject: MSG.presupuestoAreaUsado(area.nombre, porcentaje, monthName(month.key)),
      paragraphs: [
        MSG.avisoPresupuestoCifras(formatCentavos(area.utilizado), formatCentavos(area.presupuesto)),
        MSG.avisoPresupuestoUmbral(umbral),
      ],
      url: `${config.publicUrl}/autorizador/ampliaciones`,
      label: 'Ver las ampliaciones',
      para: { userId: responsable.id, tipo: 'presupuesto' },
    }),
  ]);
}
