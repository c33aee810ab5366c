// Foreign-key naming (decision 0106): a property is its column's name in camelCase. A new key to `clients` is
// `id_cliente` (idCliente), as the specification's columns are; any other new key is `<entity>_id` after the
// table in English (userId/'user_id', productId/'product_id', orderId/'order_id', fileId/'file_id'); a
// column copied from another table keeps that column's name (idCategoria/'id_categoria'); a key that names
// a role says the role (actorId/'actor_id', createdBy/'created_by'). Database columns are not renamed.
// users.email reads the column 'user_id', which holds the account's e-mail (the specification's name, also
// the wire field), not a key.
import type { OrderDelivery } from '@portal/shared/domain/delivery';
import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigint,
  bigserial,
  boolean,
  check,
  customType,
  date,
  index,
  integer,
  jsonb,
  pgSequence,
  pgTable,
  primaryKey,
  serial,
  smallint,
  text,
  timestamp,
  unique,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

/** Money is always integer centavos. */
const money = (name: string) => bigint(name, { mode: 'number' });
const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (v) => (Buffer.isBuffer(v) ? v : Buffer.from(v)),
});

export const clients = pgTable(
  'clients',
  {
    id: serial('id').primaryKey(),
    nombre: text('nombre').notNull(),
    imagen: text('imagen'),
    color: text('color').notNull().default('#1c7ed6'),
    color2: text('color2').notNull().default('#15aabf'),
    calendario: text('calendario'),
    manual: text('manual'),
    presupuestoDefault: money('presupuesto_default').notNull().default(0),
    cantidadAutorizadores: smallint('cantidad_autorizadores').notNull().default(1),
    limiteDeCompras: integer('limite_de_compras').notNull().default(-1),
    modoPresupuesto: text('modo_presupuesto').notNull().default('regular'),
    mostrarPresupuestoAUsuarios: boolean('mostrar_presupuesto_a_usuarios').notNull().default(true),
    activo: boolean('activo').notNull().default(true),
    /** Two-factor sign-in is mandatory for this client's roles 2 and 3. */
    requiere2fa: boolean('requiere_2fa').notNull().default(false),
    /** Approval rules by amount (centavos, null = off): an order up to this total is approved at purchase. */
    aprobacionAutomaticaHasta: money('aprobacion_automatica_hasta'),
    /** With two levels: a level-1 approval of a total below this completes the order (decision 0049). */
    segundoNivelDesde: money('segundo_nivel_desde'),
    /** Hours an order waits on an approver before the daily reminder names it; 0 = off (decision 0051). */
    recordatorioHoras: integer('recordatorio_horas').notNull().default(24),
    /**
     * The rules by amount add what the same buyer placed in this many hours before an order (0 = each order
     * alone): a cart split in several orders meets the rules as one (issue 38, finding 8; decision 0100).
     */
    ventanaReglasHoras: integer('ventana_reglas_horas').notNull().default(24),
    /**
     * Hours an order may wait on its level before it escalates: flagged in the list and the next person told,
     * once per wait (issue 43, decision 0113); 0 = off.
     */
    escalarHoras: integer('escalar_horas').notNull().default(0),
    /** Budget alert thresholds, 1 to 3 whole percentages ascending (decision 0054). */
    alertasPresupuesto: integer('alertas_presupuesto').array().notNull().default(sql`'{80,100}'::integer[]`),
    /** The client's active rol-2 approvers get the budget alerts too. */
    avisarAutorizadores: boolean('avisar_autorizadores').notNull().default(false),
    /**
     * The purchase limit (cantidad_limite) a new assignment gets when none is given: the bulk assignment
     * dialog, enabling a category, an import row without a limit (issue 37).
     */
    limitePorDefecto: integer('limite_por_defecto').notNull().default(1),
    /** What the client's administrators (rol 5) may change (decision 0122; domain/client-admin.ts). */
    permisosCliente: text('permisos_cliente').array().notNull().default(sql`'{usuarios}'::text[]`),
    /**
     * A client administrator's monthly budget for a user above this (centavos) waits for the distributor's
     * approval (budget_change_requests); null: no cap.
     */
    topePresupuesto: money('tope_presupuesto'),
    /**
     * Stock (decision 0124): whether an approval may take a product's available stock below 0 (the line is
     * then "sobre pedido"); false refuses that approval.
     */
    permitirSobrePedido: boolean('permitir_sobre_pedido').notNull().default(true),
    /** The catalogue says "Quedan N" while a product's available stock is at most this (decision 0124). */
    umbralExistencia: integer('umbral_existencia').notNull().default(5),
    /**
     * Fiscal data, each optional (null: not given; decision 0128, domain/fiscal.ts): the RFC (upper case, 12
     * characters for a persona moral, 13 for a persona física, its check digit checked by the app), the razón
     * social as registered, the SAT catalogue codes of its régimen fiscal and uso de CFDI, the código postal
     * of its fiscal address and 1 to 5 billing e-mails (null: none).
     */
    rfc: text('rfc'),
    razonSocial: text('razon_social'),
    regimenFiscal: text('regimen_fiscal'),
    usoCfdi: text('uso_cfdi'),
    cpFiscal: text('cp_fiscal'),
    correosFacturacion: text('correos_facturacion').array(),
    /**
     * Credit (issue 42 item 4, decision 0134; domain/credit.ts): the limit in centavos (null: none), the
     * calendar days from an invoice's date to its due date, and what happens to an order approved over the
     * limit or with an overdue invoice: `avisar` (the approvers are warned) or `retener` (it is held from
     * fulfilment until the operator releases it).
     */
    limiteCredito: money('limite_credito'),
    diasCredito: integer('dias_credito').notNull().default(30),
    politicaCredito: text('politica_credito').notNull().default('avisar'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    check('clients_autorizadores_range', sql`${t.cantidadAutorizadores} between 0 and 2`),
    check('clients_regla_automatica_min', sql`${t.aprobacionAutomaticaHasta} >= 0`),
    check('clients_regla_segundo_nivel_min', sql`${t.segundoNivelDesde} >= 0`),
    check('clients_recordatorio_horas_range', sql`${t.recordatorioHoras} between 0 and 720`),
    check('clients_ventana_reglas_horas_range', sql`${t.ventanaReglasHoras} between 0 and 720`),
    check('clients_escalar_horas_range', sql`${t.escalarHoras} between 0 and 720`),
    check(
      'clients_alertas_presupuesto_range',
      sql`cardinality(${t.alertasPresupuesto}) between 1 and 3 and 1 <= all(${t.alertasPresupuesto}) and 100 >= all(${t.alertasPresupuesto})`,
    ),
    check('clients_limite_min', sql`${t.limiteDeCompras} >= -1`),
    check('clients_limite_por_defecto_min', sql`${t.limitePorDefecto} >= 1`),
    check('clients_tope_presupuesto_min', sql`${t.topePresupuesto} >= 0`),
    check('clients_umbral_existencia_range', sql`${t.umbralExistencia} between 0 and 1000000`),
    check('clients_limite_credito_min', sql`${t.limiteCredito} >= 0`),
    check('clients_dias_credito_range', sql`${t.diasCredito} between 0 and 365`),
    check('clients_politica_credito', sql`${t.politicaCredito} in ('avisar', 'retener')`),
    check(
      'clients_permisos_cliente_known',
      sql`${t.permisosCliente} <@ '{usuarios,presupuestos,asignaciones,semanas,reglas,identidad,fiscales}'::text[]`,
    ),
    check('clients_rfc_forma', sql`${t.rfc} ~ '^[A-ZÑ&]{3,4}[0-9]{6}[A-Z0-9]{2}[A0-9]$'`),
    check('clients_razon_social_largo', sql`char_length(${t.razonSocial}) between 1 and 254`),
    check('clients_regimen_fiscal_forma', sql`${t.regimenFiscal} ~ '^[0-9]{3}$'`),
    check('clients_uso_cfdi_forma', sql`${t.usoCfdi} ~ '^[A-Z]{1,2}[0-9]{2}$'`),
    check('clients_cp_fiscal_forma', sql`${t.cpFiscal} ~ '^[0-9]{5}$'`),
    check('clients_correos_facturacion_cantidad', sql`cardinality(${t.correosFacturacion}) between 1 and 5`),
    check('clients_presupuesto_min', sql`${t.presupuestoDefault} >= 0`),
    check('clients_modo', sql`${t.modoPresupuesto} in ('regular', 'categoria')`),
    index('clients_nombre_idx').on(t.nombre),
  ],
);

export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    idCliente: integer('id_cliente').references(() => clients.id),
    usuario: text('usuario').notNull(),
    email: text('user_id').notNull().default(''),
    nombre: text('nombre').notNull(),
    rol: smallint('rol').notNull(),
    direccionEntrega: text('direccion_entrega').notNull().default(''),
    area: text('area').notNull().default(''),
    localidad: text('localidad').notNull().default(''),
    region: text('region').notNull().default(''),
    coordinacion: text('coordinacion').notNull().default(''),
    calle: text('calle').notNull().default(''),
    colonia: text('colonia').notNull().default(''),
    ciudad: text('ciudad').notNull().default(''),
    cp: text('cp').notNull().default(''),
    estado: text('estado').notNull().default(''),
    activeWeek: smallint('active_week').notNull().default(1),
    entregaWeek: smallint('entrega_week').notNull().default(1),
    activo: boolean('activo').notNull().default(true),
    limiteDeCompras: integer('limite_de_compras').notNull().default(-1),
    presupuestoDefault: money('presupuesto_default').notNull().default(0),
    passwordHash: text('password_hash'),
    passwordChangedAt: ts('password_changed_at'),
    passwordTemporary: boolean('password_temporary').notNull().default(false),
    /** Two-factor sign-in (TOTP): the secret, encrypted (lib/secret-box.ts); null = not active. */
    totpSecret: text('totp_secret'),
    /** An enrolment started and not yet confirmed with a code: its secret, encrypted. */
    totpPendingSecret: text('totp_pending_secret'),
    totpEnabledAt: ts('totp_enabled_at'),
    /** The time step of the last accepted code: only later steps are accepted (no code works twice). */
    totpLastStep: bigint('totp_last_step', { mode: 'number' }),
    /** The last successful sign-in (the second step's, with two-factor sign-in); null = never. */
    ultimoAcceso: ts('ultimo_acceso'),
    /** The identity provider's own id of the account (SCIM `externalId`, decision 0121); unique per client. */
    scimExternalId: text('scim_external_id'),
    /**
     * The área (cost centre) the buyer belongs to (decision 0123): its orders spend the área's monthly budget
     * as well as the buyer's. Null = none. The free-text `area` above is the specification's own field.
     */
    idArea: integer('id_area').references((): AnyPgColumn => areas.id),
    /**
     * The buyer's default ship-to address from its client's address book (decision 0126); null = none (the
     * order then copies the profile's address above). The others it may choose are `user_addresses`.
     */
    idDireccion: integer('id_direccion').references((): AnyPgColumn => clientAddresses.id),
    /**
     * «Receptor de mercancía» (decision 0130): the user (rol 1–3) receives its client's shipments, those sent
     * to the addresses of `receiver_addresses` or, with none there, to any address of the client. Kept in the
     * session's principal, so a change (the trigger on `users`) applies at the next request.
     */
    receptor: boolean('receptor').notNull().default(false),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('users_usuario_unique').on(sql`lower(${t.usuario})`),
    index('users_cliente_idx').on(t.idCliente, t.rol, t.id),
    // The users list's sorts (decision 0067): by username (the default), name and last sign-in ("Nunca",
    // null, first ascending), each within a client and ending with the id.
    index('users_cliente_usuario_idx').on(t.idCliente, sql`lower(${t.usuario})`, t.id),
    index('users_cliente_nombre_idx').on(t.idCliente, sql`lower(${t.nombre})`, t.id),
    index('users_cliente_acceso_idx').on(t.idCliente, t.ultimoAcceso.asc().nullsFirst(), t.id),
    // Searches by part of a username, name or e-mail, case and accents ignored (db/search.ts; decision 0068).
    index('users_usuario_trgm_idx').using('gin', sql`portal_fold(${t.usuario}) gin_trgm_ops`),
    index('users_nombre_trgm_idx').using('gin', sql`portal_fold(${t.nombre}) gin_trgm_ops`),
    index('users_email_trgm_idx').using('gin', sql`portal_fold(${t.email}) gin_trgm_ops`),
    uniqueIndex('users_scim_external_unique').on(t.idCliente, t.scimExternalId),
    index('users_area_idx').on(t.idArea).where(sql`${t.idArea} is not null`),
    check('users_rol_range', sql`${t.rol} between 1 and 5`),
    check('users_weeks_range', sql`${t.activeWeek} between 1 and 4 and ${t.entregaWeek} between 1 and 4`),
    check('users_cliente_by_rol', sql`(${t.rol} = 4) = (${t.idCliente} is null)`),
    check('users_limite_min', sql`${t.limiteDeCompras} >= -1`),
  ],
);

