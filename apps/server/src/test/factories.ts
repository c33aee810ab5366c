import { randomBytes, scryptSync } from 'node:crypto';
import type { Db } from '../db/client.ts';
import { clients, users, weeks } from '../db/schema/index.ts';
import { hashPassword, setHashParamsForTests, TEST_SCRYPT_PARAMS } from '../lib/passwords.ts';

export const TEST_PASSWORD = 'Prueba#2026';
let cachedHash: Promise<string> | null = null;
/** Hashing is slow on purpose; tests share one hash of TEST_PASSWORD. */
function testHash(): Promise<string> {
  cachedHash ??= hashPassword(TEST_PASSWORD);
  return cachedHash;
}

/** The test suites hash with these (setup.ts). */
export const TEST_HASH_PARAMS = TEST_SCRYPT_PARAMS;
/** The parameters the portal hashed with before decision 0035. */
const LEGACY_HASH_PARAMS = Object.freeze({ N: 16384, r: 8, p: 1 });

/** A hash as the portal stored them before decision 0035 (scrypt N = 16384), to test the upgrade. */
export function legacyHash(password: string): string {
  const { N, r, p } = LEGACY_HASH_PARAMS;
  const salt = randomBytes(16);
  const key = scryptSync(password.normalize('NFC'), salt, 32, { N, r, p });
  return `scrypt$${N}$${r}$${p}$${salt.toString('base64')}$${key.toString('base64')}`;
}

/** Runs `fn` with the production hashing parameters (SCRYPT_PARAMS), as a deployed server has them. */
export async function withProductionHashing<T>(fn: () => Promise<T>): Promise<T> {
  setHashParamsForTests();
  try {
    return await fn();
  } finally {
    setHashParamsForTests(TEST_HASH_PARAMS);
  }
}

export const uniq = (prefix: string) => `${prefix}_${randomBytes(4).toString('hex')}`;

export async function makeClient(db: Db, values: Partial<typeof clients.$inferInsert> = {}) {
  const [row] = await db
    .insert(clients)
    .values({
      nombre: uniq('Cliente'),
      presupuestoDefault: 500000,
      cantidadAutorizadores: 2,
      limiteDeCompras: 4,
      ...values,
    })
    .returning();
  return row!;
}

export async function makeUser(
  db: Db,
  values: Partial<typeof users.$inferInsert> & { rol: number; idCliente: number | null },
) {
  const [row] = await db
    .insert(users)
    .values({
      usuario: uniq('user'),
      nombre: 'Persona de Prueba',
      email: `${uniq('correo')}@example.test`,
      passwordHash: await testHash(),
      passwordChangedAt: new Date(),
      presupuestoDefault: 500000,
      ...values,
    })
    .returning();
  return row!;
}

export async function makeWeek(db: Db, values: typeof weeks.$inferInsert) {
  const [row] = await db.insert(weeks).values(values).returning();
  return row!;
}

export async function makeCategory(db: Db, idCliente: number, nombre = uniq('Categoría')) {
  const { categories } = await import('../db/schema/index.ts');
  const [row] = await db.insert(categories).values({ idCliente, nombre }).returning();
  return row!;
}

export async function makeProduct(
  db: Db,
  values: { idCliente: number; idCategoria: number; precio: number } & Partial<
    typeof import('../db/schema/index.ts').products.$inferInsert
  >,
) {
  const { products } = await import('../db/schema/index.ts');
  const [row] = await db
    .insert(products)
    .values({ claveInterna: uniq('CL'), nombre: uniq('Producto'), ...values })
    .returning();
  return row!;
}

export async function assign(db: Db, userId: number, productId: number, cantidadLimite = 5, asignado = true) {
  const { userProducts } = await import('../db/schema/index.ts');
  await db.insert(userProducts).values({ userId, productId, cantidadLimite, asignado });
}

/** An order written directly (for reports and authorizer tests), with snapshotted lines. */
export async function makeOrder(
  db: Db,
  values: {
    idUser: number;
    idCliente: number;
    status?: 'pendiente' | 'espera' | 'aprobado' | 'cancelado';
    /** The fulfilment state of an aprobado order (por_surtir when not given). */
    surtido?: 'por_surtir' | 'en_surtido' | 'enviado' | 'entregado';
    transactionDate?: Date;
    /** An aprobado order held for credit with this reason (decision 0134). */
    retenidoCredito?: string;
    lines: {
      productId: number;
      nombre?: string;
      precio: number;
      cantidad: number;
      impuesto?: boolean;
      idCategoria: number;
      categoria?: string;
    }[];
  },
) {
  const { orders, orderLines, users } = await import('../db/schema/index.ts');
  const { totalsOf } = await import('@portal/shared/domain/money');
  const { eq } = await import('drizzle-orm');
  const lines = values.lines.map((l) => ({ ...l, impuesto: l.impuesto ?? true }));
  const t = totalsOf(lines);
  // The buyer's delivery address as it is now, as the purchase copies it onto the order.
  const [buyer] = await db
    .select({
      direccion_entrega: users.direccionEntrega,
      calle: users.calle,
      colonia: users.colonia,
      ciudad: users.ciudad,
      estado: users.estado,
      cp: users.cp,
    })
    .from(users)
    .where(eq(users.id, values.idUser));
  const [order] = await db
    .insert(orders)
    .values({
      idUser: values.idUser,
      idCliente: values.idCliente,
      status: values.status ?? 'pendiente',
      surtidoEstatus: values.status === 'aprobado' ? (values.surtido ?? 'por_surtir') : null,
      subtotal: t.subtotal,
      iva: t.iva,
      total: t.total,
      lineas: lines.length,
      transactionDate: values.transactionDate ?? new Date(),
      entrega: buyer ?? {},
      retenidoCredito: values.retenidoCredito ?? null,
    })
    .returning();
  const shipped = values.surtido === 'enviado' || values.surtido === 'entregado';
  const inserted = await db
    .insert(orderLines)
    .values(
      lines.map((l) => ({
        orderId: order!.id,
        productId: l.productId,
        claveInterna: `CL-${l.productId}`,
        claveCliente: '',
        nombre: l.nombre ?? `Producto ${l.productId}`,
        unidadDeMedida: 'Pieza',
        idCategoria: l.idCategoria,
        categoria: l.categoria ?? 'Papelería',
        precio: l.precio,
        impuesto: l.impuesto,
        cantidad: l.cantidad,
        // A shipped order shipped every unit (decision 0125).
        enviado: shipped ? l.cantidad : 0,
      })),
    )
    .returning({ id: orderLines.id });
  // Like a purchase: the order counts in the dashboard's sales summary.
  const { moveOrderTotals } = await import('../db/order-totals.ts');
  await moveOrderTotals(db, order!.id, 1);
  return { ...order!, lineIds: inserted.map((l) => l.id) };
}
