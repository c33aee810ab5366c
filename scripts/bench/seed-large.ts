/**
 * `npm run seed:large -- --database-url postgres://… [--size large|small|xlarge] [--reset]`
 * `npm run seed:large -- --data-dir ./data-bench --size small`
 *
 * Loads a large, domain-valid data set with set-based SQL (INSERT … SELECT generate_series), after running
 * the migrations: 3 clients (with fiscal data, credit terms and delivery addresses), their categories, products
 * (with stock and lead times), users (one password hash computed once and reused; receivers among them),
 * assignments, category budgets, access weeks covering today, 12 months (24 in `xlarge`) of orders with lines and
 * events, and the system log entries those orders would have written; the recent orders' shipments, receipts and
 * invoices (seed-documents.ts). Budgets are set from the generated history so that no user is over budget. Prints
 * the bench sign-ins at the end (bench data only). A database seeded before products had stock gets it on its
 * next use (`upgradeStock`).
 */
import { pathToFileURL } from 'node:url';
import { addDays, businessDate, businessMonth } from '@portal/shared/domain/time';
import { type Database, openDatabase, runMigrations } from '../../apps/server/src/db/client.ts';
import { rebuildTotals } from '../../apps/server/src/db/order-totals.ts';
import { hashPassword } from '../../apps/server/src/lib/passwords.ts';
import { type BenchArgs, ensurePostgresDatabase, parseArgs, type SizeName } from './common.ts';
import { RECEIVER_USER, SHIPMENT_DAYS, seedInvoices, seedShipments } from './seed-documents.ts';

/** The bench sign-ins (bench data only; not a secret). */
export const BENCH_PASSWORD = 'Bench#2026';
export const BENCH_USERS = {
  usuario: 'bench.usuario',
  autorizador: 'bench.autorizador',
  admin: 'bench.admin',
  receptor: RECEIVER_USER,
} as const;
/** Prefix of the rol-1 users the bench makes purchases with (client 1). */
export const BUYER_PREFIX = 'bi.c';

export interface SeedSize {
  usersPerClient: [number, number, number];
  productsPerClient: number;
  orders: number;
  /** Rol-1 users of client 1 set aside for the purchase benchmark. */
  buyers: number;
  assignedPerUser: number;
  /** Months of order history, ending now. */
  months: number;
}

export const SIZES: Record<SizeName, SeedSize> = {
  large: {
    usersPerClient: [3000, 1000, 999],
    productsPerClient: 100_000,
    orders: 100_000,
    buyers: 1000,
    assignedPerUser: 40,
    months: 12,
  },
  small: {
    usersPerClient: [300, 100, 99],
    productsPerClient: 10_000,
    orders: 10_000,
    buyers: 200,
    assignedPerUser: 40,
    months: 12,
  },
  // Ten times the orders of `large` over twice the months, ten times the users (issue 44 item 1): a
  // distributor's data after two years with a big first client. The products stay at 300,000.
  xlarge: {
    usersPerClient: [30_000, 10_000, 9_999],
    productsPerClient: 100_000,
    orders: 1_000_000,
    buyers: 1000,
    assignedPerUser: 40,
    months: 24,
  },
};

type Exec = (text: string) => Promise<number>;

function executor(database: Database): Exec {
  if (database.pool) {
    const pool = database.pool;
    return async (text) => (await pool.query(text)).rowCount ?? 0;
  }
  const pglite = database.pglite!;
  return async (text) => (await pglite.query(text)).affectedRows ?? 0;
}

async function scalar(database: Database, text: string): Promise<number> {
  if (database.pool) {
    const r = await database.pool.query<{ v: string | number }>(text);
    return Number(r.rows[0]?.v ?? 0);
  }
  const r = await database.pglite!.query<{ v: string | number }>(text);
  return Number(r.rows[0]?.v ?? 0);
}

