/**
 * The documents of the bench's recent orders, written by seed-large.ts after the orders with set-based SQL
 * over them: the shipments of the last SHIPMENT_DAYS with their receipts (decisions 0125, 0127), the bench's
 * receiver (0130), and the CFDI invoices of the last INVOICE_DAYS with their concepts, credit notes, payment
 * complements and what each invoice still owes (0131, 0134). Older orders were delivered and invoiced before
 * the portal recorded shipments and invoices: writing a year of every line three times over (shipped,
 * received, billed) would double the seed's time.
 */
import { createHash } from 'node:crypto';

/** Approved orders of these last days that left have their shipment (one, with a guía). */
export const SHIPMENT_DAYS = 60;
/** Shipped orders of these last days have their invoice: enough for every aging bucket past 90 days. */
export const INVOICE_DAYS = 130;
/** The bench's receiver (rol 1 of the first client, for its first address). */
export const RECEIVER_USER = 'bench.receptor';

/** The distributor that stamps the invoices: the SAT's test issuer. */
const ISSUER_RFC = 'EKU9003173C9';
const ISSUER_NAME = 'ESCUELA KEMPER URGATE';
/** The seal's last 8 characters, as the verification link carries them. */
const SEAL_END = 'cHJ1ZWJh';
/** A payment complement pays at most this many invoices (one bank transfer). */
const INVOICES_PER_PAYMENT = 50;

export interface DocumentsSeed {
  exec: (text: string) => Promise<number>;
  step: <T>(label: string, fn: () => Promise<T>) => Promise<T>;
  /** The seed's now, as SQL. */
  nowSql: string;
  /** The business date (YYYY-MM-DD) and time zone. */
  today: string;
  tz: string;
  /** The bench password's hash. */
  hash: string;
}

/** A CFDI UUID (upper case, 8-4-4-4-12) made from the MD5 of a SQL text expression. */
function uuidOf(key: string): string {
  const part = (from: number, n: number) => `substr(md5(${key}), ${from}, ${n})`;
  return `upper(${part(1, 8)} || '-' || ${part(9, 4)} || '-' || ${part(13, 4)} || '-' || ${part(17, 4)} || '-' || ${part(21, 12)})`;
}

/** A Total as the SAT's verification link writes it: no trailing zeros, at least one decimal ("1160.0"). */
const linkTotal = (centavos: string) =>
  `case when ${centavos} % 100 = 0 then (${centavos} / 100)::text || '.0' else trim_scale(${centavos} / 100.0)::text end`;

/** Shipments of the recent orders, their lines and receipts; the bench's receiver. */
export async function seedShipments(s: DocumentsSeed): Promise<void> {
  const { exec } = s;
  await s.step(`shipments and receipts (last ${SHIPMENT_DAYS} days)`, async () => {
    // The operator ships three days after the purchase: every unit, or a partial order's odd lines.
    await exec(`insert into order_shipments (order_id, numero, guia, fecha, actor_id, created_at)
      select o.id, 1, o.guia, ((o.transaction_date + interval '3 days') at time zone '${s.tz}')::date,
        (select id from users where rol = 4 order by id limit 1), o.transaction_date + interval '3 days'
      from orders o where o.guia is not null order by o.id`);
    await exec(`insert into order_shipment_lines (shipment_id, order_line_id, cantidad)
      select sh.id, l.id, l.enviado from order_shipments sh join order_lines l on l.order_id = sh.order_id
      where l.enviado > 0 order by sh.id, l.id`);
    // A delivered order's buyer received its shipment in full two days later; one in 33 was marked delivered
    // by the operator without a receipt. Shipped and partial orders wait for theirs.
    await exec(`insert into order_receipts (order_id, shipment_id, user_id, created_at)
      select sh.order_id, sh.id, o.id_user, sh.created_at + interval '2 days'
      from order_shipments sh join orders o on o.id = sh.order_id
      where o.surtido_estatus = 'entregado' and o.id % 33 <> 0 order by sh.id`);
    await exec(`insert into order_receipt_lines (receipt_id, line_id, recibido)
      select r.id, sl.order_line_id, sl.cantidad
      from order_receipts r join order_shipment_lines sl on sl.shipment_id = r.shipment_id
      order by r.id, sl.order_line_id`);
    // The dock's receiver of the first client's first address: a rol-1 account with no products.
    await exec(`insert into users (id_cliente, usuario, user_id, nombre, rol, password_hash, password_changed_at,
        id_direccion, receptor)
      select a.id_cliente, '${RECEIVER_USER}', '${RECEIVER_USER}@bench.mx', 'Alma Ríos', 1, '${s.hash}', ${s.nowSql},
        a.id, true
      from client_addresses a order by a.id limit 1`);
    await exec(`insert into receiver_addresses (user_id, address_id)
      select id, id_direccion from users where usuario = '${RECEIVER_USER}'`);
  });
}

