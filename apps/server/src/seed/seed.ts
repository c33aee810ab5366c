import { TOKEN_MAX_DAYS, TOKEN_SHOWN_CHARS } from '@portal/shared/domain/integration';
import { ROLES } from '@portal/shared/domain/roles';
import { addDays, businessDate } from '@portal/shared/domain/time';
import { eq, inArray } from 'drizzle-orm';
import type { Db, Tx } from '../db/client.ts';
import {
  apiTokens,
  areas,
  categories,
  clients,
  products,
  userCategoryBudgets,
  userProducts,
  users,
  weeks,
} from '../db/schema/index.ts';
import {
  IMAGE_MAX_BYTES,
  insertPreparedFiles,
  PDF_MAX_BYTES,
  type PreparedFile,
  prepareFile,
  prepareImageWithThumb,
} from '../lib/files.ts';
import { hashPassword } from '../lib/passwords.ts';
import { hashToken } from '../lib/tokens.ts';
import { sealTotpSecret } from '../lib/totp.ts';
import { logoSvg, productSvg, svgToPng } from './art.ts';
import {
  ADMIN_2FA_DEMO_SECRET,
  ADMIN_DEMO_PASSWORD,
  DEMO_API_TOKEN,
  DEMO_CLIENTS,
  DEMO_PASSWORD,
  type DemoClient,
  QUANTITY_LIMITS,
} from './data.ts';
import { calendarPdf, manualPdf } from './documents.ts';

export interface DemoSignIn {
  usuario: string;
  password: string;
  rol: number;
  cliente: string | null;
}

export interface SeedDemoOptions {
  /** Business time zone (IANA), for the access week around today. */
  tz: string;
  /** Now (the app's clock): today's access week and the demo passwords' date. */
  now: Date;
  /** The app's key for secrets at rest (AppKeys.encryption): the demo TOTP secret is stored encrypted. */
  encryptionKey: Buffer;
}

interface PreparedClient {
  logo: PreparedFile;
  calendario: PreparedFile;
  manual: PreparedFile;
  productImages: { original: PreparedFile; thumb: PreparedFile }[];
  week: { inicio: string; fin: string };
}

async function prepareClientFiles(client: DemoClient, today: string): Promise<PreparedClient> {
  const week = { inicio: addDays(today, -2), fin: addDays(today, 4) };
  const [logo, calendario, manual, productImages] = await Promise.all([
    svgToPng(logoSvg(client)).then((data) =>
      prepareFile({ data, kind: 'imagen', idCliente: null, allowed: ['image'], maxBytes: IMAGE_MAX_BYTES }),
    ),
    prepareFile({
      data: calendarPdf(client, today, week),
      kind: 'documento',
      idCliente: null,
      allowed: ['pdf'],
      maxBytes: PDF_MAX_BYTES,
    }),
    prepareFile({
      data: manualPdf(client),
      kind: 'documento',
      idCliente: null,
      allowed: ['pdf'],
      maxBytes: PDF_MAX_BYTES,
    }),
    Promise.all(
      client.products.map(async (p, i) => {
        const category = client.categories[p.cat];
        if (!category) throw new Error(`Categoría ${p.cat} inexistente en ${client.nombre}`);
        const png = await svgToPng(productSvg(category.color, i, `${client.prefix}-${i}-${p.nombre}`));
        return prepareImageWithThumb({ data: png, idCliente: null });
      }),
    ),
  ]);
  return { logo, calendario, manual, productImages, week };
}

function clave(prefix: string, n: number): string {
  return `${prefix}-${String(n).padStart(4, '0')}`;
}

/** Two-factor sign-in active on the published demo secret (README) for these demo accounts. */
async function demoSecondStep(tx: Tx, key: SeedDemoOptions['encryptionKey'], ids: number[], now: Date) {
  for (const id of ids)
    await tx
      .update(users)
      .set({ totpSecret: sealTotpSecret(key, id, ADMIN_2FA_DEMO_SECRET), totpEnabledAt: now })
      .where(eq(users.id, id));
}