const NOUNS = [
  'Hojas blancas',
  'Bolígrafo',
  'Cuaderno',
  'Carpeta',
  'Desarmador',
  'Cinta de aislar',
  'Llave ajustable',
  'Flexómetro',
  'Desengrasante',
  'Toallas de papel',
  'Bolsa para basura',
  'Jabón líquido',
  'Mouse óptico',
  'Teclado',
  'Memoria USB',
  'Tóner',
  'Casco de seguridad',
  'Guantes de nitrilo',
  'Lentes de seguridad',
  'Tapones auditivos',
  'Café molido',
  'Azúcar',
  'Vasos térmicos',
  'Marcatextos',
  'Notas adhesivas',
  'Folder',
  'Grapas',
  'Engrapadora',
  'Camisa de trabajo',
  'Chaleco reflejante',
];
const ADJECTIVES = [
  'estándar',
  'industrial',
  'económico',
  'reforzado',
  'premium',
  'ecológico',
  'compacto',
  'grande',
  'mediano',
  'chico',
  'azul',
  'negro',
  'rojo',
  'verde',
  'blanco',
  'de repuesto',
  'profesional',
  'multiusos',
  'antiderrapante',
  'térmico',
];
const UNITS = ['Pieza', 'Caja', 'Paquete', 'Litro', 'Par', 'Galón'];
const CATEGORIES: [string, string][] = [
  ['Papelería', 'IconPencil'],
  ['Herramientas', 'IconTool'],
  ['Limpieza', 'IconSpray'],
  ['Cómputo', 'IconDeviceDesktop'],
  ['Seguridad industrial', 'IconHelmet'],
  ['Cafetería', 'IconCoffee'],
  ['Uniformes', 'IconShirt'],
  ['Botiquín', 'IconFirstAidKit'],
  ['Archivo', 'IconArchive'],
  ['Impresión', 'IconPrinter'],
  ['Mantenimiento', 'IconHammer'],
  ['Almacén', 'IconPackage'],
];

/** The labels of each client's delivery addresses; rol-1 users default to one of them in turn. */
const ADDRESSES = ['Almacén Norte', 'Almacén Sur', 'Planta', 'Oficinas centrales'];

const sqlArray = (items: readonly string[]) =>
  `array[${items.map((s) => `'${s.replace(/'/g, "''")}'`).join(',')}]::text[]`;

interface ClientSpec {
  nombre: string;
  prefix: string;
  modo: 'regular' | 'categoria';
  autorizadores: 1 | 2;
  limite: number;
  estado: string;
  ciudad: string;
  /** Fiscal data (decision 0128): an RFC of the SAT's test set (a valid check digit) and its C.P. */
  rfc: string;
  cpFiscal: string;
  /** Credit terms (decision 0134): the limit in centavos (null: none), the days and the policy. */
  limiteCredito: number | null;
  diasCredito: number;
  politicaCredito: 'avisar' | 'retener';
}

const CLIENTS: ClientSpec[] = [
  {
    nombre: 'Bench Industrial',
    prefix: 'BI',
    modo: 'regular',
    autorizadores: 1,
    limite: -1,
    estado: 'Nuevo León',
    ciudad: 'Monterrey',
    rfc: 'URE180429TM6',
    cpFiscal: '64000',
    // Its open invoices (a month of them, some $35,000,000, and the overdue ones) and room for more.
    limiteCredito: 6_000_000_000,
    diasCredito: 30,
    politicaCredito: 'avisar',
  },
  {
    nombre: 'Bench Servicios',
    prefix: 'BS',
    modo: 'regular',
    autorizadores: 2,
    limite: 40,
    estado: 'Jalisco',
    ciudad: 'Guadalajara',
    rfc: 'XIA190128J61',
    cpFiscal: '44100',
    limiteCredito: 800_000_000,
    diasCredito: 45,
    politicaCredito: 'retener',
  },
  {
    nombre: 'Bench Categorías',
    prefix: 'BC',
    modo: 'categoria',
    autorizadores: 1,
    limite: -1,
    estado: 'Ciudad de México',
    ciudad: 'Benito Juárez',
    rfc: 'IIA040805DZ4',
    cpFiscal: '03100',
    limiteCredito: null,
    diasCredito: 15,
    politicaCredito: 'avisar',
  },
];

/**
 * The stock of the seed's product number `g` (1…productsPerClient, the number in its clave), as the ERP of
 * decision 0124 would have written it: 8% unknown, 10% at 0 ("sobre pedido"), 12% at 1–5 (at or below the
 * clients' default `umbral_existencia`, "Quedan N"), the rest 6–500; a lead time on 60% of them. Spread by
 * a multiplicative hash, not by `g % 100`, so that a search (one noun in 30) meets every kind.
 */