export const categories = pgTable(
  'categories',
  {
    id: serial('id').primaryKey(),
    idCliente: integer('id_cliente')
      .notNull()
      .references(() => clients.id),
    nombre: text('nombre').notNull(),
    icono: text('icono').notNull().default('IconPackage'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('categories_cliente_nombre_unique').on(t.idCliente, sql`lower(${t.nombre})`)],
);

/** Per-user monthly budget of one category (category budget mode). */
export const userCategoryBudgets = pgTable(
  'user_category_budgets',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    categoryId: integer('category_id')
      .notNull()
      .references(() => categories.id, { onDelete: 'cascade' }),
    presupuesto: money('presupuesto').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.categoryId] }),
    index('user_category_budgets_category_idx').on(t.categoryId),
    check('user_category_budgets_min', sql`${t.presupuesto} >= 0`),
  ],
);

export const products = pgTable(
  'products',
  {
    id: serial('id').primaryKey(),
    idCliente: integer('id_cliente')
      .notNull()
      .references(() => clients.id),
    idCategoria: integer('id_categoria')
      .notNull()
      .references(() => categories.id),
    claveInterna: text('clave_interna').notNull(),
    claveCliente: text('clave_cliente').notNull().default(''),
    nombre: text('nombre').notNull(),
    descripcion: text('descripcion').notNull().default(''),
    unidadDeMedida: text('unidad_de_medida').notNull().default('Pieza'),
    precio: money('precio').notNull(),
    activo: boolean('activo').notNull().default(true),
    impuesto: boolean('impuesto').notNull().default(true),
    imagen: text('imagen'),
    /** Units on hand (decision 0124); null: unknown (no availability shown, no approval refused). */
    existencia: integer('existencia'),
    /** Days from approval to delivery of what is not in stock (decision 0124); null: not given. */
    diasEntrega: integer('dias_entrega'),
    /** Units reserved by approved orders not yet shipped; available = existencia - reservado. */
    reservado: integer('reservado').notNull().default(0),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
    /**
     * What a product search compares with (decision 0077): the name, the clave interna and the clave del
     * cliente, each folded by portal_fold (migration 0020), one per line. Kept by the database on every
     * write, so a search is one LIKE on a stored text instead of three foldings per product.
     */
    busqueda: text('busqueda').generatedAlwaysAs(
      sql`portal_fold(nombre) || chr(10) || portal_fold(clave_interna) || chr(10) || portal_fold(clave_cliente)`,
    ),
  },
  (t) => [
    uniqueIndex('products_cliente_clave_unique').on(t.idCliente, t.claveInterna),
    index('products_cliente_categoria_idx').on(t.idCliente, t.idCategoria),
    index('products_categoria_idx').on(t.idCategoria),
    /**
     * The inventory's sorts (GET /api/productos?orden=…): name, price, active both ways (the name stays A→Z),
     * and the products of a category by name (the category sort, decision 0069).
     */
    index('products_cliente_nombre_idx').on(t.idCliente, t.nombre, t.id),
    index('products_cliente_precio_idx').on(t.idCliente, t.precio, t.id),
    index('products_cliente_activo_asc_idx').on(t.idCliente, t.activo, t.nombre, t.id),
    index('products_cliente_activo_desc_idx').on(t.idCliente, t.activo.desc().nullsFirst(), t.nombre, t.id),
    index('products_categoria_nombre_idx').on(t.idCategoria, t.nombre, t.id),
    // products_id_cover_idx (id) INCLUDE (id_cliente, activo, id_categoria): migration 0001, written by
    // hand because the schema builder has no INCLUDE.
    check('products_precio_min', sql`${t.precio} >= 0`),
    check('products_existencia_min', sql`${t.existencia} >= 0`),
    check('products_dias_entrega_range', sql`${t.diasEntrega} between 0 and 3650`),
    check('products_reservado_min', sql`${t.reservado} >= 0`),
  ],
);

/**
 * A product's price change scheduled for a business date (issue 42 item 5, decision 0132): until
 * `vigente_desde` the product's own `precio` holds; the daily job at the business zone's midnight writes
 * `precio` into the product and stamps `applied_at` (a conditional update on `applied_at is null`, so two
 * runs apply it once). At most one pending change per product: scheduling again replaces it, cancelling
 * deletes it. Applied rows are the record of what changed and are purged by the retention job.
 */
export const scheduledPrices = pgTable(
  'scheduled_prices',
  {
    id: serial('id').primaryKey(),
    productId: integer('product_id')
      .notNull()
      .references(() => products.id),
    idCliente: integer('id_cliente')
      .notNull()
      .references(() => clients.id),
    /** The new price, centavos. */
    precio: money('precio').notNull(),
    /** The business date from which the new price holds. */
    vigenteDesde: date('vigente_desde', { mode: 'string' }).notNull(),
    /** Who scheduled it (an import's or a person's); null once that user is gone. */
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: ts('created_at').notNull().defaultNow(),
    /** When the job wrote the price into the product; null while pending. */
    appliedAt: ts('applied_at'),
    /** The product's price just before the change was applied (centavos). */
    precioAnterior: money('precio_anterior'),
  },
  (t) => [
    check('scheduled_prices_precio_min', sql`${t.precio} >= 0`),
    // One pending change per product; the catalogue, the cart and the lists join on it.
    uniqueIndex('scheduled_prices_pending_unique').on(t.productId).where(sql`${t.appliedAt} is null`),
    // The job's due changes, in id order.
    index('scheduled_prices_due_idx').on(t.vigenteDesde, t.id).where(sql`${t.appliedAt} is null`),
    // The retention job's oldest applied first.
    index('scheduled_prices_applied_idx').on(t.appliedAt).where(sql`${t.appliedAt} is not null`),
  ],
);

export const userProducts = pgTable(
  'user_products',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    productId: integer('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    asignado: boolean('asignado').notNull().default(true),
    cantidadLimite: integer('cantidad_limite').notNull().default(1),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.productId] }),
    index('user_products_product_idx').on(t.productId),
    // user_products_user_cover_idx (user_id, product_id) INCLUDE (asignado, cantidad_limite): migration 0001.
    check('user_products_limite_min', sql`${t.cantidadLimite} >= 1`),
  ],
);

