import { CLIENT_PERMISSIONS } from '@portal/shared/domain/client-admin';
import { ROLES } from '@portal/shared/domain/roles';
import { MAX_ID } from '@portal/shared/limits';
import { eq } from 'drizzle-orm';
import type { LightMyRequestResponse, RouteOptions } from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import { clients, importJobs, savedListItems, savedLists } from '../db/schema/index.ts';
import { IMAGE_MAX_BYTES, PDF_MAX_BYTES, storeFile } from '../lib/files.ts';
import { MSG } from '../messages.ts';
import { templateCsv } from '../modules/imports/imports.service.ts';
import {
  assign,
  makeCategory,
  makeClient,
  makeOrder,
  makeProduct,
  makeUser,
  makeWeek,
  TEST_PASSWORD,
} from '../test/factories.ts';
import { fixture } from '../test/fixture-files.ts';
import { ApiClient, createTestApp, type DbKind, type TestApp, type TestAppOptions } from '../test/harness.ts';
import { enrolTwoFactor } from '../test/two-factor.ts';

/**
 * Who calls: nobody signed in, the roles of client A, an administrator, and a buyer, an authorizer and a
 * client administrator of client B (another tenant), whose calls on A's ids must answer like calls on ids
 * that do not exist. The client administrators (rol 5, decision 0122) are enrolled in two-factor sign-in
 * (it is mandatory for them) and their clients allow them every change.
 */
export const ACTORS = ['anon', 'u1', 'u1b', 'u2', 'u3', 'adm', 'u2b', 'u5', 'u5b'] as const;
export type Actor = (typeof ACTORS)[number];

export const ACTOR_LABEL: Record<Actor, string> = {
  anon: 'anónimo',
  u1: 'rol 1',
  u1b: 'rol 1 de otro cliente',
  u2: 'rol 2',
  u3: 'rol 3',
  adm: 'rol 4',
  u2b: 'rol 2 de otro cliente',
  u5: 'rol 5',
  u5b: 'rol 5 de otro cliente',
};

/** An id no row has (the largest id the API accepts). */
export const MISSING_ID = MAX_ID;

export type RouteKey = `${string} ${string}`;

/** Every method and path the app serves, from its onRoute hook (HEAD twins of GET routes included). */
export function routeCollector() {
  const keys = new Set<RouteKey>();
  const routes: RouteOptions[] = [];
  return {
    keys,
    routes,
    onRoute(route: RouteOptions) {
      routes.push(route);
      for (const method of [route.method].flat()) keys.add(`${method} ${route.url}`);
    },
  };
}