/**
 * Invoices (I) of the orders shipped in the last INVOICE_DAYS, four days after the purchase, with a concept
 * per line and the match's state (conciliada); a credit note (E) of a tenth of one invoice in 50; payment
 * complements (P) paying each invoice on its due date, up to INVOICES_PER_PAYMENT at a time — but one
 * invoice in 25 stays unpaid (overdue) and one in 50 is paid in half. Invoices not yet due are open.
 */
export async function seedInvoices(s: DocumentsSeed): Promise<void> {
  const { exec, tz } = s;
  const today = `'${s.today}'::date`;
  await s.step(`invoices, credit notes and payments (last ${INVOICE_DAYS} days)`, async () => {
    // The seed stores no XML per CFDI (no list reads it): every row names one placeholder file.
    const placeholder = `<?xml version="1.0" encoding="UTF-8"?>\n<!-- Datos de prueba de carga: el XML de este CFDI no se guardó. -->\n`;
    const xmlFile = `${createHash('sha256').update(`cfdi:${placeholder}`).digest('hex')}.xml`;
    await exec(`insert into stored_files (id, kind, mime, size)
      values ('${xmlFile}', 'factura', 'application/xml', ${Buffer.byteLength(placeholder)})`);
    await exec(`insert into stored_file_parts (file_id, part, data)
      values ('${xmlFile}', 0, convert_to('${placeholder.replace(/'/g, "''")}', 'UTF8'))`);

    await exec(`create temp table bench_inv as
      select y.*, y.total - y.nota - y.pagado as saldo from (
        select x.*,
          case when x.vence >= ${today} or x.h < 4 then 0
            when x.h < 6 then (x.total - x.nota) / 2 else x.total - x.nota end as pagado
        from (
          select o.id as order_id, o.id_cliente, o.subtotal, o.iva, o.total, f.fecha,
            f.fecha::date + c.dias_credito as vence, h.h, ${uuidOf(`'bench-I-' || o.id`)} as uuid_i,
            ${uuidOf(`'bench-E-' || o.id`)} as uuid_e,
            case when h.h % 50 = 7 and f.fecha::date + 5 < ${today} then (o.total + 5) / 10 else 0 end as nota,
            (select jsonb_object_agg(l.id::text, l.cantidad) from order_lines l where l.order_id = o.id)
              as facturado
          from orders o join clients c on c.id = o.id_cliente
          cross join lateral (select (((o.transaction_date + interval '4 days') at time zone '${tz}')
            ::timestamp(0)) as fecha) f
          cross join lateral (select abs(hashint4(o.id) % 100) as h) h
          where o.surtido_estatus in ('enviado', 'entregado')
            and o.transaction_date > ${s.nowSql} - interval '${INVOICE_DAYS} days'
        ) x
      ) y`);
    await exec(`create temp table bench_pay as
      select z.*, ${uuidOf(`'bench-P-' || z.id_cliente || '-' || z.vence || '-' || z.lote`)} as uuid_p from (
        select order_id, id_cliente, vence, pagado, uuid_i,
          (row_number() over (partition by id_cliente, vence order by order_id) - 1) / ${INVOICES_PER_PAYMENT} as lote
        from bench_inv where pagado > 0
      ) z`);

    // One insert in registration order, so that ids interleave the three kinds as the ERP posts them.
    const stamp = (t: string) => `to_char(${t}, 'YYYY-MM-DD"T"HH24:MI:SS')`;
    await exec(`insert into invoices (id_cliente, order_id, tipo, uuid, serie, folio, fecha, fecha_timbrado,
        emisor_rfc, emisor_nombre, receptor_rfc, receptor_nombre, uso_cfdi, subtotal, descuento, traslados,
        retenciones, total, metodo_pago, forma_pago, saldo, xml_file_id, created_by, created_at, verificacion_sat,
        cotejo, cotejo_facturado, cotejo_exceso)
      select d.id_cliente, d.order_id, d.tipo, d.uuid, d.serie, d.folio, ${stamp('d.fecha')},
        ${stamp(`d.fecha + interval '1 minute'`)}, '${ISSUER_RFC}', '${ISSUER_NAME}', c.rfc, c.razon_social,
        case when d.tipo = 'P' then 'CP01' else 'G03' end, d.subtotal, 0, d.traslados, 0, d.total,
        case d.tipo when 'I' then 'PPD' when 'E' then 'PUE' end, case d.tipo when 'I' then '99' when 'E' then '03' end,
        d.saldo, '${xmlFile}', (select id from users where rol = 4 order by id limit 1),
        (d.fecha + interval '5 minutes') at time zone '${tz}',
        'https://verificacfdi.facturaelectronica.sat.gob.mx/default.aspx?id=' || d.uuid || '&re=${ISSUER_RFC}&rr='
          || c.rfc || '&tt=' || ${linkTotal('d.enlace')} || '&fe=${SEAL_END}',
        case when d.tipo = 'I' then 'conciliada' end, coalesce(d.facturado, '{}'::jsonb),
        case when d.tipo = 'I' then 0 end
      from (
        select 'I' as tipo, order_id, id_cliente, uuid_i as uuid, 'A' as serie, order_id::text as folio, fecha,
          subtotal, iva as traslados, total, saldo, facturado, total as enlace
        from bench_inv
        union all
        select 'E', order_id, id_cliente, uuid_e, 'NC', order_id::text, fecha + interval '5 days',
          round(nota / 1.16)::bigint, nota - round(nota / 1.16)::bigint, nota, null, null, nota
        from bench_inv where nota > 0
        union all
        select 'P', min(order_id), id_cliente, uuid_p, 'P', to_char(vence, 'YYYYMMDD') || '-' || (lote + 1),
          vence + time '12:00', 0, 0, sum(pagado)::bigint, null, null, 0
        from bench_pay group by id_cliente, vence, lote, uuid_p
      ) d join clients c on c.id = d.id_cliente
      order by d.fecha, d.order_id, d.tipo`);

    // The concepts: one per order line (its clave interna, as the three-way match reads it), one for a
    // credit note or a payment.
    await exec(`insert into invoice_lines (invoice_id, numero, clave_prod_serv, no_identificacion, cantidad,
        clave_unidad, unidad, descripcion, valor_unitario, importe, descuento)
      select i.id, row_number() over (partition by i.id order by l.id), '44121600', l.clave_interna,
        l.cantidad::text, 'H87', l.unidad_de_medida, l.nombre, to_char(l.precio / 100.0, 'FM999999990.00'),
        l.precio * l.cantidad, 0
      from invoices i join order_lines l on l.order_id = i.order_id where i.tipo = 'I'
      union all
      select i.id, 1, '84111506', null, '1', 'ACT', null,
        case when i.tipo = 'E' then 'Bonificación' else 'Pago' end,
        to_char(i.subtotal / 100.0, 'FM999999990.00'), i.subtotal, 0
      from invoices i where i.tipo <> 'I'
      order by 1, 2`);
    await exec(`insert into invoice_applications (source_id, invoice_id, importe, created_at)
      select src.id, inv.id, a.importe, src.created_at from (
        select uuid_e as source, uuid_i as invoice, nota as importe from bench_inv where nota > 0
        union all
        select uuid_p, uuid_i, pagado from bench_pay
      ) a
      join invoices src on src.uuid = a.source join invoices inv on inv.uuid = a.invoice
      order by src.id, inv.id`);
  });
}