export const cartItems = pgTable(
  'cart_items',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    productId: integer('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    cantidad: integer('cantidad').notNull(),
    addedAt: ts('added_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.productId] }),
    index('cart_items_product_idx').on(t.productId),
    check('cart_items_cantidad_min', sql`${t.cantidad} >= 1`),
  ],
);

export const orders = pgTable(
  'orders',
  {
    id: serial('id').primaryKey(),
    idUser: integer('id_user')
      .notNull()
      .references(() => users.id),
    idCliente: integer('id_cliente')
      .notNull()
      .references(() => clients.id),
    status: text('status').notNull(),
    subtotal: money('subtotal').notNull(),
    iva: money('iva').notNull(),
    total: money('total').notNull(),
    /**
     * How many lines the order has, kept by whoever writes its lines (the purchase, the authorizer's edit):
     * the lists show it without counting each row's lines (docs/benchmarks.md, finding 33). No default, so
     * a writer that forgets it fails.
     */
    lineas: integer('lineas').notNull(),
    /**
     * How many comments the order has, kept by a trigger on `order_comments` (migration 0033, decision
     * 0085): the lists show it without counting each row's comments.
     */
    comentarios: integer('comentarios').notNull().default(0),
    transactionDate: ts('transaction_date').notNull().defaultNow(),
    cancelReason: text('cancel_reason'),
    /** The buyer's optional note for the approvers (plain text, at most 500 characters). */
    nota: text('nota'),
    /**
     * Fulfilment (docs/domain.md "Fulfilment", decisions 0058 and 0125): por_surtir → en_surtido → parcial →
     * enviado → entregado, set to por_surtir in the transaction that makes the order aprobado; null exactly
     * while it is not. `parcial`: some units shipped, some still to ship; `enviado`: every line shipped or
     * cancelled.
     */
    surtidoEstatus: text('surtido_estatus'),
    /** Carrier and tracking reference given when the order was shipped (at most 60 characters). */
    guia: text('guia'),
    /** The carrier of the guía when it was given apart (the guías import's `paqueteria`), else null. */
    paqueteria: text('paqueteria'),
    /**
     * The buyer's delivery address as it was when the order was placed, copied by the purchase's own
     * statement: later profile edits never change a past order's documents (issue 37).
     */
    entrega: jsonb('entrega').$type<OrderDelivery>().notNull().default(sql`'{}'::jsonb`),
    /** The buyer's note on receipt (missing or damaged items), for the operator. */
    notaRecepcion: text('nota_recepcion'),
    /** The last export of the order by the fulfilment queue: when, by whom, in which batch. */
    exportadoAt: ts('exportado_at'),
    exportadoPor: integer('exportado_por').references(() => users.id),
    loteExportacion: integer('lote_exportacion'),
    /**
     * The área whose budget the order spends (the buyer's when it was placed, decision 0123); null = none.
     * Reports and the API show its code and GL account.
     */
    idArea: integer('id_area').references((): AnyPgColumn => areas.id),
    /**
     * A credit hold (decision 0134): why the final approval held the order from fulfilment (its client over
     * its credit limit or with an overdue invoice, policy `retener`); null when not held. A held order stays
     * in its fulfilment state until the operator releases it (the seam refuses every move and shipment).
     */
    retenidoCredito: text('retenido_credito'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    check('orders_status', sql`${t.status} in ('pendiente', 'espera', 'aprobado', 'cancelado')`),
    index('orders_area_idx').on(t.idArea, t.transactionDate).where(sql`${t.idArea} is not null`),
    check(
      'orders_surtido_estatus',
      sql`${t.surtidoEstatus} in ('por_surtir', 'en_surtido', 'parcial', 'enviado', 'entregado')`,
    ),
    /** Every approved order, and only an approved one, has a fulfilment state. */
    check('orders_surtido_aprobado', sql`(${t.status} = 'aprobado') = (${t.surtidoEstatus} is not null)`),
    /** The fulfilment queue: approved orders newest first, by state or not, by client or not. */
    index('orders_aprobados_fecha_idx')
      .on(t.transactionDate, t.id)
      .where(sql`${t.surtidoEstatus} is not null`),
    index('orders_surtido_idx')
      .on(t.surtidoEstatus, t.transactionDate, t.id)
      .where(sql`${t.surtidoEstatus} is not null`),
    index('orders_cliente_surtido_idx')
      .on(t.idCliente, t.surtidoEstatus, t.transactionDate, t.id)
      .where(sql`${t.surtidoEstatus} is not null`),
    /** The queue's "not exported yet" filter. */
    index('orders_surtido_pendiente_exportar_idx')
      .on(t.transactionDate, t.id)
      .where(sql`${t.surtidoEstatus} is not null and ${t.exportadoAt} is null`),
    /** The held orders (the Surtido queue's filter, the distributor's aging count). */
    index('orders_retenido_credito_idx').on(t.idCliente, t.id).where(sql`${t.retenidoCredito} is not null`),
    index('orders_cliente_id_idx').on(t.idCliente, t.id),
    index('orders_cliente_status_idx').on(t.idCliente, t.status, t.id),
    /** The dashboard's months by status and month per buyer: index-only scans (decision 0055). */
    index('orders_cliente_date_status_total_user_idx').on(
      t.idCliente,
      t.transactionDate,
      t.status,
      t.total,
      t.idUser,
    ),
    /**
     * The authorizers' list sorted by date or by total, of all statuses or one (decision 0046); a client's
     * orders of a date range read the first (its (id_cliente, transaction_date) prefix: migration 0029 dropped
     * the index of those two columns alone, one index less to write per order).
     */
    index('orders_cliente_date_id_idx').on(t.idCliente, t.transactionDate, t.id),
    index('orders_cliente_status_date_idx').on(t.idCliente, t.status, t.transactionDate, t.id),
    index('orders_cliente_status_total_idx').on(t.idCliente, t.status, t.total, t.id),
    /** The buyer's history sorted by date or by total (then the id). */
    index('orders_user_date_idx').on(t.idUser, t.transactionDate, t.id),
    index('orders_user_total_idx').on(t.idUser, t.total, t.id),
    /** The administrator's list of every client's orders by status, newest first (decision 0062). */
    index('orders_status_date_idx').on(t.status, t.transactionDate, t.id),
    /** …sorted by total. */
    index('orders_status_total_idx').on(t.status, t.total, t.id),
    index('orders_user_id_idx').on(t.idUser, t.id),
    /** The buyer's history filtered by status. */
    index('orders_user_status_idx').on(t.idUser, t.status, t.id),
    /** The v1 API's list of every client by status, in id order (decision 0059). */
    index('orders_status_id_idx').on(t.status, t.id),
    /** …and by fulfilment state, in id order (the v1 API's `surtido` filter). */
    index('orders_surtido_id_idx').on(t.surtidoEstatus, t.id).where(sql`${t.surtidoEstatus} is not null`),
    // `orders_recepcion_idx` (decision 0130) is gone (migration 0066): the receivers' list reads the shipments'
    // own index since decision 0139, and the receiver's other reads are of one order by its id.
  ],
);

/** Batch numbers of the fulfilment queue's exports (decision 0058). */
export const surtidoLoteSeq = pgSequence('surtido_lote_seq');

/** What was bought, frozen at purchase time. */
export const orderLines = pgTable(
  'order_lines',
  {
    id: serial('id').primaryKey(),
    orderId: integer('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    productId: integer('product_id')
      .notNull()
      .references(() => products.id),
    claveInterna: text('clave_interna').notNull(),
    claveCliente: text('clave_cliente').notNull(),
    nombre: text('nombre').notNull(),
    unidadDeMedida: text('unidad_de_medida').notNull(),
    idCategoria: integer('id_categoria').notNull(),
    categoria: text('categoria').notNull(),
    precio: money('precio').notNull(),
    impuesto: boolean('impuesto').notNull(),
    cantidad: integer('cantidad').notNull(),
    /** Units of the product this line reserved at approval and holds until shipped or cancelled (0124). */
    reservado: integer('reservado').notNull().default(0),
    /** Of those, how many were beyond the available stock at approval: "sobre pedido" (decision 0124). */
    sobrePedido: integer('sobre_pedido').notNull().default(0),
    /**
     * The date the line is promised for (decision 0125): set at the final approval (business today + the
     * product's lead time, or the default), or by the operator; null before approval.
     */
    fechaPromesa: date('fecha_promesa', { mode: 'string' }),
    /** Units shipped so far (the sum of its shipments' lines), never above `cantidad`. */
    enviado: integer('enviado').notNull().default(0),
    /**
     * Units the operator cancelled as unavailable (decision 0125): taken out of `cantidad` (which stays what
     * counts: totals, budget, reservation), so the quantity ordered is `cantidad + cancelado`.
     */
    cancelado: integer('cancelado').notNull().default(0),
    motivoCancelacion: text('motivo_cancelacion'),
    /**
     * Units credited back by an accepted claim (decision 0127): they left `cantidad` and `enviado` together,
     * so `cantidad` stays what counts and the units shipped are `enviado + acreditado`; the quantity ordered
     * is `cantidad + cancelado + acreditado`.
     */
    acreditado: integer('acreditado').notNull().default(0),
    /**
     * Units under a claim that is open, returning or credited (decision 0127): never more than the units
     * shipped (`enviado + acreditado`). A refused claim's units leave it, and so do a replacement's (the
     * replacement's own units may be claimed again).
     */
    reclamado: integer('reclamado').notNull().default(0),
  },
  (t) => [
    index('order_lines_order_idx').on(t.orderId),
    index('order_lines_product_idx').on(t.productId),
    check(
      'order_lines_cantidad_min',
      sql`${t.cantidad} >= 0 and ${t.cantidad} + ${t.cancelado} + ${t.acreditado} >= 1`,
    ),
    check('order_lines_enviado', sql`${t.enviado} between 0 and ${t.cantidad}`),
    check('order_lines_cancelado', sql`${t.cancelado} >= 0`),
    check('order_lines_acreditado', sql`${t.acreditado} >= 0`),
    check('order_lines_reclamado', sql`${t.reclamado} between 0 and ${t.enviado} + ${t.acreditado}`),
    /** The late lines (promised before today, units left to ship): the queue's «Atrasado» and the digest. */
    index('order_lines_promesa_abierta_idx')
      .on(t.fechaPromesa, t.orderId)
      .where(sql`${t.fechaPromesa} is not null and ${t.cantidad} > ${t.enviado}`),
  ],
);

/**
 * A shipment of an approved order (decision 0125): some units of some lines, with its guía, carrier and date,
 * numbered 1, 2… within the order (its remisión's number). Lives as long as its order.
 */
export const orderShipments = pgTable(
  'order_shipments',
  {
    id: serial('id').primaryKey(),
    orderId: integer('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    numero: integer('numero').notNull(),
    guia: text('guia'),
    paqueteria: text('paqueteria'),
    /** The shipping date (business date), the operator's or today. */
    fecha: date('fecha', { mode: 'string' }).notNull(),
    /** The operator who shipped it; null for an integration token (named in the log entry). */
    actorId: integer('actor_id').references(() => users.id),
    createdAt: ts('created_at').notNull().defaultNow(),
    /**
     * A replacement for an accepted claim (decision 0127): its units were already counted in the lines'
     * `enviado` and paid, so it moves neither `enviado` nor the order's fulfilment state.
     */
    reposicion: boolean('reposicion').notNull().default(false),
    /** The claim a replacement serves. */
    idReclamo: integer('id_reclamo').references((): AnyPgColumn => orderClaims.id),
    /**
     * The order's client, copied by the trigger `order_shipments_order_copy` from the order at insert (whatever
     * the writer passed; an order never changes client), migration 0065, decision 0139.
     */
    idCliente: integer('id_cliente')
      .notNull()
      .references(() => clients.id),
    /**
     * The address book entry its order was sent to (the order's `entrega.id_direccion`, null for the profile's
     * address), copied with the client by the same trigger: what a receiver's reach reads (decision 0139).
     */
    idDireccion: integer('id_direccion'),
    /**
     * Whether the shipment has its receipt: kept by the triggers on `order_receipts` (migration 0065,
     * decision 0139), checked against the receipts by `shipmentFlagDrift`.
     */
    recibido: boolean('recibido').notNull().default(false),
  },
  (t) => [
    uniqueIndex('order_shipments_order_numero_idx').on(t.orderId, t.numero),
    /**
     * The receivers' list (decision 0139): a client's shipments without a receipt, newest first, with the
     * address each went to (a receiver's reach is tested in the index, and the count reads only it).
     */
    index('order_shipments_por_recibir_idx')
      .on(t.idCliente, t.id.desc(), t.idDireccion)
      .where(sql`not ${t.recibido}`),
    /**
     * The receivers' search by guía (decision 0139, docs/benchmarks.md finding 66): the folded guía's trigrams
     * of the shipments still to receive, so that a search with a trigram reads the shipments it matches
     * instead of folding the guía of every shipment of the client.
     */
    index('order_shipments_guia_trgm_idx')
      .using('gin', sql`portal_fold(${t.guia}) gin_trgm_ops`)
      .where(sql`not ${t.recibido}`),
    check('order_shipments_reposicion', sql`${t.reposicion} = (${t.idReclamo} is not null)`),
  ],
);

/** The units of each line a shipment carries (> 0). */
export const orderShipmentLines = pgTable(
  'order_shipment_lines',
  {
    shipmentId: integer('shipment_id')
      .notNull()
      .references(() => orderShipments.id, { onDelete: 'cascade' }),
    orderLineId: integer('order_line_id')
      .notNull()
      .references(() => orderLines.id, { onDelete: 'cascade' }),
    cantidad: integer('cantidad').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.shipmentId, t.orderLineId] }),
    index('order_shipment_lines_line_idx').on(t.orderLineId),
    check('order_shipment_lines_cantidad', sql`${t.cantidad} >= 1`),
  ],
);

/**
 * A client's shipments still to receive, counted by the address they went to (`id_direccion` 0: the buyer's
 * profile address, the shipments whose `id_direccion` is null): what the receivers' unsearched list sums
 * instead of reading every shipment to receive in the receiver's reach (docs/benchmarks.md finding 67,
 * decision 0149). Rows of what each statement on `order_shipments` moved, appended by its triggers (migration
 * 0072) and never updated — a shipment or a receipt takes no lock here, as the users' counts (decision 0078);
 * a client's rows are summed when read and merged now and then (receiving.service.ts). Checked against the
 * shipments by `waitingShipmentCountDrift`.
 */
export const clientShipmentsToReceive = pgTable('client_shipments_to_receive', {
  idCliente: integer('id_cliente').notNull(),
  idDireccion: integer('id_direccion').notNull(),
  envios: integer('envios').notNull(),
});
// client_shipments_to_receive_key_idx (id_cliente, id_direccion) INCLUDE (envios): migration 0072, written by
// hand because the schema builder has no INCLUDE (the sums read the index alone).

/**
 * The buyer's receipt of one shipment (decision 0127): written once per shipment (the unique index), with a
 * note; its lines say what arrived in good condition. Lives as long as its order.
 */
export const orderReceipts = pgTable(
  'order_receipts',
  {
    id: serial('id').primaryKey(),
    orderId: integer('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    shipmentId: integer('shipment_id')
      .notNull()
      .references(() => orderShipments.id, { onDelete: 'cascade' }),
    /** Who received it (the order's buyer). */
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    nota: text('nota'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('order_receipts_shipment_idx').on(t.shipmentId),
    index('order_receipts_order_idx').on(t.orderId),
  ],
);

/** What a receipt says of each line of its shipment: units received in good condition, and why fewer. */
export const orderReceiptLines = pgTable(
  'order_receipt_lines',
  {
    receiptId: integer('receipt_id')
      .notNull()
      .references(() => orderReceipts.id, { onDelete: 'cascade' }),
    lineId: integer('line_id')
      .notNull()
      .references(() => orderLines.id, { onDelete: 'cascade' }),
    recibido: integer('recibido').notNull(),
    /** faltante | danado | equivocado when fewer units than shipped arrived in good condition. */
    motivo: text('motivo'),
  },
  (t) => [
    primaryKey({ columns: [t.receiptId, t.lineId] }),
    /**
     * The line's rows, for the cascade when a line is deleted (an approver removing it): without it every
     * removed line scanned the whole table (finding 54).
     */
    index('order_receipt_lines_line_idx').on(t.lineId),
    check('order_receipt_lines_recibido', sql`${t.recibido} >= 0`),
    check('order_receipt_lines_motivo', sql`${t.motivo} in ('faltante', 'danado', 'equivocado')`),
  ],
);

/**
 * A claim on shipped units of an order (decision 0127): opened by a receipt's difference or by hand,
 * numbered 1, 2… within the order; the operator accepts it (a replacement or a credit), refuses it, or first
 * asks for the goods back. Lives as long as its order.
 */
export const orderClaims = pgTable(
  'order_claims',
  {
    id: serial('id').primaryKey(),
    orderId: integer('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    numero: integer('numero').notNull(),
    /** Who opened it (the order's buyer). */
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    /** The shipment whose receipt opened it; null when opened by hand. */
    shipmentId: integer('shipment_id').references((): AnyPgColumn => orderShipments.id, {
      onDelete: 'set null',
    }),
    estado: text('estado').notNull().default('abierto'),
    resolucionSolicitada: text('resolucion_solicitada').notNull(),
    /** What the operator granted when accepting it. */
    resolucion: text('resolucion'),
    nota: text('nota'),
    /** The operator's answer: the refusal's reason, or the note of an acceptance or a return. */
    respuesta: text('respuesta'),
    guiaDevolucion: text('guia_devolucion'),
    paqueteriaDevolucion: text('paqueteria_devolucion'),
    /** Centavos (with IVA) given back by an accepted credit. */
    credito: money('credito').notNull().default(0),
    decidedBy: integer('decided_by').references(() => users.id),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('order_claims_order_numero_idx').on(t.orderId, t.numero),
    check('order_claims_estado', sql`${t.estado} in ('abierto', 'devolucion', 'aceptado', 'rechazado')`),
    check('order_claims_resolucion_solicitada', sql`${t.resolucionSolicitada} in ('reposicion', 'credito')`),
    check('order_claims_resolucion', sql`${t.resolucion} in ('reposicion', 'credito')`),
    check('order_claims_credito', sql`${t.credito} >= 0`),
    /** The operator's queue: the claims still to decide, newest first. */
    index('order_claims_pendientes_idx')
      .on(t.createdAt, t.id)
      .where(sql`${t.estado} in ('abierto', 'devolucion')`),
    /** Every claim newest first (the queue's other filters), and the v1 list's `desde` on `actualizado`. */
    index('order_claims_created_idx').on(t.createdAt, t.id),
    index('order_claims_updated_idx').on(t.updatedAt, t.id),
  ],
);

/** The units of each line a claim covers (> 0) and why. */
export const orderClaimLines = pgTable(
  'order_claim_lines',
  {
    claimId: integer('claim_id')
      .notNull()
      .references(() => orderClaims.id, { onDelete: 'cascade' }),
    lineId: integer('line_id')
      .notNull()
      .references(() => orderLines.id, { onDelete: 'cascade' }),
    cantidad: integer('cantidad').notNull(),
    motivo: text('motivo').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.claimId, t.lineId] }),
    /** The line's rows, for the cascade when a line is deleted (finding 54). */
    index('order_claim_lines_line_idx').on(t.lineId),
    check('order_claim_lines_cantidad', sql`${t.cantidad} >= 1`),
    check(
      'order_claim_lines_motivo',
      sql`${t.motivo} in ('faltante', 'danado', 'equivocado', 'no_solicitado')`,
    ),
  ],
);

/**
 * A photo the buyer uploaded for an order (decision 0127): JPEG, PNG or HEIC, stored as the other uploads
 * (`stored_files`, kind `foto`), then attached to a receipt or a claim by the body that names it. Attached, it
 * lives as long as its order; one never attached is removed (with its file) 24 hours after the upload.
 */
export const orderPhotos = pgTable(
  'order_photos',
  {
    id: serial('id').primaryKey(),
    orderId: integer('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    fileId: text('file_id')
      .notNull()
      .references(() => storedFiles.id),
    /** The file's name as uploaded (for the download). */
    nombre: text('nombre').notNull(),
    /** image/jpeg, image/png or image/heic. */
    tipo: text('tipo').notNull(),
    receiptId: integer('receipt_id').references(() => orderReceipts.id, { onDelete: 'set null' }),
    claimId: integer('claim_id').references(() => orderClaims.id, { onDelete: 'set null' }),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    index('order_photos_order_idx').on(t.orderId, t.id),
    index('order_photos_file_idx').on(t.fileId),
    /** The retention job's photos never attached, oldest first. */
    index('order_photos_sueltas_idx')
      .on(t.createdAt)
      .where(sql`${t.receiptId} is null and ${t.claimId} is null`),
  ],
);

/** The operator's daily digest of late lines (decision 0125): one per operator and business day. */
export const lateLineDigests = pgTable(
  'late_line_digests',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    fecha: date('fecha', { mode: 'string' }).notNull(),
    lineas: integer('lineas').notNull(),
    sentAt: ts('sent_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.fecha] }),
    // The retention job's oldest first (lib/retention.ts, decision 0101).
    index('late_line_digests_sent_idx').on(t.sentAt),
  ],
);

export const orderEvents = pgTable(
  'order_events',
  {
    id: serial('id').primaryKey(),
    orderId: integer('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    actorId: integer('actor_id').references(() => users.id),
    /** The delegator an out-of-office delegate acted for (decision 0053); null when acting as oneself. */
    onBehalfOfId: integer('on_behalf_of_id').references(() => users.id),
    tipo: text('tipo').notNull(),
    fromStatus: text('from_status'),
    toStatus: text('to_status'),
    changes: jsonb('changes'),
    reason: text('reason'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [index('order_events_order_idx').on(t.orderId, t.id)],
);

/** A comment on an order by its buyer or an approver of its client: plain text, 1-1,000 characters (decision 0047). */
export const orderComments = pgTable(
  'order_comments',
  {
    id: serial('id').primaryKey(),
    orderId: integer('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    authorId: integer('author_id')
      .notNull()
      .references(() => users.id),
    texto: text('texto').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    index('order_comments_order_idx').on(t.orderId, t.id),
    /** A person's comments of the last hour (the cap of 30 an hour, issue 38). */
    index('order_comments_author_idx').on(t.authorId, t.createdAt),
  ],
);

/**
 * When a recipient was last e-mailed about new comments on an order: at most one such e-mail per order and
 * recipient every 10 minutes, across restarts and instances (decision 0047).
 */
export const orderCommentNotices = pgTable(
  'order_comment_notices',
  {
    orderId: integer('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    sentAt: ts('sent_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.orderId, t.userId] })],
);

/**
 * The reminder digest claimed for a person and a business date: the row and the e-mail are written in one
 * transaction, so a restart or a second instance never sends the same day's digest twice (decision 0051).
 */
export const approvalReminders = pgTable(
  'approval_reminders',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    fecha: date('fecha', { mode: 'string' }).notNull(),
    pedidos: integer('pedidos').notNull(),
    sentAt: ts('sent_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.fecha] }),
    // The retention job's oldest first (lib/retention.ts, decision 0101).
    index('approval_reminders_sent_idx').on(t.sentAt),
  ],
);

/**
 * Sales per client, business month, product and category (decision 0055): the quantities and amounts of the
 * lines of non-cancelled orders, kept exact by db/order-totals.ts in the transaction of every change that moves
 * them (purchase, approval with edits, cancellation, withdrawal) and rebuilt by the seeds. `importe` is
 * price × quantity before IVA and `iva` the lines' IVA as the detail report gives it, per line.
 */
export const productMonthSales = pgTable(
  'product_month_sales',
  {
    idCliente: integer('id_cliente').notNull(),
    mes: date('mes', { mode: 'string' }).notNull(),
    productId: integer('product_id').notNull(),
    idCategoria: integer('id_categoria').notNull(),
    cantidad: money('cantidad').notNull(),
    importe: money('importe').notNull(),
    iva: money('iva').notNull(),
  },
  (t) => [primaryKey({ columns: [t.idCliente, t.mes, t.productId, t.idCategoria] })],
);

/**
 * The running month of each buyer (decision 0072): per user, business month and category, the spend
 * (centavos with IVA) and the number of the user's non-cancelled orders of that month. Category 0 holds the
 * whole orders (the sum of their stored totals: regular mode's "used" and the purchase limit's count); a
 * category's row holds what its lines spend, IVA rounded per order and category (category mode's "used").
 * Kept exact by db/order-totals.ts in the transaction of every change that moves an order's lines or status and
 * recounted with the sales summary.
 */
export const userMonthSpend = pgTable(
  'user_month_spend',
  {
    idUser: integer('id_user').notNull(),
    mes: date('mes', { mode: 'string' }).notNull(),
    idCategoria: integer('id_categoria').notNull(),
    importe: money('importe').notNull(),
    compras: integer('compras').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.idUser, t.mes, t.idCategoria] }),
    // user_month_spend_mes_cover_idx (mes, id_categoria, id_user) INCLUDE (importe, compras): migration 0027,
    // written by hand because the schema builder has no INCLUDE (a month of many buyers at once).
  ],
);

/**
 * Counters per client that a trigger on `orders` raises with every insert, update or delete of its orders
 * (migration 0012): the dashboard's range figures are reused while their sum has not moved (decision 0055).
 * Each client's counter is split in up to 16 rows (`stripe`: the writing connection's `pg_backend_pid()`
 * modulo 16), so that concurrent purchases of one client do not queue on one row at commit (migration 0032,
 * decision 0084).
 */
export const clientOrderVersions = pgTable(
  'client_order_versions',
  {
    idCliente: integer('id_cliente').notNull(),
    stripe: smallint('stripe').notNull().default(0),
    version: money('version').notNull(),
  },
  (t) => [primaryKey({ columns: [t.idCliente, t.stripe] })],
);

/**
 * A counter per client that triggers raise with every change of what the dashboard's buyers show: a buyer
 * (rol 1) added, removed, renamed, moved, activated or deactivated, its monthly budget, its category budgets
 * (migration 0034). With the order counter above it keys the buyers' part of the dashboard, reused while
 * neither moves (decision 0088). Admin edits are rare: one row per client.
 */
export const clientBuyerVersions = pgTable('client_buyer_versions', {
  idCliente: integer('id_cliente').primaryKey(),
  version: money('version').notNull(),
});

/**
 * The users list's totals without counting the users (decision 0078): rows of +1 and −1 per client (0 for none),
 * role and status, appended by triggers on `users` (migration 0028) for every insert, delete and change of
 * those columns, never updated — a user write takes no lock here. Administrators (rol 4) are never counted,
 * as the list never shows them. The rows of a key are summed when read and merged now and then
 * (users.repository.ts).
 */
export const userCounts = pgTable('user_counts', {
  idCliente: integer('id_cliente').notNull(),
  rol: smallint('rol').notNull(),
  activo: boolean('activo').notNull(),
  n: integer('n').notNull(),
});
// user_counts_key_idx (id_cliente, rol, activo) INCLUDE (n): migration 0060, written by hand because the schema
// builder has no INCLUDE (the kept totals read from the index alone, however many rows the table once held).

/**
 * How many orders each user has placed (decision 0146), kept by statement triggers on `orders` (migrations
 * 0061, 0068): the history's total without a filter reads it instead of counting the buyer's orders (finding
 * 46). A table of its own, not a column of `users`: a purchase moves it, and an update of the user's row is
 * announced to every process's kept sessions (decision 0071). No row: no orders yet.
 */
export const userOrderCounts = pgTable('user_order_counts', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  totalPedidos: integer('total_pedidos').notNull(),
});