function stockOf(g: string): { existencia: string; diasEntrega: string } {
  const h = `((${g})::bigint * 2654435761 % 1000 / 10)`;
  return {
    existencia: `case when ${h} < 8 then null when ${h} < 18 then 0 when ${h} < 30 then 1 + (${g}) % 5
      else 6 + (${g}) % 495 end`,
    diasEntrega: `case when ${h} % 5 < 3 then 1 + (${g}) % 20 end`,
  };
}

/** The seed's own products (clave BI-000001…): what `upgradeStock` may fill in. */
const SEEDED_CLAVE = `clave_interna ~ '^B[ISC]-[0-9]{6}$'`;

/**
 * A database seeded before products had stock (every `existencia` null): gives the seed's products the
 * stock `stockOf` gives a fresh seed, so that the catalogue measured is the catalogue with stock. Runs
 * once: afterwards some product has a known stock.
 */
async function upgradeStock(database: Database): Promise<void> {
  const known = await scalar(
    database,
    `select count(*) as v from (select 1 from products where existencia is not null limit 1) k`,
  );
  if (known > 0) return;
  const g = `substring(clave_interna from 4)::int`;
  const exec = executor(database);
  await step('stock of the seeded products (once)', async () => {
    await exec(`update products set existencia = ${stockOf(g).existencia}, dias_entrega = ${stockOf(g).diasEntrega}
      where ${SEEDED_CLAVE}`);
    await exec('vacuum analyze products');
  });
}

export interface SeedResult {
  seconds: number;
  counts: Record<string, number>;
}

const log = (msg: string) => process.stdout.write(`${msg}\n`);

async function step<T>(label: string, fn: () => Promise<T>): Promise<T> {
  const t0 = performance.now();
  const out = await fn();
  log(`  ${label.padEnd(44)} ${((performance.now() - t0) / 1000).toFixed(1).padStart(6)} s`);
  return out;
}

