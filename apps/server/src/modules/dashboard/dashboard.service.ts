/**
 * The spend dashboard (docs/domain.md "Dashboards", decision 0055): months by status from the orders'
 * covering index, the current month per buyer and category with the budget cards' own rule, and the top
 * products from the sales summary (db/order-totals.ts) — never a scan of a year of order lines.
 */
import { budgetState } from '@portal/shared/domain/budget';
import { budgetShare, SHARE_NEAR, SHARE_OVER } from '@portal/shared/domain/budget-share';
import { centavosToPesos } from '@portal/shared/domain/money';
import {
  addMonths,
  DASHBOARD_DEFAULT_MONTHS,
  DASHBOARD_MAX_MONTHS,
  monthKeys,
  monthsBetween,
} from '@portal/shared/domain/months';
import { ROLES } from '@portal/shared/domain/roles';
import { addDays, businessDate, businessDateRange, businessMonth } from '@portal/shared/domain/time';
import type {
  BuyerSpendResponse,
  DashboardBuyer,
  DashboardCategory,
  DashboardQuery,
  DashboardResponse,
} from '@portal/shared/schemas/dashboard';
import { and, asc, eq, sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../db/client.ts';
import { type MonthSpendJson, monthOfRows } from '../../db/order-totals.ts';
import { executeNamed, preparedOnce } from '../../db/prepared.ts';
import {
  areas,
  categories,
  clientBuyerVersions,
  clientOrderVersions,
  clients,
  orders,
  productMonthSales,
  products,
  userCategoryBudgets,
  userMonthSpend,
  users,
} from '../../db/schema/index.ts';
import type { Deps } from '../../lib/deps.ts';
import { badRequest, forbidden, notFound } from '../../lib/errors.ts';
import { MSG } from '../../messages.ts';
import type { AuthContext } from '../../plugins/auth-guard.ts';
import { areaMonths } from '../areas/area-budget.ts';

/** How many buyers the "used vs budget" chart lists. */
const BUYERS_SHOWN = 50;
const PRODUCTS_SHOWN = 10;
const DAYS_SHOWN = 30;
const CLIENTS_SHOWN = 5;

type Scope = { id: number; nombre: string; modo: string } | null;

/** Whose figures: an authorizer's own client; an administrator's chosen client, or every client. */
async function scopeOf(
  deps: Pick<Deps, 'db'>,
  auth: AuthContext,
  cliente: number | undefined,
): Promise<Scope> {
  const rol = auth.user.rol;
  if (rol === ROLES.autorizador || rol === ROLES.superAutorizador || rol === ROLES.administradorCliente) {
    const own = auth.client!;
    // Another client's id answers like a missing one.
    if (cliente !== undefined && cliente !== own.id)
      throw notFound(MSG.clienteNoEncontrado, 'CLIENT_NOT_FOUND');
    return { id: own.id, nombre: own.nombre, modo: own.modoPresupuesto };
  }
  if (rol !== ROLES.administrador) throw forbidden();
  if (cliente === undefined) return null;
  const [row] = await deps.db
    .select({ id: clients.id, nombre: clients.nombre, modo: clients.modoPresupuesto })
    .from(clients)
    .where(eq(clients.id, cliente));
  if (!row) throw notFound(MSG.clienteNoEncontrado, 'CLIENT_NOT_FOUND');
  return row;
}

/** The range asked for, with its defaults (the last 12 months up to the current one). */
function rangeOf(query: DashboardQuery, current: string) {
  const hasta =
    query.hasta ??
    (query.desde ? minMonth(addMonths(query.desde, DASHBOARD_DEFAULT_MONTHS - 1), current) : current);
  const desde = query.desde ?? addMonths(hasta, -(DASHBOARD_DEFAULT_MONTHS - 1));
  if (desde > hasta)
    throw badRequest('VALIDATION', MSG.rangoMesesInvalido, { hasta: MSG.rangoMesesInvalido });
  if (monthsBetween(desde, hasta) > DASHBOARD_MAX_MONTHS)
    throw badRequest('VALIDATION', MSG.rangoMesesLargo, { hasta: MSG.rangoMesesLargo });
  return { desde, hasta };
}

const minMonth = (a: string, b: string) => (a < b ? a : b);

/** The instants [start, end) of whole business months from..to. */
function instantsOf(desde: string, hasta: string, tz: string) {
  return {
    start: businessMonth(new Date(businessDateRange(`${desde}-15`, `${desde}-15`, tz).start), tz).start,
    end: businessMonth(new Date(businessDateRange(`${hasta}-15`, `${hasta}-15`, tz).start), tz).end,
  };
}

const inClient = (scope: Scope) => (scope ? sql`${orders.idCliente} = ${scope.id}` : sql`true`);

export async function dashboard(
  deps: Deps,
  auth: AuthContext,
  query: DashboardQuery,
): Promise<DashboardResponse> {
  const tz = deps.config.BUSINESS_TZ;
  const now = deps.clock.now();
  const current = businessMonth(now, tz);
  const scope = await scopeOf(deps, auth, query.cliente);
  const { desde, hasta } = rangeOf(query, current.key);
  const range = instantsOf(desde, hasta, tz);
  // The figures off the primary when a replica is configured (decision 0129): their caches are keyed by the
  // versions read from the same handle, so they are as fresh as the replica.
  const db = deps.reads;

  const versions = await versionsOf(db, scope);
  const { meses, top, categorias } = await rangeFigures(
    db,
    scope,
    versions.orders,
    tz,
    desde,
    hasta,
    range,
    current.key,
  );
  const buyers = scope
    ? await reused(
        buyersCaches,
        db,
        `${scope.id}|${scope.modo}|${current.key}|${versions.orders}|${versions.buyers}`,
        () => buyersOfMonth(db, scope, current),
      )
    : null;
  const porCategoria = scope?.modo === 'categoria' ? buyers!.categorias : categorias;
  const admin = auth.user.rol === ROLES.administrador;
  const porDia = admin ? await ordersPerDay(db, scope, now, tz) : null;
  const cerca = admin && !scope ? await clientsNearBudget(db, current) : null;

  return {
    cliente: scope ? { id: scope.id, nombre: scope.nombre } : null,
    desde,
    hasta,
    mes_actual: current.key,
    modo: scope ? (scope.modo === 'categoria' ? 'categoria' : 'regular') : null,
    meses,
    por_usuario: buyers?.lista ?? [],
    usuarios: buyers?.usuarios ?? { total: 0, sobre_80: 0, sobre_100: 0 },
    por_categoria: porCategoria,
    por_area: scope ? await areasOfMonth(db, scope.id, current.key) : [],
    top_productos: top,
    por_dia: porDia,
    clientes_cerca: cerca,
  };
}

/**
 * The range's figures (months by status, top products) of a client or of every client, reused while the
 * orders they come from have not changed: each client's counter in client_order_versions (the sum of its
 * rows, decision 0084) moves with every insert, update or delete of its orders (a trigger, at commit), and
 * it is read fresh on every request, so a request never gets figures older than the orders it could see
 * (docs/domain.md "Planned rules": revocation with caches). Per instance, at most 200 ranges; concurrent
 * requests for the same figures share one computation.
 */
const rangeCaches = new WeakMap<Db, Map<string, Promise<RangeFigures>>>();
/**
 * The current month per buyer of a client (`buyersOfMonth`: thousands of buyers ranked by their share of the
 * budget, 12 ms of PostgreSQL a request on the bench's data), reused while neither the client's orders
 * (which move the running months) nor its buyers (names, budgets, status: client_buyer_versions, migration
 * 0034) have changed (decision 0088).
 */
const buyersCaches = new WeakMap<Db, Map<string, Promise<BuyersOfMonth>>>();
const CACHE_MAX = 200;

/**
 * What a key's computation gives, computed once for every request that asks for it meanwhile and kept
 * until CACHE_MAX other keys were asked (one cache per database: an app has one, the tests run several in
 * one process). A failed computation is forgotten.
 */
async function reused<T>(
  caches: WeakMap<Db, Map<string, Promise<T>>>,
  db: Db,
  key: string,
  compute: () => Promise<T>,
): Promise<T> {
  let cache = caches.get(db);
  if (!cache) {
    cache = new Map();
    caches.set(db, cache);
  }
  const cached = cache.get(key);
  if (cached) {
    // Most recently used last.
    cache.delete(key);
    cache.set(key, cached);
    return cached;
  }
  const computing = compute();
  cache.set(key, computing);
  const forget = cache;
  computing.catch(() => forget.delete(key));
  while (cache.size > CACHE_MAX) cache.delete(cache.keys().next().value!);
  return computing;
}

/**
 * The counters the dashboard's parts are reused by, read fresh on every request so that a request never
 * gets figures older than what it could see: the orders' (the sum of the client's rows, decision 0084; of
 * every client, for the administrator's whole view) and the client's buyers'.
 */
async function versionsOf(db: Db, scope: Scope): Promise<{ orders: string; buyers: string }> {
  // A named statement, planned once (its two reads are by key): it runs on every dashboard request.
  const [v] = await executeNamed<{ v: string | null; b: string | null }>(
    db,
    'portal_dashboard_versions',
    scope
      ? sql`select (select sum(${clientOrderVersions.version}) from ${clientOrderVersions}
            where ${clientOrderVersions.idCliente} = ${scope.id})::text as v,
          (select ${clientBuyerVersions.version} from ${clientBuyerVersions}
            where ${clientBuyerVersions.idCliente} = ${scope.id})::text as b`
      : sql`select string_agg(c.id_cliente || ':' || c.v, ',' order by c.id_cliente) as v, null as b from (select ${clientOrderVersions.idCliente} as id_cliente, sum(${clientOrderVersions.version}) as v from ${clientOrderVersions} group by 1) c`,
  );
  return { orders: v?.v ?? '0', buyers: v?.b ?? '0' };
}

interface RangeFigures {
  meses: DashboardResponse['meses'];
  top: DashboardResponse['top_productos'];
  /** Regular budgets: the current month's categories (they come from the orders alone). */
  categorias: DashboardCategory[];
}

function rangeFigures(
  db: Db,
  scope: Scope,
  version: string,
  tz: string,
  desde: string,
  hasta: string,
  range: { start: Date; end: Date },
  month: string,
): Promise<RangeFigures> {
  const key = `${scope?.id ?? '*'}|${scope?.modo ?? ''}|${tz}|${desde}|${hasta}|${month}|${version}`;
  return reused(rangeCaches, db, key, async () => ({
    meses: await monthsByStatus(db, scope, range, tz, desde, hasta),
    top: await topProducts(db, scope, desde, hasta),
    categorias: scope && scope.modo !== 'categoria' ? await categoriesOfMonth(db, scope.id, month) : [],
  }));
}

/** Order totals per business month and status, every month of the range present (zeros included). */
async function monthsByStatus(
  db: Db,
  scope: Scope,
  range: { start: Date; end: Date },
  tz: string,
  desde: string,
  hasta: string,
) {
  const rows = await rowsOf<{ mes: string; status: string; total: string | number }>(
    db,
    sql`select to_char(${orders.transactionDate} at time zone ${tz}, 'YYYY-MM') as mes, ${orders.status} as status,
        sum(${orders.total}) as total
      from ${orders}
      where ${inClient(scope)} and ${orders.transactionDate} >= ${range.start} and ${orders.transactionDate} < ${range.end}
      group by 1, 2`,
  );
  const byMonth = new Map(
    monthKeys(desde, hasta).map((mes) => [mes, { mes, aprobado: 0, pendiente: 0, espera: 0, cancelado: 0 }]),
  );
  for (const r of rows) {
    const m = byMonth.get(r.mes);
    if (m && r.status in m)
      (m as Record<string, number | string>)[r.status] = centavosToPesos(Number(r.total));
  }
  return [...byMonth.values()];
}

/**
 * The current month per buyer (and, in category mode, per category) exactly as the buyer's budget cards
 * compute it: the shared `budgetState` over the buyers' running months (decision 0072, the cart left out).
 */
interface BuyersOfMonth {
  lista: DashboardBuyer[];
  usuarios: DashboardResponse['usuarios'];
  categorias: DashboardCategory[];
}

async function buyersOfMonth(
  db: Db,
  scope: NonNullable<Scope>,
  month: { key: string },
): Promise<BuyersOfMonth> {
  const mes = `${month.key}-01`;
  const monthly = sql`select ${userMonthSpend.idUser} as id_user, ${userMonthSpend.importe} as utilizado,
        ${userMonthSpend.compras} as pedidos
      from ${userMonthSpend} where ${userMonthSpend.mes} = ${mes}::date and ${userMonthSpend.idCategoria} = 0`;
  if (scope.modo !== 'categoria') {
    // Regular budgets: sorted, cut to 50 and counted by the database (the client's thousands of buyers never
    // travel): share = used ÷ budget, "Infinity" when something was used without a budget (budgetShare).
    const rows = await rowsOf<{
      id: number;
      nombre: string;
      usuario: string;
      presupuesto: string | number;
      utilizado: string | number;
      pedidos: number;
      total: number;
      sobre_80: number;
      sobre_100: number;
    }>(
      db,
      sql`with b as (
          select ${users.id} as id, ${users.nombre} as nombre, ${users.usuario} as usuario,
            ${users.presupuestoDefault} as presupuesto, coalesce(m.utilizado, 0) as utilizado,
            coalesce(m.pedidos, 0)::int as pedidos
          from ${users} left join (${monthly}) m on m.id_user = ${users.id}
          where ${users.idCliente} = ${scope.id} and ${users.rol} = ${ROLES.usuario}
            and (${users.activo} or m.pedidos > 0)
        ), s as (
          select b.*, case when presupuesto > 0 then utilizado::float8 / presupuesto::float8
            when utilizado > 0 then 'Infinity'::float8 else 0 end as share from b
        )
        select id, nombre, usuario, presupuesto, utilizado, pedidos,
          (count(*) over ())::int as total,
          (count(*) filter (where share >= ${SHARE_NEAR}) over ())::int as sobre_80,
          (count(*) filter (where share >= ${SHARE_OVER}) over ())::int as sobre_100
        from s order by share desc, utilizado desc, id limit ${BUYERS_SHOWN}`,
    );
    return {
      lista: rows.map((p) => ({
        id: p.id,
        nombre: p.nombre,
        usuario: p.usuario,
        id_cliente: scope.id,
        presupuesto: centavosToPesos(Number(p.presupuesto)),
        utilizado: centavosToPesos(Number(p.utilizado)),
        pedidos: p.pedidos,
      })),
      usuarios: {
        total: rows[0]?.total ?? 0,
        sobre_80: rows[0]?.sobre_80 ?? 0,
        sobre_100: rows[0]?.sobre_100 ?? 0,
      },
      categorias: [],
    };
  }
  const people = await rowsOf<{
    id: number;
    nombre: string;
    usuario: string;
    presupuesto: string | number;
    pedidos: number;
  }>(
    db,
    sql`select ${users.id} as id, ${users.nombre} as nombre, ${users.usuario} as usuario,
        ${users.presupuestoDefault} as presupuesto, coalesce(m.pedidos, 0)::int as pedidos
      from ${users} left join (${monthly}) m on m.id_user = ${users.id}
      where ${users.idCliente} = ${scope.id} and ${users.rol} = ${ROLES.usuario}
        and (${users.activo} or m.pedidos > 0)`,
  );
  // Category mode: each buyer's category budgets and running month, through the budget cards' rule.
  const budgets = await db
    .select({
      userId: userCategoryBudgets.userId,
      id: userCategoryBudgets.categoryId,
      presupuesto: userCategoryBudgets.presupuesto,
    })
    .from(userCategoryBudgets)
    .innerJoin(users, eq(users.id, userCategoryBudgets.userId))
    .where(and(eq(users.idCliente, scope.id), eq(users.rol, ROLES.usuario)));
  const spend = await db
    .select({
      idUser: userMonthSpend.idUser,
      c: userMonthSpend.idCategoria,
      i: userMonthSpend.importe,
      n: userMonthSpend.compras,
    })
    .from(userMonthSpend)
    .innerJoin(users, eq(users.id, userMonthSpend.idUser))
    .where(and(eq(users.idCliente, scope.id), eq(users.rol, ROLES.usuario), eq(userMonthSpend.mes, mes)));
  const rowsOfUser = new Map<number, MonthSpendJson[]>();
  for (const r of spend) rowsOfUser.set(r.idUser, [...(rowsOfUser.get(r.idUser) ?? []), r]);
  const budgetsOf = new Map<number, { id: number; presupuesto: number }[]>();
  for (const b of budgets)
    budgetsOf.set(b.userId, [...(budgetsOf.get(b.userId) ?? []), { id: b.id, presupuesto: b.presupuesto }]);
  const perCategory = new Map<number, { presupuesto: number; utilizado: number }>();
  const lista = people.map((p) => {
    const state = budgetState({
      modo: 'categoria',
      presupuestoDefault: Number(p.presupuesto),
      categorias: budgetsOf.get(p.id) ?? [],
      used: monthOfRows(rowsOfUser.get(p.id) ?? []).used,
      cart: [],
    });
    for (const [id, f] of state.categorias) {
      const c = perCategory.get(id) ?? { presupuesto: 0, utilizado: 0 };
      c.presupuesto += f.presupuesto;
      c.utilizado += f.utilizado;
      perCategory.set(id, c);
    }
    return {
      id: p.id,
      nombre: p.nombre,
      usuario: p.usuario,
      id_cliente: scope.id,
      presupuesto: centavosToPesos(state.presupuesto),
      utilizado: centavosToPesos(state.utilizado),
      pedidos: p.pedidos,
    };
  });
  const names = await db
    .select({ id: categories.id, nombre: categories.nombre })
    .from(categories)
    .where(eq(categories.idCliente, scope.id));
  const categorias = names
    .filter((c) => perCategory.has(c.id))
    .map((c) => ({
      id: c.id,
      nombre: c.nombre,
      presupuesto: centavosToPesos(perCategory.get(c.id)!.presupuesto),
      utilizado: centavosToPesos(perCategory.get(c.id)!.utilizado),
    }))
    .sort((a, b) => b.utilizado - a.utilizado || a.nombre.localeCompare(b.nombre, 'es'));
  const share = (b: DashboardBuyer) => budgetShare(b.utilizado, b.presupuesto);
  return {
    lista: [...lista]
      .sort((a, b) => share(b) - share(a) || b.utilizado - a.utilizado || a.id - b.id)
      .slice(0, BUYERS_SHOWN),
    usuarios: {
      total: lista.length,
      sobre_80: lista.filter((b) => share(b) >= SHARE_NEAR).length,
      sobre_100: lista.filter((b) => share(b) >= SHARE_OVER).length,
    },
    categorias,
  };
}

/** A client's áreas this month (decision 0123): each one's month budget and spend, by name. */
async function areasOfMonth(db: Db, idCliente: number, month: string) {
  const rows = await preparedOnce(db, 'portal_dashboard_areas', (d) =>
    d
      .select({ id: areas.id, nombre: areas.nombre, codigo: areas.codigo })
      .from(areas)
      .where(eq(areas.idCliente, sql.placeholder('cliente')))
      .orderBy(asc(sql`lower(${areas.nombre})`)),
  ).execute({ cliente: idCliente });
  const months = await areaMonths(
    db,
    rows.map((r) => r.id),
    `${month}-01`,
  );
  return rows.map((r) => ({
    ...r,
    presupuesto: centavosToPesos(months.get(r.id)?.presupuesto ?? 0),
    utilizado: centavosToPesos(months.get(r.id)?.utilizado ?? 0),
  }));
}

/** Regular budgets: the current month's spend per category (amount plus each line's IVA), from the summary. */
async function categoriesOfMonth(db: Db, idCliente: number, month: string): Promise<DashboardCategory[]> {
  const rows = await rowsOf<{ id: number; nombre: string | null; utilizado: string | number }>(
    db,
    sql`select s.id_categoria as id, ${categories.nombre} as nombre, sum(s.importe + s.iva) as utilizado
      from ${productMonthSales} s left join ${categories} on ${categories.id} = s.id_categoria
      where s.id_cliente = ${idCliente} and s.mes = ${`${month}-01`}::date
      group by 1, 2 having sum(s.cantidad) > 0
      order by 3 desc, 2`,
  );
  return rows.map((r) => ({
    id: r.id,
    nombre: r.nombre ?? `Categoría ${r.id}`,
    presupuesto: null,
    utilizado: centavosToPesos(Number(r.utilizado)),
  }));
}

/** The range's ten products with the largest amount, from the summary. */
async function topProducts(db: Db, scope: Scope, desde: string, hasta: string) {
  const rows = await rowsOf<{
    id: number;
    clave: string | null;
    nombre: string | null;
    cantidad: string | number;
    importe: string | number;
  }>(
    db,
    sql`select t.product_id as id, ${products.claveInterna} as clave, ${products.nombre} as nombre, t.cantidad, t.importe
      from (
        select s.product_id, sum(s.cantidad) as cantidad, sum(s.importe) as importe
        from ${productMonthSales} s
        where ${scope ? sql`s.id_cliente = ${scope.id}` : sql`true`}
          and s.mes >= ${`${desde}-01`}::date and s.mes <= ${`${hasta}-01`}::date
        group by 1 having sum(s.cantidad) > 0
        order by 3 desc, 1 limit ${PRODUCTS_SHOWN}
      ) t left join ${products} on ${products.id} = t.product_id
      order by t.importe desc, t.product_id`,
  );
  return rows.map((r) => ({
    id: r.id,
    clave: r.clave ?? '',
    nombre: r.nombre ?? `Producto ${r.id}`,
    cantidad: Number(r.cantidad),
    importe: centavosToPesos(Number(r.importe)),
  }));
}

/** Orders (every status) and their totals per business day, the last 30 days, zeros included. */
async function ordersPerDay(db: Db, scope: Scope, now: Date, tz: string) {
  const today = businessDate(now, tz);
  const first = addDays(today, -(DAYS_SHOWN - 1));
  const { start, end } = businessDateRange(first, today, tz);
  const rows = await rowsOf<{ fecha: string; pedidos: number; total: string | number }>(
    db,
    sql`select to_char(${orders.transactionDate} at time zone ${tz}, 'YYYY-MM-DD') as fecha, count(*)::int as pedidos,
        sum(${orders.total}) as total
      from ${orders}
      where ${inClient(scope)} and ${orders.transactionDate} >= ${start} and ${orders.transactionDate} < ${end}
      group by 1`,
  );
  const byDay = new Map(rows.map((r) => [r.fecha, r]));
  return Array.from({ length: DAYS_SHOWN }, (_, i) => {
    const fecha = addDays(first, i);
    const r = byDay.get(fecha);
    return { fecha, pedidos: r?.pedidos ?? 0, total: centavosToPesos(Number(r?.total ?? 0)) };
  });
}

/**
 * Every active client's month: the sum of its buyers' budgets (monthly, or their category budgets) and of its
 * non-cancelled order totals; the five with the highest share first.
 */
async function clientsNearBudget(db: Db, month: { key: string }) {
  const rows = await rowsOf<{
    id: number;
    nombre: string;
    presupuesto: string | number;
    utilizado: string | number;
  }>(
    db,
    sql`select c.id, c.nombre,
        case when c.modo_presupuesto = 'categoria' then
          (select coalesce(sum(b.presupuesto), 0) from ${userCategoryBudgets} b inner join ${users} u on u.id = b.user_id
            where u.id_cliente = c.id and u.rol = ${ROLES.usuario} and u.activo)
        else
          (select coalesce(sum(u.presupuesto_default), 0) from ${users} u
            where u.id_cliente = c.id and u.rol = ${ROLES.usuario} and u.activo)
        end as presupuesto,
        (select coalesce(sum(s.importe), 0) from ${userMonthSpend} s inner join ${users} u on u.id = s.id_user
          where u.id_cliente = c.id and s.mes = ${`${month.key}-01`}::date and s.id_categoria = 0) as utilizado
      from ${clients} c where c.activo`,
  );
  return rows
    .map((r) => ({
      id: r.id,
      nombre: r.nombre,
      presupuesto: centavosToPesos(Number(r.presupuesto)),
      utilizado: centavosToPesos(Number(r.utilizado)),
    }))
    .sort((a, b) => {
      const share = (x: { presupuesto: number; utilizado: number }) =>
        x.presupuesto > 0 ? x.utilizado / x.presupuesto : x.utilizado > 0 ? Infinity : 0;
      return share(b) - share(a) || a.id - b.id;
    })
    .slice(0, CLIENTS_SHOWN);
}

/** The buyer's spend months shown in their history. */
const BUYER_MONTHS = 6;

/**
 * GET /api/historial/gasto: the buyer's last six business months against today's budget, each month as its
 * budget cards counted it (the shared `budgetState` over that month's running figures, no cart).
 */
export async function buyerSpend(deps: Deps, auth: AuthContext): Promise<BuyerSpendResponse> {
  if (auth.user.rol !== ROLES.usuario || !auth.client) throw forbidden();
  const tz = deps.config.BUSINESS_TZ;
  const current = businessMonth(deps.clock.now(), tz).key;
  const first = addMonths(current, -(BUYER_MONTHS - 1));
  const keys = monthKeys(first, current);
  const modo = auth.client.modoPresupuesto === 'categoria' ? 'categoria' : 'regular';
  // The running months (decision 0072): a few rows per month, whatever the buyer bought.
  const rows = await rowsOf<MonthSpendJson & { mes: string }>(
    deps.db,
    sql`select to_char(${userMonthSpend.mes}, 'YYYY-MM') as mes, ${userMonthSpend.idCategoria} as c,
        ${userMonthSpend.importe} as i, ${userMonthSpend.compras} as n
      from ${userMonthSpend}
      where ${userMonthSpend.idUser} = ${auth.user.id}
        and ${userMonthSpend.mes} >= ${`${first}-01`}::date and ${userMonthSpend.mes} <= ${`${current}-01`}::date`,
  );
  const budgets =
    modo === 'categoria'
      ? await deps.db
          .select({
            id: userCategoryBudgets.categoryId,
            presupuesto: userCategoryBudgets.presupuesto,
            nombre: categories.nombre,
          })
          .from(userCategoryBudgets)
          .innerJoin(categories, eq(categories.id, userCategoryBudgets.categoryId))
          .where(eq(userCategoryBudgets.userId, auth.user.id))
      : [];
  const byMonth = new Map<string, MonthSpendJson[]>(keys.map((k) => [k, []]));
  for (const r of rows) byMonth.get(r.mes)?.push(r);
  const states = keys.map((mes) => ({
    mes,
    state: budgetState({
      modo,
      presupuestoDefault: auth.user.presupuestoDefault,
      categorias: budgets,
      used: monthOfRows(byMonth.get(mes)!).used,
      cart: [],
    }),
  }));
  return {
    modo,
    presupuesto: centavosToPesos(states.at(-1)!.state.presupuesto),
    meses: states.map(({ mes, state }) => ({ mes, utilizado: centavosToPesos(state.utilizado) })),
    categorias: budgets
      .map((b) => ({
        id: b.id,
        nombre: b.nombre,
        presupuesto: centavosToPesos(b.presupuesto),
        meses: states.map(({ mes, state }) => ({
          mes,
          utilizado: centavosToPesos(state.categorias.get(b.id)?.utilizado ?? 0),
        })),
      }))
      .sort((a, b) => a.nombre.localeCompare(b.nombre, 'es')),
  };
}