/** Which business time zone product_month_sales was built for (db/order-totals.ts rebuilds it when that changes). */
export const salesState = pgTable('sales_state', {
  id: smallint('id').primaryKey(),
  tz: text('tz').notNull(),
  builtAt: ts('built_at').notNull().defaultNow(),
});

/**
 * A budget alert claimed (decision 0054): one row per buyer, category (null: the whole budget, regular
 * mode), business month and threshold. The row and its e-mails are written in the transaction of the order
 * change that crossed the threshold, and the e-mails only when the insert made the row, so a retry, two
 * simultaneous purchases or two instances never send the same alert twice.
 */
export const budgetAlerts = pgTable(
  'budget_alerts',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    categoryId: integer('category_id').references(() => categories.id, { onDelete: 'cascade' }),
    /** The business month, YYYY-MM. */
    mes: text('mes').notNull(),
    /** The threshold, a whole percentage. */
    umbral: smallint('umbral').notNull(),
    /** The used percentage when it was crossed. */
    porcentaje: integer('porcentaje').notNull(),
    sentAt: ts('sent_at').notNull().defaultNow(),
  },
  (t) => [
    unique('budget_alerts_once').on(t.userId, t.categoryId, t.mes, t.umbral).nullsNotDistinct(),
    // The retention job's oldest first (lib/retention.ts, decision 0101).
    index('budget_alerts_sent_idx').on(t.sentAt),
  ],
);