/** A client's áreas (decision 0123), with their responsible approver and their members. */
async function seedAreas(tx: Tx, idCliente: number, client: DemoClient, idOf: (usuario: string) => number) {
  for (const a of client.areas ?? []) {
    const [area] = await tx
      .insert(areas)
      .values({
        idCliente,
        nombre: a.nombre,
        codigo: a.codigo,
        cuentaContable: a.cuentaContable,
        presupuesto: a.presupuesto,
        idResponsable: idOf(a.responsable),
      })
      .returning({ id: areas.id });
    await tx
      .update(users)
      .set({ idArea: area!.id })
      .where(inArray(users.id, a.miembros.map(idOf)));
  }
}

/**
 * Creates the demo data in one transaction: an administrator and two clients ("Demo Industrial" in
 * regular budget mode with two authorizers, "Demo Categorías" in category mode with one), with
 * categories, products with pictures, users, assignments, documents and an access week around today.
 */
export async function seedDemo(db: Db, opts: SeedDemoOptions): Promise<{ signIns: DemoSignIn[] }> {
  const now = opts.now;
  const today = businessDate(now, opts.tz);

  // The slow work (password hashing, pictures) runs in parallel before the transaction.
  const [demoHash, adminHash, prepared] = await Promise.all([
    hashPassword(DEMO_PASSWORD),
    hashPassword(ADMIN_DEMO_PASSWORD),
    Promise.all(DEMO_CLIENTS.map((c) => prepareClientFiles(c, today))),
  ]);

  const signIns: DemoSignIn[] = [
    { usuario: 'admin', password: ADMIN_DEMO_PASSWORD, rol: 4, cliente: null },
    { usuario: 'admin2fa', password: ADMIN_DEMO_PASSWORD, rol: 4, cliente: null },
  ];

  await db.transaction(async (tx) => {
    await tx.insert(users).values({
      idCliente: null,
      usuario: 'admin',
      email: 'admin@portal-de-compras.mx',
      nombre: 'Administrador del portal',
      rol: 4,
      passwordHash: adminHash,
      passwordChangedAt: now,
      passwordTemporary: false,
    });
    // A second administrator with two-factor sign-in already active (its secret is in the README).
    const [admin2fa] = await tx
      .insert(users)
      .values({
        idCliente: null,
        usuario: 'admin2fa',
        email: 'admin2fa@portal-de-compras.mx',
        nombre: 'Administradora con verificación en dos pasos',
        rol: 4,
        passwordHash: adminHash,
        passwordChangedAt: now,
        passwordTemporary: false,
      })
      .returning({ id: users.id });
    // Two steps on the published secret: admin2fa and each client administrator (mandatory, decision 0122).
    const secondSteps: number[] = [admin2fa!.id];
    for (const [ci, client] of DEMO_CLIENTS.entries()) {
      const files = prepared[ci]!;
      const [createdClient] = await tx
        .insert(clients)
        .values({
          nombre: client.nombre,
          color: client.color,
          color2: client.color2,
          presupuestoDefault: client.presupuestoDefault,
          cantidadAutorizadores: client.cantidadAutorizadores,
          limiteDeCompras: client.limiteDeCompras,
          modoPresupuesto: client.modo,
          mostrarPresupuestoAUsuarios: client.mostrarPresupuesto,
          ...(client.permisosCliente ? { permisosCliente: client.permisosCliente } : {}),
          topePresupuesto: client.topePresupuesto ?? null,
        })
        .returning({ id: clients.id });
      const idCliente = createdClient!.id;

      const owned = (f: PreparedFile): PreparedFile => ({ ...f, idCliente });
      await insertPreparedFiles(tx, [
        owned(files.logo),
        owned(files.calendario),
        owned(files.manual),
        ...files.productImages.flatMap((img) => [owned(img.original), owned(img.thumb)]),
      ]);
      await tx
        .update(clients)
        .set({ imagen: files.logo.id, calendario: files.calendario.id, manual: files.manual.id })
        .where(eq(clients.id, idCliente));

      const createdCategories = await tx
        .insert(categories)
        .values(client.categories.map((c) => ({ idCliente, nombre: c.nombre, icono: c.icono })))
        .returning({ id: categories.id });
      const categoryId = (index: number): number => {
        const row = createdCategories[index];
        if (!row) throw new Error(`Categoría ${index} inexistente en ${client.nombre}`);
        return row.id;
      };

      const createdProducts = await tx
        .insert(products)
        .values(
          client.products.map((p, i) => ({
            idCliente,
            idCategoria: categoryId(p.cat),
            claveInterna: clave(client.prefix, i + 1),
            claveCliente: `${client.clientePrefix}-${10230 + i * 7}`,
            nombre: p.nombre,
            descripcion: p.descripcion,
            unidadDeMedida: p.unidad,
            precio: p.precio,
            impuesto: p.impuesto ?? true,
            imagen: files.productImages[i]!.original.id,
          })),
        )
        .returning({ id: products.id });

      const createdUsers = await tx
        .insert(users)
        .values(
          client.users.map((u) => ({
            idCliente,
            usuario: u.usuario,
            email: `${u.usuario}@${client.emailDomain}`,
            nombre: u.nombre,
            rol: u.rol,
            ...client.address,
            area: u.area,
            coordinacion: u.coordinacion,
            activeWeek: u.activeWeek,
            entregaWeek: u.entregaWeek,
            limiteDeCompras: client.limiteDeCompras,
            presupuestoDefault: u.presupuestoDefault,
            passwordHash: demoHash,
            passwordChangedAt: now,
            passwordTemporary: false,
          })),
        )
        .returning({ id: users.id });

      const budgets: (typeof userCategoryBudgets.$inferInsert)[] = [];
      const assignments: (typeof userProducts.$inferInsert)[] = [];
      client.users.forEach((u, ui) => {
        const userId = createdUsers[ui]!.id;
        signIns.push({ usuario: u.usuario, password: DEMO_PASSWORD, rol: u.rol, cliente: client.nombre });
        if (u.rol === ROLES.administradorCliente) secondSteps.push(userId);
        for (const [cat, presupuesto] of Object.entries(u.categoryBudgets ?? {})) {
          budgets.push({ userId, categoryId: categoryId(Number(cat)), presupuesto });
        }
        if (u.rol !== ROLES.usuario) return;
        createdProducts.forEach((p, pi) => {
          assignments.push({
            userId,
            productId: p.id,
            // A few products per user stay visible in the admin's list but not assigned.
            asignado: (pi + ui * 3) % 8 !== 7,
            cantidadLimite: QUANTITY_LIMITS[(pi + ui) % QUANTITY_LIMITS.length]!,
          });
        });
      });
      if (budgets.length) await tx.insert(userCategoryBudgets).values(budgets);
      await seedAreas(tx, idCliente, client, (usuario) => {
        return createdUsers[client.users.findIndex((u) => u.usuario === usuario)]!.id;
      });
      if (assignments.length) await tx.insert(userProducts).values(assignments);

      await tx
        .insert(weeks)
        .values({ idCliente, inicio: files.week.inicio, fin: files.week.fin, activo: true });
    }
    await demoSecondStep(tx, opts.encryptionKey, secondSteps, now);
    await tx.insert(apiTokens).values({
      nombre: 'Demo (publicado)',
      prefijo: DEMO_API_TOKEN.slice(0, TOKEN_SHOWN_CHARS),
      tokenHash: hashToken(DEMO_API_TOKEN),
      idCliente: null,
      permisos: ['pedidos:leer'],
      expiraEn: new Date(now.getTime() + TOKEN_MAX_DAYS * 86_400_000),
    });
  });

  return { signIns };
}
