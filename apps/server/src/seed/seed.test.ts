import { randomBytes } from 'node:crypto';
import { addDays, businessDate } from '@portal/shared/domain/time';
import { and, count, eq, inArray, isNotNull } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/client.ts';
import {
  categories,
  clients,
  apiTokens as demoTokens,
  orders,
  products,
  storedFiles,
  userCategoryBudgets,
  userProducts,
  users,
  weeks,
} from '../db/schema/index.ts';
import { readFile } from '../lib/files.ts';
import { verifyPassword } from '../lib/passwords.ts';
import { hashToken } from '../lib/tokens.ts';
import { codeAt, matchingStep, openTotpSecret, stepAt } from '../lib/totp.ts';
import { freshDatabase } from '../test/databases.ts';
import { ADMIN_2FA_DEMO_SECRET, ADMIN_DEMO_PASSWORD, DEMO_API_TOKEN, DEMO_PASSWORD } from './data.ts';
import { type DemoSignIn, seedDemo } from './seed.ts';

const TZ = 'America/Mexico_City';
// 05:30 UTC is still the previous day in Mexico City: the week must follow the business date.
const NOW = new Date('2026-03-10T05:30:00Z');

let database: Database;
let signIns: DemoSignIn[];
let seedMs: number;
const encryptionKey = randomBytes(32);

beforeAll(async () => {
  ({ database } = await freshDatabase('pglite'));
  const started = performance.now();
  ({ signIns } = await seedDemo(database.db, { tz: TZ, now: NOW, encryptionKey }));
  seedMs = performance.now() - started;
}, 60_000);

afterAll(async () => {
  await database?.close();
});

async function clientByName(nombre: string) {
  const [row] = await database.db.select().from(clients).where(eq(clients.nombre, nombre));
  if (!row) throw new Error(`no client ${nombre}`);
  return row;
}