/**
 * The portal's bell (issue 43 item 1, decision 0114): one row per person and thing they were told about,
 * written with the e-mail it would be (lib/mailer.ts, in the same statement). An item whose kind the person
 * gets as a digest keeps its channel in `resumen` until the digest job sends it (`resumido_at`).
 */
export const notifications = pgTable(
  'notifications',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** A NotificationKind of packages/shared/src/domain/notifications.ts. */
    tipo: text('tipo').notNull(),
    titulo: text('titulo').notNull(),
    texto: text('texto').notNull(),
    /** The portal's path the item opens. */
    ruta: text('ruta').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
    readAt: ts('read_at'),
    /** 'hora' or 'dia' when the item waits for (or went in) a digest e-mail; null otherwise. */
    resumen: text('resumen'),
    resumidoAt: ts('resumido_at'),
    /** The person chose 'telefono' for the kind: the item is pushed to their devices (decision 0117). */
    push: boolean('push').notNull().default(false),
    /** When the push sender took the item (and wrote a delivery per device): it is never taken twice. */
    pushAt: ts('push_at'),
  },
  (t) => [
    // The bell: a person's latest items, and their unread count.
    index('notifications_user_idx').on(t.userId, t.id),
    index('notifications_unread_idx').on(t.userId).where(sql`${t.readAt} is null`),
    // The digest job: what still waits for its e-mail.
    index('notifications_digest_idx')
      .on(t.createdAt)
      .where(sql`${t.resumen} is not null and ${t.resumidoAt} is null`),
    // The push sender: what still waits to be pushed.
    index('notifications_push_idx').on(t.id).where(sql`${t.push} and ${t.pushAt} is null`),
    // The retention job's oldest first (lib/retention.ts, decision 0101).
    index('notifications_created_idx').on(t.createdAt),
    check('notifications_resumen', sql`${t.resumen} in ('hora', 'dia')`),
  ],
);

/**
 * A person's notification preferences (decision 0114): none means every kind by e-mail at once, digest at 8.
 * The digest job claims a person's digest on this row (the last hourly and daily digest), so two runs or two
 * instances never send the same one twice.
 */
export const notificationSettings = pgTable(
  'notification_settings',
  {
    userId: integer('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The channel of each kind the person changed (`{kind: channel}`); a kind not named is 'inmediato'. */
    canales: jsonb('canales').$type<Record<string, string>>().notNull().default({}),
    /** The daily digest's hour, 0–23, business time zone. */
    resumenHora: smallint('resumen_hora').notNull().default(8),
    /** When the last hourly digest went (at most one per clock hour). */
    ultimoResumenHora: ts('ultimo_resumen_hora'),
    /** The business date of the last daily digest (at most one per day, not before `resumen_hora`). */
    ultimoResumenDia: date('ultimo_resumen_dia', { mode: 'string' }),
    /** Pushes to the phone may show amounts (decision 0117): off unless the person turns it on. */
    importesEnTelefono: boolean('importes_en_telefono').notNull().default(false),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [check('notification_settings_hora', sql`${t.resumenHora} between 0 and 23`)],
);

/**
 * The portal's VAPID key pair (Web Push, decision 0117): one row, made at the first start (inserted with
 * `on conflict do nothing` and read back, so two instances starting at once keep the same pair). The
 * private key is sealed with the app's encryption key (lib/secret-box.ts, `vapidContext`) and re-sealed by
 * `npm run secrets:rotate`.
 */
export const pushVapid = pgTable(
  'push_vapid',
  {
    id: smallint('id').primaryKey().default(1),
    /** The uncompressed P-256 public key, base64url (what browsers subscribe with). */
    clavePublica: text('clave_publica').notNull(),
    clavePrivadaCifrada: text('clave_privada_cifrada').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [check('push_vapid_one_row', sql`${t.id} = 1`)],
);

/**
 * A device that receives a person's pushes (decision 0117): the browser's PushSubscription. One endpoint
 * belongs to one person (subscribing it again under another account moves it); `session_id` is the session
 * that subscribed it (signing that session out removes it). Lives while used: removed when the push service
 * answers 404 or 410, after RETENTION_PUSH_MONTHS without use, and when its person is deactivated.
 */
export const pushSubscriptions = pgTable(
  'push_subscriptions',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    endpoint: text('endpoint').notNull(),
    /** The browser's P-256 public key and its 16-byte secret, base64url (RFC 8291). */
    p256dh: text('p256dh').notNull(),
    auth: text('auth').notNull(),
    /** sessions.id (a hash of the cookie) of the session that subscribed it; not a key: sessions expire. */
    sessionId: text('session_id'),
    createdAt: ts('created_at').notNull().defaultNow(),
    /** Subscribed again (the web does it at each start) or a push accepted for it. */
    lastUsedAt: ts('last_used_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('push_subscriptions_endpoint').on(t.endpoint),
    index('push_subscriptions_user_idx').on(t.userId, t.lastUsedAt),
    index('push_subscriptions_session_idx').on(t.sessionId),
    index('push_subscriptions_used_idx').on(t.lastUsedAt),
  ],
);

/**
 * One push of one bell item to one device (decision 0117): written `enviando` when the sender takes the item,
 * in the statement that takes it, before any request; then `entregado`, `pendiente` (a retry at
 * `siguiente_intento_at`) or `fallido`. A row left `enviando` was taken by a sender that died: it is never
 * sent again (at most once). Kept RETENTION_PUSH_DAYS days.
 */
export const pushDeliveries = pgTable(
  'push_deliveries',
  {
    id: serial('id').primaryKey(),
    notificationId: integer('notification_id')
      .notNull()
      .references(() => notifications.id, { onDelete: 'cascade' }),
    /** Null once the device is gone (404/410, unsubscribed): the record stays. */
    subscriptionId: integer('subscription_id').references(() => pushSubscriptions.id, {
      onDelete: 'set null',
    }),
    estado: text('estado').notNull().default('enviando'),
    intentos: integer('intentos').notNull().default(1),
    siguienteIntentoAt: ts('siguiente_intento_at'),
    /** The push service's last status, when it answered. */
    codigo: integer('codigo'),
    error: text('error'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    unique('push_deliveries_notification_subscription').on(t.notificationId, t.subscriptionId),
    index('push_deliveries_subscription_idx').on(t.subscriptionId),
    index('push_deliveries_retry_idx').on(t.siguienteIntentoAt).where(sql`${t.estado} = 'pendiente'`),
    index('push_deliveries_created_idx').on(t.createdAt),
    check('push_deliveries_estado', sql`${t.estado} in ('enviando', 'pendiente', 'entregado', 'fallido')`),
  ],
);

/**
 * Out-of-office delegation (decision 0053): while away, the delegator's level is given to the delegate inside
 * the window (business dates, both inclusive, at most 90 days). One row per delegator; ending it deletes it.
 */
export const delegations = pgTable(
  'delegations',
  {
    delegatorId: integer('delegator_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    delegateId: integer('delegate_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    desde: date('desde', { mode: 'string' }).notNull(),
    hasta: date('hasta', { mode: 'string' }).notNull(),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    index('delegations_delegate_idx').on(t.delegateId, t.hasta),
    check('delegations_not_self', sql`${t.delegatorId} <> ${t.delegateId}`),
    check('delegations_window', sql`${t.desde} <= ${t.hasta}`),
  ],
);

/** A buyer's saved list ("Mis listas"): product ids and quantities, never prices (decision 0043). */
export const savedLists = pgTable(
  'saved_lists',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    nombre: text('nombre').notNull(),
    /** The name folded (spaces collapsed, lower case, no accents): unique per user. */
    nombreClave: text('nombre_clave').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('saved_lists_user_nombre_unique').on(t.userId, t.nombreClave)],
);

export const savedListItems = pgTable(
  'saved_list_items',
  {
    listId: integer('list_id')
      .notNull()
      .references(() => savedLists.id, { onDelete: 'cascade' }),
    productId: integer('product_id')
      .notNull()
      .references(() => products.id),
    cantidad: integer('cantidad').notNull(),
    /** The item's place in the list (0 first): the order it is shown and added to the cart in. */
    posicion: smallint('posicion').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.listId, t.productId] }),
    index('saved_list_items_product_idx').on(t.productId),
    check('saved_list_items_cantidad_min', sql`${t.cantidad} >= 1`),
  ],
);

export const weeks = pgTable(
  'weeks',
  {
    id: serial('id').primaryKey(),
    idCliente: integer('id_cliente')
      .notNull()
      .references(() => clients.id),
    inicio: date('inicio', { mode: 'string' }).notNull(),
    fin: date('fin', { mode: 'string' }).notNull(),
    activo: boolean('activo').notNull().default(true),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('weeks_cliente_inicio_fin_unique').on(t.idCliente, t.inicio, t.fin),
    index('weeks_cliente_range_idx').on(t.idCliente, t.inicio, t.fin),
    check('weeks_range', sql`${t.fin} >= ${t.inicio}`),
  ],
);

export const systemLogs = pgTable(
  'system_logs',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: integer('user_id'),
    eventType: text('event_type').notNull(),
    description: text('description').notNull(),
    metadata: jsonb('metadata').notNull().default({}),
    createdAt: ts('created_at').notNull().defaultNow(),
    /**
     * The client the entry concerns (the metadata's id_cliente, else the acting user's client) and the
     * order it names (the metadata's id_pedido), copied out of the metadata at write time so the log's
     * filters run on an index (decision 0062). No foreign keys: the log outlives what it names.
     */
    idCliente: integer('id_cliente'),
    idPedido: integer('id_pedido'),
  },
  (t) => [
    index('system_logs_event_idx').on(t.eventType, t.id),
    index('system_logs_user_idx').on(t.userId, t.id),
    index('system_logs_created_idx').on(t.createdAt),
    index('system_logs_cliente_idx').on(t.idCliente, t.id),
    // The log filtered by client and event type (its page and its capped count): decision 0062, finding 29.
    index('system_logs_cliente_evento_idx').on(t.idCliente, t.eventType, t.id),
    index('system_logs_pedido_idx').on(t.idPedido, t.id),
  ],
);