/** Seeds an empty, migrated database. */
export async function seedLarge(database: Database, size: SeedSize, tz: string): Promise<SeedResult> {
  const exec = executor(database);
  const t0 = performance.now();
  const now = new Date();
  const today = businessDate(now, tz);
  const month = businessMonth(now, tz);
  const hash = await hashPassword(BENCH_PASSWORD);
  const nowSql = `'${now.toISOString()}'::timestamptz`;
  const monthStart = `'${month.start.toISOString()}'::timestamptz`;
  const monthEnd = `'${month.end.toISOString()}'::timestamptz`;
  const ppc = size.productsPerClient;
  /** The history's days (whole months of 365/12 days, as the 12 months were 365 days) and its weeks, plus a month. */
  const historyDays = Math.round((size.months * 365) / 12);
  const historyWeeks = Math.ceil((historyDays + 31) / 7);

  await step('clients, categories, weeks', async () => {
    for (const c of CLIENTS) {
      await exec(`insert into clients (nombre, presupuesto_default, cantidad_autorizadores, limite_de_compras,
          modo_presupuesto, mostrar_presupuesto_a_usuarios, rfc, razon_social, regimen_fiscal, uso_cfdi, cp_fiscal,
          correos_facturacion, limite_credito, dias_credito, politica_credito)
        values ('${c.nombre}', ${c.modo === 'regular' ? 5_000_000 : 0}, ${c.autorizadores}, ${c.limite},
          '${c.modo}', true, '${c.rfc}', '${c.nombre.toUpperCase()} SA DE CV', '601', 'G03', '${c.cpFiscal}',
          array['facturas@${c.prefix.toLowerCase()}.bench.mx'], ${c.limiteCredito ?? 'null'}, ${c.diasCredito},
          '${c.politicaCredito}')`);
    }
    // Each client's address book (decision 0126): ADDRESSES.length entries, contiguous ids per client.
    await exec(`insert into client_addresses (id_cliente, nombre, calle, numero_exterior, colonia, municipio,
        ciudad, estado, cp, contacto, telefono, horario)
      select c.id, a.nombre, 'Av. Industrial', (100 * a.n)::text, 'Parque Industrial', s.ciudad, s.ciudad, s.estado,
        lpad((64000 + a.n)::text, 5, '0'), 'Recepción ' || a.nombre, '81' || lpad((12345670 + a.n)::text, 8, '0'),
        'L-V 8:00 a 17:00'
      from clients c
      join unnest(${sqlArray(CLIENTS.map((x) => x.nombre))}, ${sqlArray(CLIENTS.map((x) => x.ciudad))},
        ${sqlArray(CLIENTS.map((x) => x.estado))}) as s(nombre, ciudad, estado) on s.nombre = c.nombre
      cross join unnest(${sqlArray(ADDRESSES)}) with ordinality as a(nombre, n)
      order by c.id, a.n`);
    await exec(`insert into categories (id_cliente, nombre, icono)
      select c.id, cat.nombre, cat.icono from clients c
      cross join unnest(${sqlArray(CATEGORIES.map((x) => x[0]))}, ${sqlArray(CATEGORIES.map((x) => x[1]))})
        as cat(nombre, icono)
      order by c.id`);
    // One active week per calendar week, from a month before the history to 4 weeks ahead, Monday to Sunday.
    const dow = (new Date(`${today}T12:00:00Z`).getUTCDay() + 6) % 7;
    const monday = addDays(today, -dow);
    await exec(`insert into weeks (id_cliente, inicio, fin, activo)
      select c.id, '${monday}'::date + 7 * w, '${monday}'::date + 7 * w + 6, true
      from clients c cross join generate_series(${-historyWeeks}, 4) w order by c.id, w`);
  });

  await step(`products (${(3 * ppc).toLocaleString('en')})`, async () => {
    await exec(`insert into products (id_cliente, id_categoria, clave_interna, clave_cliente, nombre,
        descripcion, unidad_de_medida, precio, activo, impuesto, existencia, dias_entrega)
      select c.id,
        (select min(id) from categories k where k.id_cliente = c.id) + (g % ${CATEGORIES.length}),
        (array['BI','BS','BC'])[c.id - (select min(id) from clients) + 1] || '-' || lpad(g::text, 6, '0'),
        'CLI-' || (100000 + g * 7),
        (${sqlArray(NOUNS)})[1 + g % ${NOUNS.length}] || ' ' ||
          (${sqlArray(ADJECTIVES)})[1 + (g / ${NOUNS.length}) % ${ADJECTIVES.length}] || ' modelo ' || g,
        'Presentación ' || (1 + g % 12) || ', para uso en oficina y planta.',
        (${sqlArray(UNITS)})[1 + g % ${UNITS.length}],
        500 + (g * 7919) % 49500,
        g % 50 <> 0,
        g % 7 <> 0,
        ${stockOf('g').existencia},
        ${stockOf('g').diasEntrega}
      from clients c cross join generate_series(1, ${ppc}) g
      order by c.id, g`);
  });

  await step('users (one password hash, reused)', async () => {
    await exec(`insert into users (id_cliente, usuario, user_id, nombre, rol, password_hash, password_changed_at)
      values (null, '${BENCH_USERS.admin}', 'bench.admin@portal-de-compras.mx', 'Administrador de pruebas', 4,
        '${hash}', ${nowSql})`);
    for (const [i, c] of CLIENTS.entries()) {
      const n = size.usersPerClient[i]!;
      const p = c.prefix.toLowerCase();
      const cid = `(select id from clients where nombre = '${c.nombre}')`;
      const firstAddress = `(select min(id) from client_addresses where id_cliente = ${cid})`;
      const authorizers = c.autorizadores;
      // k = 1: rol 2; k = 2 (two levels): rol 3; then the rol-1 users. Client 1's first ones are the buyers
      // of the purchase benchmark; the known rol-1 user comes right after the authorizer. Each rol-1 user's
      // default address is one of the client's in turn; the last ones are its receivers (decision 0130),
      // one per address.
      await exec(`insert into users (id_cliente, usuario, user_id, nombre, rol, direccion_entrega, area,
          localidad, region, coordinacion, calle, colonia, ciudad, cp, estado, active_week, entrega_week,
          limite_de_compras, presupuesto_default, password_hash, password_changed_at, id_direccion, receptor)
        select ${cid},
          case
            when k = 1 and ${i} = 0 then '${BENCH_USERS.autorizador}'
            when k = 2 and ${i} = 0 then '${BENCH_USERS.usuario}'
            when k <= ${authorizers} then '${p}.autorizador' || k
            when ${i} = 0 and k - 2 <= ${size.buyers} then '${BUYER_PREFIX}' || lpad((k - 2)::text, 5, '0')
            else '${p}.u' || lpad(k::text, 5, '0')
          end,
          '${p}.usuario' || k || '@bench.mx',
          (array['María','José','Ana','Luis','Sofía','Carlos','Laura','Jorge','Elena','Miguel'])[1 + k % 10]
            || ' ' || (array['López','García','Hernández','Martínez','Pérez','Ramírez','Cruz','Flores'])[1 + k % 8]
            || ' ' || (array['Ortiz','Soto','Reyes','Morales','Jiménez','Ruiz','Díaz'])[1 + k % 7],
          case when k <= ${authorizers} then k + 1 else 1 end,
          'Planta ${c.ciudad}, andén ' || (1 + k % 6), (array['Compras','Mantenimiento','Almacén','Producción',
            'Calidad','Recursos Humanos'])[1 + k % 6], 'Planta ${c.ciudad}', 'Región ' || (1 + k % 4),
          'Coordinación ' || (1 + k % 5), 'Av. Industrial ' || (100 + k), 'Parque Industrial',
          '${c.ciudad}', lpad((10000 + k)::text, 5, '0'), '${c.estado}', 1 + k % 4, 1 + (k + 1) % 4,
          ${c.limite}, ${c.modo === 'regular' ? 5_000_000 : 0}, '${hash}', ${nowSql},
          case when k > ${authorizers} then ${firstAddress} + k % ${ADDRESSES.length} end,
          k > ${n - ADDRESSES.length}
        from generate_series(1, ${n}) k order by k`);
    }
    await exec(`insert into receiver_addresses (user_id, address_id)
      select id, id_direccion from users where receptor order by id`);
  });

  await step('assignments and category budgets', async () => {
    // Products of a client are contiguous ids: pick by arithmetic, no random joins.
    await exec(`create temp table bench_pr as
      select id_cliente, min(id) as pmin, count(*)::int as pcount from products group by id_cliente`);
    await exec(`insert into user_products (user_id, product_id, asignado, cantidad_limite)
      select u.id, pr.pmin + ((u.id::bigint * 131 + j * 2477) % pr.pcount), j % 25 <> 0, 1 + j % 5
      from users u join bench_pr pr on pr.id_cliente = u.id_cliente
      cross join lateral generate_series(1,
        case when u.usuario = '${BENCH_USERS.usuario}' then 200 else ${size.assignedPerUser} end) j
      where u.rol = 1
      on conflict do nothing`);
    // The known user's 200 are all assigned.
    await exec(`update user_products set asignado = true where user_id =
      (select id from users where usuario = '${BENCH_USERS.usuario}')`);
    await exec(`insert into user_category_budgets (user_id, category_id, presupuesto)
      select u.id, k.id, 1000000 from users u join clients c on c.id = u.id_cliente
      join categories k on k.id_cliente = c.id
      where u.rol = 1 and c.modo_presupuesto = 'categoria'`);
  });

  // The orders' version trigger (the striped counters of decision 0084) upserts one row per client for every
  // order written: a million upserts of three rows in one statement is a chain of a million row versions to
  // walk, so the insert and the totals' update ran for hours at xlarge. Off while the orders are written,
  // then each client's version is bumped once.
  await exec('alter table orders disable trigger orders_bump_version');
  try {
    await seedOrders();
  } finally {
    await exec('alter table orders enable trigger orders_bump_version');
  }
  await exec(`insert into client_order_versions (id_cliente, stripe, version)
    select id, 0, 1 from clients
    on conflict (id_cliente, stripe) do update set version = client_order_versions.version + 1`);

  async function seedOrders() {
    await step(`orders (${size.orders.toLocaleString('en')}) over ${size.months} months`, async () => {
      // Each buyer with the copy of its default address its orders carry, as the purchase writes it.
      await exec(`create temp table bench_buyers as
      select u.id_cliente, u.id as user_id,
        (row_number() over (partition by u.id_cliente order by u.id) - 1)::int as k,
        jsonb_build_object('id_direccion', a.id, 'nombre', a.nombre, 'calle', a.calle,
          'numero_exterior', a.numero_exterior, 'numero_interior', a.numero_interior, 'colonia', a.colonia,
          'municipio', a.municipio, 'ciudad', a.ciudad, 'estado', a.estado, 'cp', a.cp,
          'contacto', a.contacto, 'telefono', a.telefono, 'horario', a.horario) as entrega
      from users u join client_addresses a on a.id = u.id_direccion where u.rol = 1`);
      await exec(`create temp table bench_bc as
      select id_cliente, count(*)::int as n from bench_buyers group by id_cliente`);
      await exec(`create temp table bench_cl as
      select id, row_number() over (order by id)::int as ord, cantidad_autorizadores from clients`);
      // Temporary tables have no statistics until analyzed: without them the planner joined each of a
      // million orders to its buyer by scanning the client's buyers (an hour and more at xlarge's 30,000).
      await exec('create index on bench_buyers (id_cliente, k)');
      await exec('analyze bench_buyers, bench_bc, bench_cl');
      const N = size.orders;
      // 85% of the orders are client 1's (the detail report runs over it), 10% client 2's, 5% client 3's.
      // Every 1000th order is the known user's; ids grow with dates. Approved orders of 5–7 days are being
      // prepared, of 7–10 days shipped (one in five in part), older ones delivered. Those of the last
      // SHIPMENT_DAYS that left have a guía: their shipment is written later (seedShipments), older ones
      // were delivered before shipments were recorded.
      const fulfilment = `case
          when ts > ${nowSql} - interval '5 days' or g % 10 = 0 then null
          when ts > ${nowSql} - interval '7 days' then case when g % 2 = 0 then 'por_surtir' else 'en_surtido' end
          when ts > ${nowSql} - interval '10 days' then case when g % 5 = 0 then 'parcial' else 'enviado' end
          else 'entregado'
        end`;
      await exec(`insert into orders (id_user, id_cliente, status, surtido_estatus, subtotal, iva, total, lineas,
        transaction_date, cancel_reason, created_at, updated_at, guia, entrega)
      select coalesce(known.id, b.user_id), cl.id,
        case
          when ts > ${nowSql} - interval '5 days' and cl.cantidad_autorizadores = 2 and g % 3 = 0 then 'espera'
          when ts > ${nowSql} - interval '5 days' then 'pendiente'
          when g % 10 = 0 then 'cancelado'
          else 'aprobado'
        end,
        surtido, 0, 0, 0, 0, ts, case when g % 10 = 0 then 'Pedido duplicado' end, ts, ts,
        case when surtido in ('parcial', 'enviado', 'entregado')
            and ts > ${nowSql} - interval '${SHIPMENT_DAYS} days'
          then (array['Estafeta','DHL','FedEx','Paquetexpress','99minutos'])[1 + g % 5] || ' ' || (7000000000 + g)
        end,
        coalesce(known_address.entrega, b.entrega)
      from (
        select g, ts, ${fulfilment} as surtido, ord from (
        select g, ${nowSql} - interval '${historyDays} days' + (g::float8 / ${N}) * interval '${historyDays - 1} days 23 hours' as ts,
          case when g % 20 < 17 then 1 when g % 20 < 19 then 2 else 3 end as ord
        from generate_series(1, ${N}) g
        ) t
      ) s
      join bench_cl cl on cl.ord = s.ord
      join bench_bc bc on bc.id_cliente = cl.id
      join bench_buyers b on b.id_cliente = cl.id and b.k = (s.g * 2654435761) % bc.n
      left join users known on s.ord = 1 and s.g % 1000 = 0 and known.usuario = '${BENCH_USERS.usuario}'
      left join bench_buyers known_address on known_address.user_id = known.id
      order by s.g`);
    });

    await step('order lines (about 12 per order)', async () => {
      // A shipped order with a guía shipped every unit of its lines, a partial one those of its odd lines.
      await exec(`insert into order_lines (order_id, product_id, clave_interna, clave_cliente, nombre,
        unidad_de_medida, id_categoria, categoria, precio, impuesto, cantidad, enviado)
      select o.id, p.id, p.clave_interna, p.clave_cliente, p.nombre, p.unidad_de_medida, p.id_categoria,
        k.nombre, p.precio, p.impuesto, 1 + (o.id + j) % 3,
        case when o.guia is null or (o.surtido_estatus = 'parcial' and j % 2 = 0) then 0 else 1 + (o.id + j) % 3 end
      from orders o
      join bench_pr pr on pr.id_cliente = o.id_cliente
      cross join lateral generate_series(1, 8 + o.id % 9) j
      join products p on p.id = pr.pmin + ((o.id::bigint * 7919 + j * 104729) % pr.pcount)
      join categories k on k.id = p.id_categoria
      order by o.id, j`);
      await exec(`update orders o set subtotal = s.subtotal, iva = s.iva, total = s.subtotal + s.iva, lineas = s.n
      from (
        select order_id, count(*)::int as n, sum(precio * cantidad)::bigint as subtotal,
          ((coalesce(sum(precio * cantidad) filter (where impuesto), 0)) * 16 + 50)::bigint / 100 as iva
        from order_lines group by order_id
      ) s where s.order_id = o.id`);
      // A purchase writes its order once, totals included, and orders are placed one after the other: a
      // production table follows the dates. The update above wrote every order again in its aggregate's
      // order, which scattered the table (the dates' correlation 0.14 on xlarge; finding 69): put the rows
      // back in the order they were placed (ids grow with dates), as production's table has them.
      await exec('cluster orders using orders_pkey');
    });
  }

  await step('budgets that fit this month (no one over budget)', async () => {
    await exec(`update users u set presupuesto_default = greatest(5000000, (m.spent * 3 / 2)::bigint)
      from (select id_user, sum(total) as spent from orders
            where status <> 'cancelado' and transaction_date >= ${monthStart} and transaction_date < ${monthEnd}
            group by id_user) m
      where m.id_user = u.id`);
    await exec(`update user_category_budgets b set presupuesto = greatest(1000000, (m.spent * 2)::bigint)
      from (select o.id_user, l.id_categoria, sum(l.precio * l.cantidad) as spent
            from orders o join order_lines l on l.order_id = o.id
            where o.status <> 'cancelado' and o.transaction_date >= ${monthStart}
              and o.transaction_date < ${monthEnd}
            group by o.id_user, l.id_categoria) m
      where m.id_user = b.user_id and m.id_categoria = b.category_id`);
  });

  await step('order events and system log', async () => {
    await exec(`insert into order_events (order_id, actor_id, tipo, from_status, to_status, changes, created_at)
      select o.id, o.id_user, 'creado', null,
        case when o.status in ('aprobado', 'cancelado') then 'pendiente' else o.status end,
        jsonb_build_object('total', o.total), o.transaction_date
      from orders o order by o.id`);
    await exec(`insert into order_events (order_id, actor_id, tipo, from_status, to_status, reason, created_at)
      select o.id, a.id, case when o.status = 'aprobado' then 'aprobado' else 'cancelado' end, 'pendiente',
        o.status, o.cancel_reason, o.transaction_date + interval '1 day'
      from orders o join users a on a.id_cliente = o.id_cliente and a.rol = 2
      where o.status in ('aprobado', 'cancelado') order by o.id`);
    // The client and the order of each entry, as lib/audit.ts writes them (decision 0062).
    await exec(`insert into system_logs (user_id, event_type, description, metadata, created_at, id_cliente, id_pedido)
      select user_id, event_type, description, metadata, created_at, id_cliente, id_pedido from (
        select o.id_user as user_id, 'login' as event_type, 'Inicio de sesión: ' || u.usuario as description,
          jsonb_build_object('ip', '10.1.' || (u.id % 250) || '.' || (u.id % 200), 'user_agent', 'Mozilla/5.0')
            as metadata, o.transaction_date - interval '10 minutes' as created_at,
          u.id_cliente as id_cliente, null::integer as id_pedido
        from orders o join users u on u.id = o.id_user
        union all
        select o.id_user, 'pedido_creado',
          'Pedido #' || lpad(o.id::text, 5, '0') || ' creado (pendiente)',
          jsonb_build_object('id_pedido', o.id, 'total', o.total, 'ip', '10.1.0.1', 'user_agent', 'Mozilla/5.0'),
          o.transaction_date, o.id_cliente, o.id
        from orders o
        union all
        select e.actor_id, 'pedido_' || e.tipo,
          'Pedido #' || lpad(e.order_id::text, 5, '0') || ' ' || e.tipo,
          jsonb_build_object('id_pedido', e.order_id, 'ip', '10.2.0.1', 'user_agent', 'Mozilla/5.0'),
          e.created_at, o.id_cliente, e.order_id
        from order_events e join orders o on o.id = e.order_id where e.tipo <> 'creado'
      ) l order by created_at`);
  });

  // The bell (decision 0114): each order told to its client's Autorizadores, each decision told to its
  // buyer; everything older than two days read.
  await step('notifications', async () => {
    await exec(`insert into notifications (user_id, tipo, titulo, texto, ruta, created_at, read_at)
      select user_id, tipo, titulo, texto, ruta, created_at,
        case when created_at < ${nowSql} - interval '2 days' then created_at + interval '1 hour' end
      from (
        select a.id as user_id, 'por_revisar' as tipo,
          'Pedido #' || lpad(o.id::text, 5, '0') || ' por revisar' as titulo,
          'Está pendiente de tu revisión.' as texto, '/autorizador/orden/' || o.id as ruta,
          o.transaction_date as created_at
        from orders o join users a on a.id_cliente = o.id_cliente and a.rol = 2
        union all
        select o.id_user, 'pedido', 'Pedido #' || lpad(o.id::text, 5, '0') || ' ' || o.status,
          'Tu pedido fue ' || o.status || '.', '/usuario/historial/' || o.id, o.transaction_date + interval '1 day'
        from orders o where o.status in ('aprobado', 'cancelado')
      ) n order by created_at`);
  });

  const documents = { exec, step, nowSql, today, tz, hash };
  await seedShipments(documents);
  await seedInvoices(documents);

  // The running totals (decision 0084's sales and spend tables), as the server builds them at its first
  // start: built here, the first start of a bench on xlarge does not spend minutes on them before it listens.
  await step('running totals', async () => {
    await rebuildTotals(database.db, tz);
  });

  // As autovacuum would have done by now: statistics and the visibility map (index-only scans).
  await step('vacuum analyze', async () => {
    await exec('vacuum analyze');
  });

  const counts: Record<string, number> = {};
  for (const t of [
    'clients',
    'users',
    'categories',
    'products',
    'user_products',
    'orders',
    'order_lines',
    'system_logs',
    'notifications',
    'order_shipments',
    'order_receipts',
    'invoices',
    'invoice_lines',
  ]) {
    counts[t] = await scalar(database, `select count(*) as v from ${t}`);
  }
  return { seconds: (performance.now() - t0) / 1000, counts };
}