/** Two tenants (A and B) with real rows of every kind, a spare client C, and a signed-in client per actor. */
export async function buildWorld(kind: DbKind, options: TestAppOptions = {}) {
  const collected = routeCollector();
  // A live-updates stream (GET /api/eventos) ends after a tenth of a second: the suite calls it in-process.
  const t: TestApp = await createTestApp(kind, {
    ...options,
    env: { EVENTS_MAX_SECONDS: '0.1', ...options.env },
    onRoute: collected.onRoute,
  });
  const db = t.database.db;

  const logo = await storeFile(db, {
    data: fixture('sky-64x48.png'),
    kind: 'imagen',
    idCliente: null,
    allowed: ['image'],
    maxBytes: IMAGE_MAX_BYTES,
  });
  const calendario = await storeFile(db, {
    data: fixture('calendario.pdf'),
    kind: 'documento',
    idCliente: null,
    allowed: ['pdf'],
    maxBytes: PDF_MAX_BYTES,
  });

  const clientA = await makeClient(db, {
    nombre: 'Cliente A',
    cantidadAutorizadores: 2,
    limiteDeCompras: -1,
    permisosCliente: [...CLIENT_PERMISSIONS],
  });
  await db.update(clients).set({ imagen: logo, calendario }).where(eq(clients.id, clientA.id));
  const clientB = await makeClient(db, {
    nombre: 'Cliente B',
    cantidadAutorizadores: 2,
    limiteDeCompras: -1,
    permisosCliente: [...CLIENT_PERMISSIONS],
  });
  await db.update(clients).set({ calendario }).where(eq(clients.id, clientB.id));
  const clientC = await makeClient(db, { nombre: 'Cliente C', cantidadAutorizadores: 1 });

  const catA = await makeCategory(db, clientA.id, 'Papelería A');
  const catB = await makeCategory(db, clientB.id, 'Papelería B');
  const prodA = await makeProduct(db, { idCliente: clientA.id, idCategoria: catA.id, precio: 10_000 });
  const prodA2 = await makeProduct(db, { idCliente: clientA.id, idCategoria: catA.id, precio: 20_000 });
  const prodB = await makeProduct(db, { idCliente: clientB.id, idCategoria: catB.id, precio: 10_000 });

  // Roles 1 and 2 of each client also receive the client's shipments (decision 0130); rol 3 does not.
  const u1 = await makeUser(db, { rol: 1, idCliente: clientA.id, nombre: 'Comprador A', receptor: true });
  const u2 = await makeUser(db, { rol: 2, idCliente: clientA.id, nombre: 'Autorizador A', receptor: true });
  const u3 = await makeUser(db, { rol: 3, idCliente: clientA.id, nombre: 'Superautorizador A' });
  const adm = await makeUser(db, { rol: 4, idCliente: null, nombre: 'Administradora' });
  const u1b = await makeUser(db, { rol: 1, idCliente: clientB.id, nombre: 'Comprador B', receptor: true });
  const u2b = await makeUser(db, { rol: 2, idCliente: clientB.id, nombre: 'Autorizador B', receptor: true });
  const u5 = await makeUser(db, { rol: 5, idCliente: clientA.id, nombre: 'Administradora de cliente A' });
  const u5b = await makeUser(db, { rol: 5, idCliente: clientB.id, nombre: 'Administrador de cliente B' });
  /** Targets of administrator actions (never an actor, so the actors stay signed in). */
  const spareA = await makeUser(db, { rol: 1, idCliente: clientA.id, nombre: 'Repuesto A' });
  const resetTarget = await makeUser(db, { rol: 1, idCliente: clientA.id, nombre: 'Restablecer A' });
  /** Whose budget client A's administrator asks the distributor for (the queue's decisions). */
  const budgetTarget = await makeUser(db, { rol: 1, idCliente: clientA.id, nombre: 'Presupuesto A' });
  /** Whose second factor the administrator resets (a spare client's authorizer). */
  const twoFactorTarget = await makeUser(db, { rol: 2, idCliente: clientC.id, nombre: 'Dos pasos C' });
  await assign(db, u1.id, prodA.id, 5);
  await assign(db, u1b.id, prodB.id, 5);
  await assign(db, spareA.id, prodA.id, 5);

  const line = (p: typeof prodA) => ({
    productId: p.id,
    precio: p.precio,
    cantidad: 1,
    idCategoria: p.idCategoria,
  });
  const order = (status: 'pendiente' | 'espera' | 'aprobado') =>
    makeOrder(db, { idUser: u1.id, idCliente: clientA.id, status, lines: [line(prodA)] });
  const orders = {
    /** Read by the buyer and the authorizers. */
    view: await order('pendiente'),
    approveByRol2: await order('pendiente'),
    approveByRol3: await order('espera'),
    cancelByRol2: await order('pendiente'),
    cancelByRol3: await order('espera'),
    /** Withdrawn by its buyer. */
    withdraw: await order('pendiente'),
    /** Approved: its purchase-order PDF is downloaded by the buyer and the authorizers. */
    approved: await order('aprobado'),
    ofB: await makeOrder(db, { idUser: u1b.id, idCliente: clientB.id, lines: [line(prodB)] }),
  };

  /** Saved lists of the buyer of client A: one to read, edit and add to the cart, one to delete. */
  const list = async (nombre: string) => {
    const [row] = await db
      .insert(savedLists)
      .values({ userId: u1.id, nombre, nombreClave: nombre.toLowerCase() })
      .returning();
    await db
      .insert(savedListItems)
      .values({ listId: row!.id, productId: prodA.id, cantidad: 1, posicion: 0 });
    return row!;
  };
  const lists = { view: await list('Lista de la matriz'), destroy: await list('Lista para eliminar') };

  const weekToggle = await makeWeek(db, { idCliente: clientC.id, inicio: '2030-01-07', fin: '2030-01-11' });
  const weekDestroy = await makeWeek(db, { idCliente: clientC.id, inicio: '2030-02-04', fin: '2030-02-08' });
  const [importJob] = await db
    .insert(importJobs)
    .values({
      idCliente: clientA.id,
      tipo: 'usuarios',
      status: 'terminado',
      fileName: 'usuarios.csv',
      createdBy: adm.id,
      totalRows: 1,
      errorRows: 1,
      errors: [{ fila: 2, campo: 'nombre', motivo: 'El nombre es obligatorio.' }],
    })
    .returning();
  const productTemplate = (await templateCsv(t.app, 'productos', clientA.id)).body;
  const userTemplate = (await templateCsv(t.app, 'usuarios', clientA.id)).body;
  const assignmentTemplate = (await templateCsv(t.app, 'asignaciones', clientA.id)).body;

  const ips: Record<Actor, string> = {
    anon: '10.20.0.1',
    u1: '10.20.0.2',
    u1b: '10.20.0.3',
    u2: '10.20.0.4',
    u3: '10.20.0.5',
    adm: '10.20.0.6',
    u2b: '10.20.0.7',
    u5: '10.20.0.8',
    u5b: '10.20.0.9',
  };
  const users = { u1, u1b, u2, u3, adm, u2b, u5, u5b };
  const api = {} as Record<Actor, ApiClient>;
  api.anon = new ApiClient(t.app, ips.anon);
  await api.anon.csrf();
  for (const actor of ACTORS) {
    if (actor === 'anon') continue;
    api[actor] = await new ApiClient(t.app, ips[actor]).loginOk(users[actor].usuario, TEST_PASSWORD);
    if (users[actor].rol === ROLES.administradorCliente) await enrolTwoFactor(api[actor]);
  }

  return {
    t,
    db,
    /** The app's route table, as its onRoute hook saw it. */
    routes: collected,
    api,
    users,
    files: { logo, calendario },
    a: { client: clientA, cat: catA, prod: prodA, prod2: prodA2, spare: spareA, resetTarget, budgetTarget },
    b: { client: clientB, cat: catB, prod: prodB },
    c: { client: clientC, weekToggle, weekDestroy, twoFactorTarget },
    orders,
    lists,
    importJob: importJob!,
    templates: { productos: productTemplate, usuarios: userTemplate, asignaciones: assignmentTemplate },
  };
}