/** Server-side sessions; `id` is the SHA-256 of the cookie token, never the token itself. */
export const sessions = pgTable(
  'sessions',
  {
    id: text('id').primaryKey(),
    userId: integer('user_id').references(() => users.id, { onDelete: 'cascade' }),
    xsrfToken: text('xsrf_token').notNull(),
    /** null = a full session; 'segundo_factor' = password verified, waiting for the second factor. */
    stage: text('stage'),
    /** Wrong second-factor codes sent in this session. */
    failedCodes: integer('failed_codes').notNull().default(0),
    ip: text('ip').notNull().default(''),
    userAgent: text('user_agent').notNull().default(''),
    createdAt: ts('created_at').notNull().defaultNow(),
    lastSeenAt: ts('last_seen_at').notNull().defaultNow(),
    expiresAt: ts('expires_at').notNull(),
  },
  (t) => [index('sessions_user_idx').on(t.userId), index('sessions_expires_idx').on(t.expiresAt)],
);

/** Single-use backup codes of the second factor; only their SHA-256 is stored. */
export const twoFactorBackupCodes = pgTable(
  'two_factor_backup_codes',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    usedAt: ts('used_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [index('two_factor_backup_codes_user_idx').on(t.userId, t.codeHash)],
);

/** Single-use links (password reset, welcome); only the token's hash is stored. */
export const passwordTokens = pgTable(
  'password_tokens',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    purpose: text('purpose').notNull(),
    expiresAt: ts('expires_at').notNull(),
    usedAt: ts('used_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('password_tokens_hash_unique').on(t.tokenHash),
    index('password_tokens_user_idx').on(t.userId),
  ],
);

/** Throttling of sign-in and recovery attempts, shared by every server instance. */
export const authAttempts = pgTable(
  'auth_attempts',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    kind: text('kind').notNull(),
    subject: text('subject').notNull(),
    ip: text('ip').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    index('auth_attempts_subject_idx').on(t.kind, t.subject, t.ip, t.createdAt),
    index('auth_attempts_ip_idx').on(t.kind, t.ip, t.createdAt),
    // The retention job's oldest first (lib/retention.ts, decision 0101).
    index('auth_attempts_created_idx').on(t.createdAt),
  ],
);

/**
 * Uploaded files (images, PDFs, imports), named by content hash, shared by every instance. Their bytes are in
 * `stored_file_parts` (decision 0119). A row whose id is `subida-<random>` is an upload still arriving: its
 * parts are written as the bytes come and it is renamed to its content name when they end (lib/files.ts).
 */
export const storedFiles = pgTable(
  'stored_files',
  {
    id: text('id').primaryKey(),
    idCliente: integer('id_cliente').references(() => clients.id),
    kind: text('kind').notNull(),
    mime: text('mime').notNull(),
    size: integer('size').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [index('stored_files_cliente_idx').on(t.idCliente)],
);

/**
 * A stored file's bytes, 256 kB a row (`FILE_PART_BYTES` in lib/files.ts), numbered from 0 in order: no
 * statement carries a whole 20 MB file (issue 38, finding 7; decision 0119). They live as long as their file.
 */
export const storedFileParts = pgTable(
  'stored_file_parts',
  {
    fileId: text('file_id')
      .notNull()
      .references(() => storedFiles.id, { onDelete: 'cascade' }),
    part: integer('part').notNull(),
    data: bytea('data').notNull(),
  },
  (t) => [primaryKey({ columns: [t.fileId, t.part] })],
);

/** What an outbox row attaches: today only an order's purchase-order PDF. */
export type EmailAttachmentRef = { tipo: 'orden_compra'; id_pedido: number };

/** Every e-mail is written here first; a worker delivers it (or only logs it when no SMTP is set). */
export const emailOutbox = pgTable(
  'email_outbox',
  {
    id: serial('id').primaryKey(),
    to: text('to').notNull(),
    subject: text('subject').notNull(),
    text: text('text').notNull(),
    html: text('html'),
    /** A document rendered and attached at send time, by reference (decision 0056): never its bytes. */
    adjunto: jsonb('adjunto').$type<EmailAttachmentRef>(),
    /** What kind of message: 'acceso' for a welcome link (the unsent-access banner counts them); else null. */
    tipo: text('tipo'),
    /** The account the message is about (an access e-mail's user), when there is one. */
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    status: text('status').notNull().default('pendiente'),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    nextAttemptAt: ts('next_attempt_at').notNull().defaultNow(),
    createdAt: ts('created_at').notNull().defaultNow(),
    sentAt: ts('sent_at'),
  },
  (t) => [
    index('email_outbox_pending_idx').on(t.status, t.nextAttemptAt),
    // The delivered messages, oldest first, for the retention job (lib/retention.ts, decision 0101).
    index('email_outbox_sent_idx').on(t.sentAt).where(sql`${t.status} = 'enviado'`),
  ],
);

export const importJobs = pgTable(
  'import_jobs',
  {
    id: serial('id').primaryKey(),
    idCliente: integer('id_cliente')
      .notNull()
      .references(() => clients.id),
    tipo: text('tipo').notNull(),
    status: text('status').notNull().default('pendiente'),
    fileId: text('file_id').references(() => storedFiles.id),
    fileName: text('file_name').notNull().default(''),
    createdBy: integer('created_by').references(() => users.id),
    totalRows: integer('total_rows').notNull().default(0),
    okRows: integer('ok_rows').notNull().default(0),
    errorRows: integer('error_rows').notNull().default(0),
    errors: jsonb('errors').notNull().default([]),
    createdAt: ts('created_at').notNull().defaultNow(),
    finishedAt: ts('finished_at'),
  },
  (t) => [
    index('import_jobs_cliente_idx').on(t.idCliente, t.id),
    index('import_jobs_status_idx').on(t.status),
  ],
);

/**
 * Integration tokens (decision 0059): only the SHA-256 of the value is stored; `prefijo` (its first
 * characters) lets an operator recognise one. `ventana_inicio`/`ventana_usos` count the requests of the
 * current minute for the per-token rate limit, in the same statement that authenticates and notes last use.
 */
export const apiTokens = pgTable(
  'api_tokens',
  {
    id: serial('id').primaryKey(),
    nombre: text('nombre').notNull(),
    prefijo: text('prefijo').notNull(),
    tokenHash: text('token_hash').notNull(),
    /** null = every client. */
    idCliente: integer('id_cliente').references(() => clients.id),
    permisos: text('permisos').array().notNull(),
    expiraEn: ts('expira_en').notNull(),
    revocadoEn: ts('revocado_en'),
    ultimoUso: ts('ultimo_uso'),
    ventanaInicio: ts('ventana_inicio'),
    ventanaUsos: integer('ventana_usos').notNull().default(0),
    createdBy: integer('created_by').references(() => users.id),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('api_tokens_hash_unique').on(t.tokenHash)],
);

/**
 * The first answer of a v1 write sent with an `Idempotency-Key` (decision 0124): a retry with the same key
 * and body answers it again instead of writing twice. Written in the write's own transaction, so only a
 * write that happened is remembered; kept IDEMPOTENCY_RETENTION_HOURS (24) hours.
 */
export const apiIdempotencyKeys = pgTable(
  'api_idempotency_keys',
  {
    id: serial('id').primaryKey(),
    tokenId: integer('token_id')
      .notNull()
      .references(() => apiTokens.id, { onDelete: 'cascade' }),
    clave: text('clave').notNull(),
    /** SHA-256 of the method, the path and the body: the same key with another request is refused. */
    huella: text('huella').notNull(),
    statusCode: integer('status_code').notNull(),
    respuesta: jsonb('respuesta').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('api_idempotency_keys_token_clave_unique').on(t.tokenId, t.clave),
    index('api_idempotency_keys_created_idx').on(t.createdAt),
  ],
);

/** Webhook endpoints (decision 0060); the signing secret is sealed with lib/secret-box.ts. */
export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    id: serial('id').primaryKey(),
    url: text('url').notNull(),
    eventos: text('eventos').array().notNull(),
    /** null = every client. */
    idCliente: integer('id_cliente').references(() => clients.id),
    secretoCifrado: text('secreto_cifrado').notNull(),
    activo: boolean('activo').notNull().default(true),
    createdBy: integer('created_by').references(() => users.id),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [index('webhook_endpoints_activo_idx').on(t.activo, t.idCliente)],
);

/** One event of an order (the outbox): written in the transaction of the change, with the order as it was then. */
export const webhookEvents = pgTable(
  'webhook_events',
  {
    /** The event id receivers de-duplicate by (a UUID). */
    id: text('id').primaryKey(),
    tipo: text('tipo').notNull(),
    orderId: integer('order_id')
      .notNull()
      .references(() => orders.id),
    idCliente: integer('id_cliente').notNull(),
    /** The delivery body, exactly as signed and sent (every attempt sends the same bytes). */
    cuerpo: text('cuerpo').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    index('webhook_events_order_idx').on(t.orderId),
    // The retention job's oldest first (lib/retention.ts, decision 0101).
    index('webhook_events_created_idx').on(t.createdAt),
  ],
);

/** One event for one endpoint: its state, attempts and last answer (the per-endpoint delivery log). */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: serial('id').primaryKey(),
    eventId: text('event_id')
      .notNull()
      .references(() => webhookEvents.id),
    endpointId: integer('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id),
    estado: text('estado').notNull().default('pendiente'),
    intentos: integer('intentos').notNull().default(0),
    /** While `enviando`: until when this attempt's claim holds (a claim past it was lost with its process). */
    reclamadoHasta: ts('reclamado_hasta'),
    ultimoCodigo: integer('ultimo_codigo'),
    ultimaLatenciaMs: integer('ultima_latencia_ms'),
    ultimoError: text('ultimo_error'),
    ultimoIntentoEn: ts('ultimo_intento_en'),
    /** Retries go on for 24 hours from here: the event, or the last "Reenviar". */
    reintentosDesde: ts('reintentos_desde').notNull().defaultNow(),
    createdAt: ts('created_at').notNull().defaultNow(),
    entregadoEn: ts('entregado_en'),
  },
  (t) => [
    unique('webhook_deliveries_event_endpoint').on(t.eventId, t.endpointId),
    index('webhook_deliveries_endpoint_idx').on(t.endpointId, t.id),
    index('webhook_deliveries_estado_idx').on(t.endpointId, t.estado),
    check('webhook_deliveries_estado', sql`${t.estado} in ('pendiente', 'enviando', 'entregado', 'fallido')`),
  ],
);