export async function isSeeded(database: Database): Promise<boolean> {
  const n = await scalar(
    database,
    `select count(*) as v from users where usuario = '${BENCH_USERS.usuario}'`,
  );
  return n > 0;
}

export async function isEmpty(database: Database): Promise<boolean> {
  return (await scalar(database, 'select count(*) as v from users')) === 0;
}

export function printSignIns(): void {
  log('\nAccesos de prueba (solo para datos de benchmark):');
  log(`  ${BENCH_USERS.usuario.padEnd(20)} ${BENCH_PASSWORD}  rol 1  (Bench Industrial, 200 productos)`);
  log(`  ${BENCH_USERS.autorizador.padEnd(20)} ${BENCH_PASSWORD}  rol 2  (Bench Industrial)`);
  log(`  ${BENCH_USERS.admin.padEnd(20)} ${BENCH_PASSWORD}  rol 4`);
  log(
    `  ${BENCH_USERS.receptor.padEnd(20)} ${BENCH_PASSWORD}  rol 1  (Bench Industrial, receptor de mercancía)`,
  );
  log(
    `  ${`${BUYER_PREFIX}00001…`.padEnd(20)} ${BENCH_PASSWORD}  rol 1  (compradores de la prueba de carga)`,
  );
}

/** Opens (creating a PostgreSQL database when missing), migrates and seeds unless already seeded. */
export async function prepareDatabase(args: BenchArgs, opts: { reset: boolean }): Promise<Database> {
  if (args.databaseUrl) await ensurePostgresDatabase(args.databaseUrl, opts.reset);
  const database = await openDatabase({ databaseUrl: args.databaseUrl, dataDir: args.dataDir });
  await runMigrations(database);
  if (await isSeeded(database)) {
    log('La base de datos ya tiene los datos de benchmark.');
    await upgradeStock(database);
    return database;
  }
  if (!(await isEmpty(database))) {
    await database.close();
    throw new Error('La base de datos no está vacía: usa otra, o --reset (PostgreSQL) para recrearla.');
  }
  log(`Cargando datos (${args.size})…`);
  const result = await seedLarge(database, SIZES[args.size], args.tz);
  log(`Listo en ${result.seconds.toFixed(1)} s: ${JSON.stringify(result.counts)}`);
  return database;
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  if (!args.databaseUrl && !args.dataDir) {
    throw new Error('Indica --database-url postgres://… o --data-dir <carpeta> (PGlite, con --size small).');
  }
  const database = await prepareDatabase(args, { reset: args.flags.has('reset') });
  await database.close();
  printSignIns();
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().catch((err) => {
    process.stderr.write(`${(err as Error).stack ?? err}\n`);
    process.exit(1);
  });
}