export type World = Awaited<ReturnType<typeof buildWorld>>;

/** The world of one test file: built before its tests, closed after them; usable inside the tests. */
export function useWorld(kind: DbKind, options: TestAppOptions = {}): World {
  let built: World | undefined;
  beforeAll(async () => {
    built = await buildWorld(kind, options);
  });
  afterAll(async () => built?.t.close());
  return new Proxy({} as World, {
    get: (_target, prop) => {
      if (!built) throw new Error('el mundo de prueba aún no existe');
      return built[prop as keyof World];
    },
  });
}

/** Product texts are Spanish: a message is Spanish when it reads like it and not like English. */
const SPANISH =
  /[áéíóúñ¿¡]|\b(el|la|los|las|de|del|no|es|un|una|se|por|para|con|debe|datos|campo|solo|sesi[oó]n|archivo|usuario|contrase[ñn]a|valor|texto|entrada|hasta|caracteres|m[aá]s|menos)\b/i;
const ENGLISH =
  /\b(the|is|are|must|should|expected|received|invalid|required|error|not found|unexpected|body|token)\b/i;
/** The catalogue's texts, and the product's one English text kept word for word. */
const CATALOGUE = new Set<string>([
  ...(Object.values(MSG) as unknown[]).filter((v): v is string => typeof v === 'string'),
  'Only JPG and PNG files are allowed.',
]);

export function isSpanishMessage(msg: unknown): boolean {
  if (typeof msg !== 'string' || msg.trim() === '') return false;
  if (CATALOGUE.has(msg)) return true;
  return SPANISH.test(msg) && !ENGLISH.test(msg);
}

/** A 4xx answer the product way: JSON with a stable code and a Spanish message. */
export function describeRefusal(res: LightMyRequestResponse): string | null {
  if (res.statusCode < 400 || res.statusCode >= 500) return `estado ${res.statusCode}`;
  let body: { code?: unknown; msg?: unknown; schemas?: unknown; detail?: unknown };
  try {
    body = res.json();
  } catch {
    return `cuerpo no JSON: ${res.body.slice(0, 120)}`;
  }
  // SCIM's own error message (RFC 7644 §3.12, decision 0121): the status and a Spanish detail.
  if (Array.isArray(body.schemas) && body.schemas.includes('urn:ietf:params:scim:api:messages:2.0:Error'))
    return isSpanishMessage(body.detail) ? null : `detalle no español: ${JSON.stringify(body.detail)}`;
  if (typeof body.code !== 'string') return `sin code: ${res.body.slice(0, 120)}`;
  if (!isSpanishMessage(body.msg)) return `mensaje no español: ${JSON.stringify(body.msg)}`;
  return null;
}