/**
 * A client's own identity provider (OpenID Connect single sign-on, decision 0120): set by the distributor's
 * administrator. The client secret is sealed with the app's encryption key (lib/secret-box.ts, `ssoContext`)
 * and re-sealed by `npm run secrets:rotate`. `dominios` are the e-mail domains it covers, each also a row of
 * `client_sso_domains` (one client per domain). Lives with its client (on delete cascade).
 */
export const clientSso = pgTable(
  'client_sso',
  {
    idCliente: integer('id_cliente')
      .primaryKey()
      .references(() => clients.id, { onDelete: 'cascade' }),
    /** The issuer identifier as the provider publishes it (its discovery document hangs below it). */
    emisor: text('emisor').notNull(),
    /** The client id the provider gave the portal (not a key: the provider's own identifier). */
    idClienteOidc: text('id_cliente_oidc').notNull(),
    secretoCifrado: text('secreto_cifrado').notNull(),
    /** Lower-case e-mail domains, 1 to 10. */
    dominios: text('dominios').array().notNull(),
    /** Password sign-in is refused for the client's roles 1–3. */
    obligatorio: boolean('obligatorio').notNull().default(false),
    /** A verified e-mail of the domains with no account gets one (rol 1, the client's defaults). */
    altaAutomatica: boolean('alta_automatica').notNull().default(false),
    activo: boolean('activo').notNull().default(true),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [check('client_sso_dominios_count', sql`cardinality(${t.dominios}) between 1 and 10`)],
);

/** Which client's provider an e-mail domain signs in with: a domain belongs to one client only. */
export const clientSsoDomains = pgTable(
  'client_sso_domains',
  {
    dominio: text('dominio').primaryKey(),
    idCliente: integer('id_cliente')
      .notNull()
      .references(() => clientSso.idCliente, { onDelete: 'cascade' }),
  },
  (t) => [index('client_sso_domains_cliente_idx').on(t.idCliente)],
);

/**
 * A sign-in with a client's provider in progress (decision 0120): started by GET /api/sso/iniciar, consumed
 * once by GET /api/sso/retorno within 10 minutes, from the same browser session (`session_id`: the id of
 * the session the flow started from, anonymous or not). Only the state's SHA-256 is stored; the PKCE
 * verifier and the nonce are what the callback checks the provider's answer with. Purged a day after.
 */
export const ssoLogins = pgTable(
  'sso_logins',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    stateHash: text('state_hash').notNull(),
    sessionId: text('session_id').notNull(),
    idCliente: integer('id_cliente')
      .notNull()
      .references(() => clients.id, { onDelete: 'cascade' }),
    /** The e-mail typed on the sign-in page (sent to the provider as `login_hint`). */
    correo: text('correo').notNull(),
    codeVerifier: text('code_verifier').notNull(),
    nonce: text('nonce').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
    expiresAt: ts('expires_at').notNull(),
    usedAt: ts('used_at'),
  },
  (t) => [
    uniqueIndex('sso_logins_state_unique').on(t.stateHash),
    // The retention job's oldest first (lib/retention.ts, decision 0101).
    index('sso_logins_created_idx').on(t.createdAt),
  ],
);

/**
 * A client's SCIM provisioning token (decision 0121): its identity provider creates, changes and deactivates
 * the client's users through /scim/v2 with it. Only the SHA-256 of the value is stored, as for the
 * integration tokens; `prefijo` lets an administrator recognise it. One live (not revoked) token per client:
 * a new one revokes the previous. `ventana_inicio`/`ventana_usos` count the current minute's requests.
 */
export const scimTokens = pgTable(
  'scim_tokens',
  {
    id: serial('id').primaryKey(),
    idCliente: integer('id_cliente')
      .notNull()
      .references(() => clients.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    prefijo: text('prefijo').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
    createdBy: integer('created_by').references(() => users.id),
    ultimoUso: ts('ultimo_uso'),
    revocadoEn: ts('revocado_en'),
    ventanaInicio: ts('ventana_inicio'),
    ventanaUsos: integer('ventana_usos').notNull().default(0),
  },
  (t) => [
    uniqueIndex('scim_tokens_hash_unique').on(t.tokenHash),
    uniqueIndex('scim_tokens_live_unique').on(t.idCliente).where(sql`${t.revocadoEn} is null`),
  ],
);

/**
 * A client administrator's budget for a user above the client's `tope_presupuesto` (decision 0122): it waits
 * here for the distributor's administrator, who approves (the budget is applied as the users form would) or
 * refuses it. One pending request per user: a newer one replaces it. Kept: the record of who asked for and
 * who granted each budget (a few rows per user).
 */
export const budgetChangeRequests = pgTable(
  'budget_change_requests',
  {
    id: serial('id').primaryKey(),
    idCliente: integer('id_cliente')
      .notNull()
      .references(() => clients.id),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    /** The monthly budget asked for (centavos; the sum of `categorias` in category mode). */
    presupuesto: money('presupuesto').notNull(),
    /** The user's budget when it was asked for (centavos). */
    presupuestoAnterior: money('presupuesto_anterior').notNull(),
    /** Category mode: the budgets asked for, [{id, presupuesto}] in centavos; null in regular mode. */
    categorias: jsonb('categorias').$type<{ id: number; presupuesto: number }[]>(),
    estado: text('estado').notNull().default('pendiente'),
    requestedBy: integer('requested_by')
      .notNull()
      .references(() => users.id),
    decidedBy: integer('decided_by').references(() => users.id),
    decidedAt: ts('decided_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    check(
      'budget_change_requests_estado',
      sql`${t.estado} in ('pendiente', 'aprobada', 'rechazada', 'reemplazada')`,
    ),
    check('budget_change_requests_presupuesto_min', sql`${t.presupuesto} >= 0`),
    uniqueIndex('budget_change_requests_pending_unique').on(t.userId).where(sql`${t.estado} = 'pendiente'`),
    index('budget_change_requests_pending_idx').on(t.createdAt, t.id).where(sql`${t.estado} = 'pendiente'`),
    index('budget_change_requests_cliente_idx').on(t.idCliente, t.id),
  ],
);

/**
 * A client's áreas (cost centres, decision 0123): each has a monthly budget that its buyers' orders spend
 * besides their own, an optional GL account for the reports and a responsible approver, who decides its
 * top-ups and gets its budget alerts.
 */
export const areas = pgTable(
  'areas',
  {
    id: serial('id').primaryKey(),
    idCliente: integer('id_cliente')
      .notNull()
      .references(() => clients.id),
    nombre: text('nombre').notNull(),
    codigo: text('codigo').notNull(),
    cuentaContable: text('cuenta_contable'),
    /** The monthly budget (centavos), before the month's top-ups and transfers. */
    presupuesto: money('presupuesto').notNull(),
    idResponsable: integer('id_responsable').references((): AnyPgColumn => users.id),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('areas_codigo_unique').on(t.idCliente, sql`lower(${t.codigo})`),
    uniqueIndex('areas_nombre_unique').on(t.idCliente, sql`lower(${t.nombre})`),
    check('areas_presupuesto_min', sql`${t.presupuesto} >= 0`),
  ],
);

/**
 * Each área's running month (decision 0123), kept by the order's lifecycle seam with the buyers' running
 * months (db/order-totals.ts): the spend with IVA and the number of the non-cancelled orders charged to it.
 */
export const areaMonthSpend = pgTable(
  'area_month_spend',
  {
    idArea: integer('id_area').notNull(),
    mes: date('mes', { mode: 'string' }).notNull(),
    importe: money('importe').notNull(),
    compras: integer('compras').notNull(),
  },
  (t) => [primaryKey({ columns: [t.idArea, t.mes] })],
);

/**
 * The área budget alerts already sent (decision 0123): one row per área, business month and threshold,
 * claimed in the change's transaction exactly like a buyer's (`budget_alerts`), so none is sent twice.
 */
export const areaBudgetAlerts = pgTable(
  'area_budget_alerts',
  {
    idArea: integer('id_area')
      .notNull()
      .references(() => areas.id, { onDelete: 'cascade' }),
    /** The business month, YYYY-MM. */
    mes: text('mes').notNull(),
    umbral: smallint('umbral').notNull(),
    porcentaje: integer('porcentaje').notNull(),
    sentAt: ts('sent_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.idArea, t.mes, t.umbral] })],
);

/**
 * A buyer's request for more budget this month (decision 0123): for their own budget (of one category in
 * category mode) or their área's. The área's responsible approver, a super authorizer or a client
 * administrator of the client, or the distributor, approves it (a budget adjustment) or refuses it.
 */
export const budgetTopups = pgTable(
  'budget_topups',
  {
    id: serial('id').primaryKey(),
    idCliente: integer('id_cliente')
      .notNull()
      .references(() => clients.id),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    /** The área whose budget is asked for; null = the buyer's own budget. */
    idArea: integer('id_area').references(() => areas.id),
    /** Category mode, the buyer's own budget: the category asked for. */
    idCategoria: integer('id_categoria'),
    /** The business month (its first day) the top-up is for. */
    mes: date('mes', { mode: 'string' }).notNull(),
    importe: money('importe').notNull(),
    motivo: text('motivo').notNull(),
    estado: text('estado').notNull().default('pendiente'),
    respuesta: text('respuesta'),
    decidedBy: integer('decided_by').references(() => users.id),
    decidedAt: ts('decided_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    check('budget_topups_estado', sql`${t.estado} in ('pendiente', 'aprobada', 'rechazada')`),
    check('budget_topups_importe_min', sql`${t.importe} > 0`),
    index('budget_topups_cliente_idx').on(t.idCliente, t.estado, t.id),
    index('budget_topups_user_idx').on(t.userId, t.id),
  ],
);

/**
 * What moves a month's budget beyond the base (decision 0123): an approved top-up (+) of a buyer or an área,
 * one side of a transfer between two áreas (− from one, + to the other), or a claim's credit given back in the
 * current month because the order's month is over (+, decision 0127). A month's budget is the base plus the
 * sum of its rows; rows are never changed or removed.
 */
export const budgetAdjustments = pgTable(
  'budget_adjustments',
  {
    id: serial('id').primaryKey(),
    idCliente: integer('id_cliente')
      .notNull()
      .references(() => clients.id),
    mes: date('mes', { mode: 'string' }).notNull(),
    userId: integer('user_id').references(() => users.id),
    idArea: integer('id_area').references(() => areas.id),
    /** Category mode: the category of the buyer's budget adjusted; 0 = the whole budget (regular mode). */
    idCategoria: integer('id_categoria').notNull().default(0),
    /** Centavos; negative for the giving side of a transfer. */
    importe: money('importe').notNull(),
    tipo: text('tipo').notNull(),
    idTopup: integer('id_topup').references(() => budgetTopups.id),
    /** `credito`: the claim whose credit gave the amount back in this month (decision 0127). */
    idReclamo: integer('id_reclamo').references(() => orderClaims.id),
    createdBy: integer('created_by')
      .notNull()
      .references(() => users.id),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    check('budget_adjustments_tipo', sql`${t.tipo} in ('ampliacion', 'transferencia', 'credito')`),
    check('budget_adjustments_target', sql`(${t.userId} is null) <> (${t.idArea} is null)`),
    index('budget_adjustments_user_idx').on(t.userId, t.mes).where(sql`${t.userId} is not null`),
    index('budget_adjustments_area_idx').on(t.idArea, t.mes).where(sql`${t.idArea} is not null`),
  ],
);

/**
 * A client's address book (decision 0126, docs/domain.md "Ship-to addresses"): the places its orders are
 * delivered to, each with its delivery contact and window. Rows live as long as their client: deactivated,
 * never deleted (a buyer's default names one; orders keep their own copy in `orders.entrega`).
 */
export const clientAddresses = pgTable(
  'client_addresses',
  {
    id: serial('id').primaryKey(),
    idCliente: integer('id_cliente')
      .notNull()
      .references(() => clients.id),
    /** The label the cart and the documents show ("Almacén Norte"). */
    nombre: text('nombre').notNull(),
    calle: text('calle').notNull(),
    numeroExterior: text('numero_exterior').notNull(),
    numeroInterior: text('numero_interior').notNull().default(''),
    colonia: text('colonia').notNull(),
    municipio: text('municipio').notNull(),
    ciudad: text('ciudad').notNull(),
    estado: text('estado').notNull(),
    cp: text('cp').notNull(),
    /** Who receives, and a phone of 10 digits. */
    contacto: text('contacto').notNull(),
    telefono: text('telefono').notNull(),
    /** The delivery window, as text ("L-V 9:00 a 14:00"). */
    horario: text('horario').notNull().default(''),
    activo: boolean('activo').notNull().default(true),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    // One active address per label within a client, case ignored.
    uniqueIndex('client_addresses_nombre_unique')
      .on(t.idCliente, sql`lower(${t.nombre})`)
      .where(sql`${t.activo}`),
    index('client_addresses_cliente_idx').on(t.idCliente, t.activo, t.id),
    check('client_addresses_cp', sql`${t.cp} ~ '^[0-9]{5}$'`),
  ],
);

/**
 * The addresses a buyer may choose besides its default (decision 0126): kept while they are its choices,
 * replaced when edited; removed with the user (never deleted) or when the address is deactivated.
 */
export const userAddresses = pgTable(
  'user_addresses',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    addressId: integer('address_id')
      .notNull()
      .references(() => clientAddresses.id, { onDelete: 'cascade' }),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.addressId] }),
    index('user_addresses_address_idx').on(t.addressId),
  ],
);