describe('seedDemo', () => {
  it('publishes one read-only integration token for every client, stored hashed, for a year (docs/integration.md)', async () => {
    const rows = await database.db.select().from(demoTokens);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      tokenHash: hashToken(DEMO_API_TOKEN),
      idCliente: null,
      permisos: ['pedidos:leer'],
      revocadoEn: null,
    });
    expect(JSON.stringify(rows)).not.toContain(DEMO_API_TOKEN.slice(12));
    expect(rows[0]!.expiraEn.getTime() - NOW.getTime()).toBe(365 * 86_400_000);
  });

  it('is fast enough to run at start', () => {
    expect(seedMs).toBeLessThan(15_000);
  });

  it('creates the administrator and every demo user with the right role and client', async () => {
    const rows = await database.db
      .select({ usuario: users.usuario, rol: users.rol, cliente: clients.nombre, hash: users.passwordHash })
      .from(users)
      .leftJoin(clients, eq(clients.id, users.idCliente));
    const byUser = new Map(rows.map((r) => [r.usuario, r]));
    const expected: [string, number, string | null][] = [
      ['admin', 4, null],
      ['admin2fa', 4, null],
      ['autorizador', 2, 'Demo Industrial'],
      ['superautorizador', 3, 'Demo Industrial'],
      ['usuario', 1, 'Demo Industrial'],
      ['gerente', 5, 'Demo Industrial'],
      ['usuario2', 1, 'Demo Industrial'],
      ['comprador', 1, 'Demo Categorías'],
      ['revisor', 2, 'Demo Categorías'],
    ];
    expect(rows).toHaveLength(expected.length);
    for (const [usuario, rol, cliente] of expected) {
      expect(byUser.get(usuario), usuario).toMatchObject({ rol, cliente });
    }
    expect(signIns.map((s) => [s.usuario, s.rol, s.cliente])).toEqual(expected);

    expect(await verifyPassword(DEMO_PASSWORD, byUser.get('usuario')?.hash)).toBe(true);
    expect(await verifyPassword(DEMO_PASSWORD, byUser.get('comprador')?.hash)).toBe(true);
    expect(await verifyPassword(ADMIN_DEMO_PASSWORD, byUser.get('admin')?.hash)).toBe(true);
    expect(await verifyPassword('otra', byUser.get('usuario')?.hash)).toBe(false);
  });

  it('gives admin2fa two-factor sign-in with the published secret, encrypted with the app key; admin has none', async () => {
    const rows = await database.db
      .select()
      .from(users)
      .where(inArray(users.usuario, ['admin', 'admin2fa']));
    const admin = rows.find((u) => u.usuario === 'admin')!;
    const admin2fa = rows.find((u) => u.usuario === 'admin2fa')!;
    expect(admin.totpSecret).toBeNull();
    expect(admin2fa.totpSecret).toMatch(/^v1\./);
    expect(admin2fa.totpSecret).not.toContain(ADMIN_2FA_DEMO_SECRET);
    expect(admin2fa.totpEnabledAt?.getTime()).toBe(NOW.getTime());
    expect(admin2fa.totpLastStep).toBeNull();
    const secret = openTotpSecret([encryptionKey], admin2fa.id, admin2fa.totpSecret!);
    expect(secret).toBe(ADMIN_2FA_DEMO_SECRET);
    const now = Date.now();
    expect(matchingStep(secret, codeAt(ADMIN_2FA_DEMO_SECRET, stepAt(now)), now, null)).toBe(stepAt(now));
    expect(await verifyPassword(ADMIN_DEMO_PASSWORD, admin2fa.passwordHash)).toBe(true);
  });

  it('leaves passwords current and users complete', async () => {
    const rows = await database.db.select().from(users);
    for (const u of rows) {
      expect(u.passwordTemporary).toBe(false);
      expect(u.passwordChangedAt?.getTime()).toBe(NOW.getTime());
      expect(u.email).toMatch(/^[a-z0-9]+@[a-z0-9.-]+$/);
      if (u.rol !== 4) {
        expect(u.direccionEntrega).not.toBe('');
        expect(u.cp).toMatch(/^\d{5}$/);
      }
    }
    const usuario = rows.find((u) => u.usuario === 'usuario')!;
    expect(usuario).toMatchObject({
      email: 'usuario@demo-industrial.mx',
      presupuestoDefault: 500000,
      limiteDeCompras: 4,
    });
  });

  it('configures both clients as described', async () => {
    const industrial = await clientByName('Demo Industrial');
    expect(industrial).toMatchObject({
      modoPresupuesto: 'regular',
      cantidadAutorizadores: 2,
      presupuestoDefault: 500000,
      limiteDeCompras: 4,
      mostrarPresupuestoAUsuarios: true,
      activo: true,
    });
    const cats = await clientByName('Demo Categorías');
    expect(cats).toMatchObject({
      modoPresupuesto: 'categoria',
      cantidadAutorizadores: 1,
      limiteDeCompras: -1,
    });
    for (const c of [industrial, cats]) {
      expect(c.color).toMatch(/^#[0-9a-f]{6}$/);
      expect(c.color2).toMatch(/^#[0-9a-f]{6}$/);
      expect(c.imagen).toMatch(/^[0-9a-f]{64}\.png$/);
      expect(c.calendario).toMatch(/^[0-9a-f]{64}\.pdf$/);
      expect(c.manual).toMatch(/^[0-9a-f]{64}\.pdf$/);
    }
  });

  it('stores decodable logos and valid PDFs owned by each client', async () => {
    for (const nombre of ['Demo Industrial', 'Demo Categorías']) {
      const c = await clientByName(nombre);
      const logo = await readFile(database.db, c.imagen!);
      expect(logo).toMatchObject({ mime: 'image/png', idCliente: c.id });
      const meta = await sharp(logo!.data).metadata();
      expect(meta.format).toBe('png');

      for (const id of [c.calendario!, c.manual!]) {
        const pdf = await readFile(database.db, id);
        expect(pdf).toMatchObject({ mime: 'application/pdf', idCliente: c.id });
        const text = pdf!.data.toString('latin1');
        expect(text.startsWith('%PDF-')).toBe(true);
        expect(text.trimEnd().endsWith('%%EOF')).toBe(true);
        // Accents are written as WinAnsi bytes (ó = 0xF3), never as UTF-8.
        expect(pdf!.data.includes(Buffer.from('sesi\xf3n', 'latin1'))).toBe(true);
        expect(pdf!.data.includes(Buffer.from('sesión', 'utf8'))).toBe(false);
      }
    }
  });

  it('gives each client at least 4 categories with Tabler icons and 20 products with pictures', async () => {
    for (const nombre of ['Demo Industrial', 'Demo Categorías']) {
      const c = await clientByName(nombre);
      const cats = await database.db.select().from(categories).where(eq(categories.idCliente, c.id));
      expect(cats.length).toBeGreaterThanOrEqual(4);
      for (const cat of cats) expect(cat.icono).toMatch(/^Icon[A-Z][A-Za-z]+$/);

      const prods = await database.db.select().from(products).where(eq(products.idCliente, c.id));
      expect(prods.length).toBeGreaterThanOrEqual(20);
      expect(prods.some((p) => !p.impuesto)).toBe(true);
      expect(prods.some((p) => p.impuesto)).toBe(true);
      expect(prods.some((p) => p.precio % 100 !== 0)).toBe(true);
      expect(new Set(prods.map((p) => p.claveInterna)).size).toBe(prods.length);
      for (const p of prods) {
        expect(cats.some((cat) => cat.id === p.idCategoria)).toBe(true);
        expect(p.claveInterna).toMatch(/^D[IC]-\d{4}$/);
        expect(p.claveCliente).not.toBe('');
        expect(p.imagen).toMatch(/^[0-9a-f]{64}\.png$/);
      }
      // Every picture and its thumbnail are stored, and belong to the client.
      const ids = prods.flatMap((p) => [p.imagen!, `${p.imagen!.slice(0, 64)}_t.jpg`]);
      const [stored] = await database.db
        .select({ n: count() })
        .from(storedFiles)
        .where(and(inArray(storedFiles.id, ids), eq(storedFiles.idCliente, c.id)));
      expect(stored?.n).toBe(ids.length);

      const sample = await readFile(database.db, prods[0]!.imagen!);
      const meta = await sharp(sample!.data).metadata();
      expect([meta.width, meta.height]).toEqual([480, 480]);
      const thumb = await readFile(database.db, `${prods[0]!.imagen!.slice(0, 64)}_t.jpg`);
      const thumbMeta = await sharp(thumb!.data).metadata();
      expect(thumbMeta.format).toBe('jpeg');
      expect(thumbMeta.width).toBeLessThanOrEqual(320);
    }
  });

  it('gives each product its own picture', async () => {
    const rows = await database.db.select({ imagen: products.imagen }).from(products);
    expect(new Set(rows.map((r) => r.imagen)).size).toBe(rows.length);
  });

  it('opens one active access week per client around the business date', async () => {
    const today = businessDate(NOW, TZ);
    expect(today).toBe('2026-03-09');
    const rows = await database.db.select().from(weeks);
    expect(rows).toHaveLength(2);
    for (const w of rows) {
      expect(w).toMatchObject({ inicio: addDays(today, -2), fin: addDays(today, 4), activo: true });
      expect(w.inicio <= today && today <= w.fin).toBe(true);
    }
  });

  it("gives comprador three category budgets in its own client's categories", async () => {
    const rows = await database.db
      .select({ presupuesto: userCategoryBudgets.presupuesto, categoria: categories.nombre })
      .from(userCategoryBudgets)
      .innerJoin(users, eq(users.id, userCategoryBudgets.userId))
      .innerJoin(categories, eq(categories.id, userCategoryBudgets.categoryId))
      .innerJoin(clients, eq(clients.id, categories.idCliente))
      .where(and(eq(users.usuario, 'comprador'), eq(clients.nombre, 'Demo Categorías')));
    expect(rows).toHaveLength(3);
    expect(rows.map((r) => r.presupuesto).sort((a, b) => a - b)).toEqual([80000, 150000, 200000]);
    const [all] = await database.db.select({ n: count() }).from(userCategoryBudgets);
    expect(all?.n).toBe(3);
  });

  it('assigns products of their own client to every rol-1 user only', async () => {
    const buyers = await database.db.select().from(users).where(eq(users.rol, 1));
    expect(buyers.map((u) => u.usuario).sort()).toEqual(['comprador', 'usuario', 'usuario2']);
    for (const u of buyers) {
      const rows = await database.db
        .select({
          asignado: userProducts.asignado,
          limite: userProducts.cantidadLimite,
          cliente: products.idCliente,
        })
        .from(userProducts)
        .innerJoin(products, eq(products.id, userProducts.productId))
        .where(eq(userProducts.userId, u.id));
      expect(rows.length).toBeGreaterThanOrEqual(20);
      for (const r of rows) expect(r.cliente).toBe(u.idCliente);
      const assigned = rows.filter((r) => r.asignado).length;
      expect(assigned).toBeGreaterThan(rows.length / 2);
      expect(assigned).toBeLessThan(rows.length);
      expect(new Set(rows.map((r) => r.limite))).toEqual(new Set([1, 2, 3, 5, 10]));
    }
    const [others] = await database.db
      .select({ n: count() })
      .from(userProducts)
      .innerJoin(users, eq(users.id, userProducts.userId))
      .where(inArray(users.rol, [2, 3, 4]));
    expect(others?.n).toBe(0);
  });

  it('creates no orders', async () => {
    const [row] = await database.db.select({ n: count() }).from(orders);
    expect(row?.n).toBe(0);
    const [imported] = await database.db
      .select({ n: count() })
      .from(storedFiles)
      .where(and(eq(storedFiles.kind, 'importacion'), isNotNull(storedFiles.id)));
    expect(imported?.n).toBe(0);
  });
});