/**
 * The addresses a receiver (users.receptor, decision 0130) receives for; none = every address of its client.
 * Replaced whole when edited; removed with the user. A deactivated address keeps its rows: the orders already
 * sent there still need receiving, and dropping the row could widen a receiver's reach to every address.
 */
export const receiverAddresses = pgTable(
  'receiver_addresses',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    addressId: integer('address_id')
      .notNull()
      .references(() => clientAddresses.id, { onDelete: 'cascade' }),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.addressId] }),
    index('receiver_addresses_address_idx').on(t.addressId),
  ],
);

/**
 * A stamped CFDI 4.0 the distributor issued to a client (issue 42 item 2, decision 0131), as the ERP or the
 * operator registered it for an order (and optionally one of its shipments): an invoice (tipo I), a credit
 * note (E) or a payment complement (P), with what the XML says and the XML itself (and its PDF) as stored
 * files. `saldo` is what an invoice still owes: its total less the credit notes and payments applied to it
 * (`invoice_applications`), never below 0; null for E and P. Kept as long as its order (which is never
 * deleted), so at least the 5 years after the invoice's date the SAT requires (CFF art. 30).
 */
export const invoices = pgTable(
  'invoices',
  {
    id: serial('id').primaryKey(),
    idCliente: integer('id_cliente')
      .notNull()
      .references(() => clients.id),
    orderId: integer('order_id')
      .notNull()
      .references(() => orders.id),
    shipmentId: integer('shipment_id').references(() => orderShipments.id),
    tipo: text('tipo').notNull(),
    /** The folio fiscal (TimbreFiscalDigital UUID), upper case: one registration per CFDI. */
    uuid: text('uuid').notNull(),
    serie: text('serie'),
    folio: text('folio'),
    /** Comprobante@Fecha and TimbreFiscalDigital@FechaTimbrado as written (the issuer's local time). */
    fecha: text('fecha').notNull(),
    fechaTimbrado: text('fecha_timbrado').notNull(),
    emisorRfc: text('emisor_rfc').notNull(),
    emisorNombre: text('emisor_nombre').notNull(),
    receptorRfc: text('receptor_rfc').notNull(),
    receptorNombre: text('receptor_nombre').notNull(),
    usoCfdi: text('uso_cfdi').notNull(),
    subtotal: money('subtotal').notNull(),
    descuento: money('descuento').notNull(),
    traslados: money('traslados').notNull(),
    retenciones: money('retenciones').notNull(),
    /** The comprobante's Total; a payment complement's: what it pays (the sum of its ImpPagado). */
    total: money('total').notNull(),
    moneda: text('moneda').notNull().default('MXN'),
    metodoPago: text('metodo_pago'),
    formaPago: text('forma_pago'),
    saldo: money('saldo'),
    xmlFileId: text('xml_file_id')
      .notNull()
      .references(() => storedFiles.id),
    pdfFileId: text('pdf_file_id').references(() => storedFiles.id),
    /** The operator who uploaded it; null when an integration token posted it (`tokenId`). */
    createdBy: integer('created_by').references(() => users.id),
    tokenId: integer('token_id').references(() => apiTokens.id),
    createdAt: ts('created_at').notNull().defaultNow(),
    /**
     * The SAT's verification link of the CFDI (UUID, RFCs, total and the seal's last 8 characters, built by
     * @nodecfdi/cfdi-expresiones at registration; decision 0133); null on the rows registered before it.
     */
    verificacionSat: text('verificacion_sat'),
    /**
     * The three-way match of an invoice (tipo I, decision 0133): conciliada | con_diferencias |
     * diferencia_aceptada; null on E and P, and on invoices registered before the match existed.
     */
    cotejo: text('cotejo'),
    /** The differences the match found (packages/shared/src/domain/invoice-match.ts `MatchDifference[]`). */
    cotejoDiferencias: jsonb('cotejo_diferencias').notNull().default(sql`'[]'::jsonb`),
    /** Units billed per order line id (the match's `facturado`): what the next invoice of the order may bill. */
    cotejoFacturado: jsonb('cotejo_facturado').notNull().default(sql`'{}'::jsonb`),
    /** What the invoice bills beyond what may be billed (centavos, IVA included). */
    cotejoExceso: money('cotejo_exceso'),
    /** How a difference was resolved: the operator's reason, or the credit note that covered it. */
    cotejoMotivo: text('cotejo_motivo'),
    cotejoNotaCreditoId: integer('cotejo_nota_credito_id').references((): AnyPgColumn => invoices.id),
    cotejoResueltoPor: integer('cotejo_resuelto_por').references(() => users.id),
    cotejoResueltoAt: ts('cotejo_resuelto_at'),
  },
  (t) => [
    uniqueIndex('invoices_uuid_idx').on(t.uuid),
    check(
      'invoices_cotejo',
      sql`${t.cotejo} is null or (${t.tipo} = 'I' and ${t.cotejo} in ('conciliada', 'con_diferencias', 'diferencia_aceptada'))`,
    ),
    // invoices_open_fecha_idx (id_cliente, fecha, id) INCLUDE (saldo) WHERE tipo = 'I' AND saldo > 0:
    // migration 0064 (replacing 0062's invoices_open_idx), written by hand because the schema builder has no
    // INCLUDE (the credit check's per-day sums and the statement's pages of open invoices, decision 0138).
    index('invoices_order_idx').on(t.orderId, t.id),
    index('invoices_cliente_idx').on(t.idCliente, t.id),
    check('invoices_tipo', sql`${t.tipo} in ('I', 'E', 'P')`),
    check('invoices_moneda', sql`${t.moneda} = 'MXN'`),
    check(
      'invoices_uuid_shape',
      sql`${t.uuid} ~ '^[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12}$'`,
    ),
    check('invoices_saldo', sql`(${t.tipo} = 'I') = (${t.saldo} is not null)`),
    check('invoices_saldo_range', sql`${t.saldo} is null or (${t.saldo} >= 0 and ${t.saldo} <= ${t.total})`),
    check(
      'invoices_amounts',
      sql`${t.subtotal} >= 0 and ${t.descuento} >= 0 and ${t.traslados} >= 0 and ${t.retenciones} >= 0 and ${t.total} >= 0`,
    ),
  ],
);

/** An invoice's concepts (cfdi:Concepto), numbered from 1 in the XML's order: part of their invoice. */
export const invoiceLines = pgTable(
  'invoice_lines',
  {
    invoiceId: integer('invoice_id')
      .notNull()
      .references(() => invoices.id, { onDelete: 'cascade' }),
    numero: integer('numero').notNull(),
    claveProdServ: text('clave_prod_serv').notNull(),
    noIdentificacion: text('no_identificacion'),
    /** As written (up to 6 decimals). */
    cantidad: text('cantidad').notNull(),
    claveUnidad: text('clave_unidad').notNull(),
    unidad: text('unidad'),
    descripcion: text('descripcion').notNull(),
    /** As written (up to 6 decimals); `importe` and `descuento` in centavos. */
    valorUnitario: text('valor_unitario').notNull(),
    importe: money('importe').notNull(),
    descuento: money('descuento').notNull(),
  },
  (t) => [primaryKey({ columns: [t.invoiceId, t.numero] })],
);

/**
 * A client's open invoices (ingresos with a saldo) a business day at a time (decision 0148): their number and
 * the sum of their saldos, kept by the statement triggers on `invoices` (migration 0071), a row for each day
 * that has one open. What the credit reads (every final approval, every statement, the distributor's aging)
 * instead of summing the open invoices each time (finding 66: 20 ms a call on xlarge). Checked against the
 * invoices by `openInvoiceDayDrift`.
 */
export const clientOpenInvoiceDays = pgTable(
  'client_open_invoice_days',
  {
    idCliente: integer('id_cliente')
      .notNull()
      .references(() => clients.id, { onDelete: 'cascade' }),
    /** The business day: the first ten characters of the invoices' `fecha`. */
    fecha: text('fecha').notNull(),
    saldo: money('saldo').notNull(),
    facturas: integer('facturas').notNull(),
  },
  // No CHECK on the counts: an upsert checks the row it proposes (a day's change, which may be negative)
  // before it finds the day's row to add it to.
  (t) => [primaryKey({ columns: [t.idCliente, t.fecha] })],
);

/**
 * A credit note (E) or a payment complement (P) applied to an invoice (I) of the same client: `importe`
 * left the invoice's `saldo` when the source was registered. Part of their invoices.
 */
export const invoiceApplications = pgTable(
  'invoice_applications',
  {
    id: serial('id').primaryKey(),
    sourceId: integer('source_id')
      .notNull()
      .references(() => invoices.id),
    invoiceId: integer('invoice_id')
      .notNull()
      .references(() => invoices.id),
    importe: money('importe').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('invoice_applications_source_invoice_idx').on(t.sourceId, t.invoiceId),
    index('invoice_applications_invoice_idx').on(t.invoiceId, t.id),
    check('invoice_applications_importe', sql`${t.importe} > 0`),
    check('invoice_applications_distinct', sql`${t.sourceId} <> ${t.invoiceId}`),
  ],
);
