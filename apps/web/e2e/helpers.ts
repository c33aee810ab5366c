/**
 * What the specs share besides their fixtures (fixtures.ts): the committed test files they upload, the
 * suffix of a run's own names, the setup a spec does not test — signed in through the API, mostly as the
 * administrator, creating clients, products, accounts and orders the way the web app's calls do — and the
 * gestures on screens and widgets several specs repeat.
 */
import { randomInt } from 'node:crypto';
import { closeSync, openSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { type APIRequestContext, type Browser, type Locator, type Page, request } from '@playwright/test';
import { sealLogin } from '@portal/shared/domain/login-envelope';
import { ADMIN_PASSWORD, checkA11y, expect, expectHome, signIn, test } from './fixtures';
import { waitForMail } from './mailbox';
import { e2eBaseUrl, SUFFIX_CLAIMS } from './ports';

// ---------------------------------------------------------------------------------------------------------
// Files

/** The server tests' folder of committed files (its README says what each one is). */
const TEST_FILES = path.resolve(import.meta.dirname, '../../server/src/test/fixtures');

export type TestFile =
  | 'logo-200x80.png'
  | 'logo-violet-orange-200x80.png'
  | 'gradient-120.png'
  | 'gradient-8.png'
  | 'calendario.pdf'
  | 'manual.pdf'
  | 'one-pixel.gif';

/** The bytes of a committed test file. */
export function testFile(name: TestFile): Buffer {
  return readFileSync(path.join(TEST_FILES, name));
}

// ---------------------------------------------------------------------------------------------------------
// Names of a run

const suffixes = new Map<string, string>();

/**
 * True when this worker now owns `suffix` for the run: its file in SUFFIX_CLAIMS is created only if it does
 * not exist yet (an atomic create), so no two attempts of a run draw the same suffix — not two workers (each
 * with its own memory), nor a worker restarted after a failure.
 */
function claim(suffix: string): boolean {
  try {
    closeSync(openSync(path.join(SUFFIX_CLAIMS, suffix), 'wx'));
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

/**
 * Four digits that tell this attempt of this spec file from every other one against the same server: a
 * new number for each file, each --repeat-each copy and each retry (CI), the same for all the tests of
 * one attempt, never one another worker of the run drew. The data a spec creates carries it ("Ferretera
 * del Norte 4821"), so a retry or a second worker never meets data it did not create. Only inside a test or
 * a hook.
 */
export function runSuffix(): string {
  const { file, repeatEachIndex, retry } = test.info();
  const key = `${file}:${repeatEachIndex}:${retry}`;
  let suffix = suffixes.get(key);
  if (!suffix) {
    do suffix = String(randomInt(1000, 10_000));
    while (!claim(suffix));
    suffixes.set(key, suffix);
  }
  return suffix;
}

// ---------------------------------------------------------------------------------------------------------
// Session and API

export async function signInAdmin(page: Page): Promise<void> {
  await signIn(page, 'admin', ADMIN_PASSWORD);
  await expectHome(page, 4);
}

/**
 * Signs the page's browser context in as the administrator through the API (`apiSignIn`), for a spec whose
 * next step opens an admin screen by its address: the sign-in form and the admin home keep their own specs.
 */
export async function signInAdminApi(page: Page): Promise<void> {
  await apiSignIn(page.request, 'admin', ADMIN_PASSWORD);
}

/** The XSRF token of the cookies an API context holds. */
async function xsrfOf(api: APIRequestContext): Promise<string> {
  const cookie = (await api.storageState()).cookies.find((c) => c.name === 'XSRF-TOKEN');
  if (!cookie) throw new Error('Sin cookie XSRF-TOKEN');
  return decodeURIComponent(cookie.value);
}

/**
 * Signs in through the API as the web app does (the sealed envelope of the sign-in form), into the cookies
 * of `api` — a page's `request` shares them with its browser context. For a spec's setup: the sign-in
 * screen has its own specs, and loading the app only to sign in was a good part of the suite's work.
 */
export async function apiSignIn(api: APIRequestContext, usuario: string, password: string): Promise<void> {
  expect((await api.get('/sanctum/csrf-cookie')).status()).toBe(204);
  const token = await xsrfOf(api);
  const login = await api.post('/api/login', {
    data: sealLogin({ usuario, password }, token),
    headers: { 'X-XSRF-TOKEN': token },
  });
  expect(login.status(), `inicio de sesión de ${usuario}: ${await login.text()}`).toBe(200);
}

/**
 * A browser context of its own for `usuario`, signed in through the API, with the suite's settings, and the
 * page's errors (4xx answers aside) as they happen.
 */
export async function ownBrowserPage(
  browser: Browser,
  usuario: string,
  password: string,
): Promise<{ page: Page; errors: string[] }> {
  const context = await browser.newContext({
    baseURL: e2eBaseUrl(),
    locale: 'es-MX',
    timezoneId: 'America/Mexico_City',
    viewport: { width: 1366, height: 860 },
    reducedMotion: 'reduce',
    serviceWorkers: 'block',
  });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (msg) => {
    if (msg.type() === 'error' && !/status of 4\d\d/.test(msg.text())) errors.push(msg.text());
  });
  await apiSignIn(page.request, usuario, password);
  return { page, errors };
}

/**
 * Runs `work` as `usuario` in a browser context of its own (the test's page keeps its session), signed in
 * through the API: the page starts blank, and opens the app where `work` goes.
 */
export async function asUser<T>(
  browser: Browser,
  usuario: string,
  password: string,
  work: (page: Page) => Promise<T>,
): Promise<T> {
  const context = await browser.newContext({
    baseURL: e2eBaseUrl(),
    locale: 'es-MX',
    timezoneId: 'America/Mexico_City',
  });
  try {
    const page = await context.newPage();
    await apiSignIn(page.request, usuario, password);
    return await work(page);
  } finally {
    await context.close();
  }
}

/** Runs `work` as the administrator in a browser context of its own (asUser). */
export async function asAdmin<T>(browser: Browser, work: (page: Page) => Promise<T>): Promise<T> {
  return asUser(browser, 'admin', ADMIN_PASSWORD, work);
}

/** The headers lib/api sends on a state-changing call: the XSRF cookie's value. */
export async function xsrfHeaders(page: Page): Promise<Record<string, string>> {
  await page.request.get('/sanctum/csrf-cookie');
  const cookie = (await page.context().cookies()).find((c) => c.name === 'XSRF-TOKEN');
  if (!cookie) throw new Error('Sin cookie XSRF-TOKEN');
  return { 'X-XSRF-TOKEN': decodeURIComponent(cookie.value), Accept: 'application/json' };
}

export async function apiPost<T>(page: Page, path: string, data: unknown): Promise<T> {
  const res = await page.request.post(path, { headers: await xsrfHeaders(page), data });
  expect(res.ok(), `${path}: ${await res.text()}`).toBe(true);
  return (await res.json()) as T;
}

/** A file of a multipart form. */
export interface FilePart {
  name: string;
  mimeType: string;
  buffer: Buffer;
}

/** A committed PNG, or a file of any kind. */
export type Upload = TestFile | FilePart;

function filePart(file: Upload): FilePart {
  if (typeof file !== 'string') return file;
  const mimeType = file.endsWith('.pdf')
    ? 'application/pdf'
    : file.endsWith('.gif')
      ? 'image/gif'
      : 'image/png';
  return { name: file, mimeType, buffer: testFile(file) };
}

/** The bytes the server serves at a path (an image, a document) as a file to upload again. */
export async function download(page: Page, url: string, name: string): Promise<FilePart> {
  const res = await page.request.get(url);
  expect(res.ok(), url).toBe(true);
  return {
    name,
    mimeType: res.headers()['content-type'] ?? 'application/octet-stream',
    buffer: await res.body(),
  };
}

/** POST of a multipart form (clients and products take files); the answer's JSON. */
export async function apiPostForm<T>(
  page: Page,
  path: string,
  multipart: Record<string, string | FilePart>,
): Promise<T> {
  const res = await page.request.post(path, { headers: await xsrfHeaders(page), multipart });
  expect(res.ok(), `${path}: ${await res.text()}`).toBe(true);
  return (await res.json()) as T;
}

export interface NewClient {
  nombre: string;
  presupuesto_default: number;
  limite_de_compras: number;
  modo_presupuesto?: 'regular' | 'categoria';
  /** 0: every purchase is approved at once. */
  cantidad_autorizadores?: 0 | 1 | 2;
  /** The logo (JPG/PNG), the two brand colours (#rrggbb) and the documents (PDF). */
  logo?: Upload;
  color?: string;
  color2?: string;
  calendario?: Upload;
  manual?: Upload;
  mostrar_presupuesto_a_usuarios?: boolean;
  /** The cantidad_limite of a new assignment made without one (default 1). */
  limite_por_defecto?: number;
  /** What its client administrators may change ('usuarios,presupuestos'; default 'usuarios'). */
  permisos_cliente?: string;
  /** A client administrator's budget above this (pesos) waits for the distributor; default none. */
  tope_presupuesto?: number;
  /** Credit terms (decision 0134): the limit in pesos, the days to pay and what an order over it does. */
  limite_credito?: number;
  dias_credito?: number;
  politica_credito?: 'avisar' | 'retener';
}

/** A client of the spec's own, created by the signed-in administrator; returns its id. */
export async function createClient(page: Page, client: NewClient): Promise<number> {
  const multipart: Record<string, string | FilePart> = {
    nombre: client.nombre,
    presupuesto_default: String(client.presupuesto_default),
    limite_de_compras: String(client.limite_de_compras),
    modo_presupuesto: client.modo_presupuesto ?? 'regular',
    cantidad_autorizadores: String(client.cantidad_autorizadores ?? 1),
  };
  if (client.logo) multipart.imagen = filePart(client.logo);
  if (client.color) multipart.color = client.color;
  if (client.color2) multipart.color2 = client.color2;
  if (client.calendario) multipart.calendario = filePart(client.calendario);
  if (client.manual) multipart.manual = filePart(client.manual);
  if (client.limite_por_defecto !== undefined)
    multipart.limite_por_defecto = String(client.limite_por_defecto);
  if (client.permisos_cliente !== undefined) multipart.permisos_cliente = client.permisos_cliente;
  if (client.tope_presupuesto !== undefined) multipart.tope_presupuesto = String(client.tope_presupuesto);
  if (client.limite_credito !== undefined) multipart.limite_credito = String(client.limite_credito);
  if (client.dias_credito !== undefined) multipart.dias_credito = String(client.dias_credito);
  if (client.politica_credito !== undefined) multipart.politica_credito = client.politica_credito;
  if (client.mostrar_presupuesto_a_usuarios !== undefined) {
    multipart.mostrar_presupuesto_a_usuarios = client.mostrar_presupuesto_a_usuarios ? '1' : '0';
  }
  const { cliente } = await apiPostForm<{ cliente: { id: number } }>(page, '/api/clientes', multipart);
  return cliente.id;
}

const ownClients = new Map<string, number>();

/** The client a spec works in, created the first time a test asks for it (by its name: one per attempt). */
export async function ownClient(page: Page, client: NewClient): Promise<number> {
  let id = ownClients.get(client.nombre);
  if (!id) {
    id = await createClient(page, client);
    ownClients.set(client.nombre, id);
  }
  return id;
}

/** A category of a client; returns its id. */
export async function createCategory(page: Page, idCliente: number, nombre: string, icono: string) {
  const { categoria } = await apiPost<{ categoria: { id: number } }>(page, '/api/categorias', {
    nombre,
    icono,
    id_cliente: idCliente,
  });
  return categoria.id;
}

export interface NewProduct {
  id_cliente: number;
  id_categoria: number;
  clave_interna: string;
  nombre: string;
  precio: number;
  /** IVA applies (default yes). */
  impuesto?: boolean;
  descripcion?: string;
  unidad_de_medida?: string;
  clave_cliente?: string;
  imagen?: Upload;
  /** Units on hand and lead time in days (decision 0124); left out: unknown / none. */
  existencia?: number;
  dias_entrega?: number;
}

/** A product of a client (with an image of the committed files when given); returns its id. */
export async function createProduct(page: Page, product: NewProduct): Promise<number> {
  const { imagen, impuesto, ...fields } = product;
  const multipart: Record<string, string | FilePart> = {
    activo: '1',
    impuesto: impuesto === false ? '0' : '1',
  };
  for (const [key, value] of Object.entries(fields)) multipart[key] = String(value);
  if (imagen) multipart.imagen = filePart(imagen);
  const { articulo } = await apiPostForm<{ articulo: { id: number } }>(page, '/api/productos', multipart);
  return articulo.id;
}

export interface NewUser {
  id_cliente: number;
  usuario: string;
  /** The e-mail address (the wire's `user_id`). */
  correo: string;
  nombre: string;
  /** 5: a client administrator (decision 0122). */
  rol: 1 | 2 | 3 | 5;
  direccion_entrega?: string;
  presupuesto_default?: number;
  limite_de_compras?: number;
  categorias?: { id: number; presupuesto: number }[];
  active_week?: number;
  entrega_week?: number;
  calle?: string;
  colonia?: string;
  ciudad?: string;
  cp?: string;
  estado?: string;
  area?: string;
  /** The área (cost centre, decision 0123) whose budget the user buys under. */
  id_area?: number;
}

/** A user of a client, created by the signed-in administrator (the portal e-mails a welcome link). */
export async function createUser(page: Page, user: NewUser): Promise<number> {
  const { correo, categorias, ...fields } = user;
  const { usuario } = await apiPost<{ usuario: { id: number } }>(page, '/api/usuarios', {
    direccion_entrega: 'Av. Constitución 120, Monterrey',
    active_week: 1,
    entrega_week: 1,
    ...fields,
    user_id: correo,
    ...(categorias ? { categorias: JSON.stringify(categorias) } : {}),
  });
  return usuario.id;
}

/**
 * A user who has chosen a password; returns its id. The way an administrator's reset goes: the portal
 * e-mails a temporary password, the user signs in with it and changes it before anything else — here
 * through the API (the sealed sign-in envelope, then the forced change), with no browser: the screens of
 * that journey have their own spec (passwords.spec.ts), and a browser context per account was a good part
 * of the suite's setup. (The welcome link would do as well, but setting a password with a link is limited
 * to 10 calls per address in 15 minutes, and every spec of the run calls from the same address.)
 */
export async function createAccount(admin: Page, user: NewUser, password: string): Promise<number> {
  const id = await createUser(admin, user);
  await apiPost(admin, `/api/recuperar/password/${id}`, {});
  const mail = await waitForMail(
    (m) => m.to.includes(user.correo) && m.subject.includes('contraseña temporal'),
  );
  const temporary = mail.text.match(/Contraseña temporal: (\S+)/)?.[1];
  if (!temporary) throw new Error(`Sin contraseña temporal para ${user.usuario}`);
  const api = await request.newContext({ baseURL: e2eBaseUrl() });
  try {
    await apiSignIn(api, user.usuario, temporary);
    const changed = await api.post('/api/repassword', {
      data: { password: temporary, newPass: password, confirmPass: password },
      headers: { 'X-XSRF-TOKEN': await xsrfOf(api) },
    });
    expect(changed.status(), await changed.text()).toBe(200);
  } finally {
    await api.dispose();
  }
  return id;
}

/** A person of a world: the account's name, e-mail address and full name. */
export interface WorldPerson {
  usuario: string;
  correo: string;
  nombre: string;
}

/** What `reviewWorld` creates: names and amounts of this attempt's own (a `runSuffix()` in each name). */
export interface ReviewWorldSpec {
  cliente: string;
  /** Approval levels of the client (cantidad_autorizadores). */
  niveles: 0 | 1 | 2;
  /** The client's and the buyer's monthly budget, pesos. */
  presupuesto: number;
  categoria: { nombre: string; icono: string };
  /** The product; its unit is «Pieza» unless given, its stock unknown unless given. */
  producto: {
    clave_interna: string;
    nombre: string;
    precio: number;
    unidad_de_medida?: string;
    existencia?: number;
  };
  comprador: WorldPerson;
  /** A rol-2 authorizer; none when left out. */
  autorizador?: WorldPerson;
  /** A client administrator (rol 5, decision 0122); none when left out. */
  administrador?: WorldPerson;
  password: string;
  /** The buyer's quantity limit on each product. */
  cantidadLimite: number;
  /** The client's RFC (its fiscal data): the receptor its CFDI invoices must name (decision 0131). */
  rfc?: string;
  /** The client's credit terms (decision 0134). */
  credito?: { limite: number; dias: number; politica: 'avisar' | 'retener' };
}

/**
 * The world most order-review, invoice and credit specs start from, through the administrator's API: a
 * client with no purchase limit and an open access week (with its RFC and credit terms when given), one
 * category with one product, a buyer with every product assigned, and the rol-2 authorizer and the client
 * administrator asked for, all with `password` chosen.
 */
export async function reviewWorld(
  browser: Browser,
  w: ReviewWorldSpec,
): Promise<{ idCliente: number; producto: number; idComprador: number; idAutorizador?: number }> {
  return asAdmin(browser, async (admin) => {
    const idCliente = await createClient(admin, {
      nombre: w.cliente,
      presupuesto_default: w.presupuesto,
      limite_de_compras: -1,
      cantidad_autorizadores: w.niveles,
      ...(w.credito && {
        limite_credito: w.credito.limite,
        dias_credito: w.credito.dias,
        politica_credito: w.credito.politica,
      }),
    });
    if (w.rfc) {
      const fiscal = await admin.request.put(`/api/clientes/${idCliente}/datos-fiscales`, {
        headers: await xsrfHeaders(admin),
        data: { rfc: w.rfc },
      });
      expect(fiscal.ok(), await fiscal.text()).toBe(true);
    }
    await openAccessWeek(admin, idCliente);
    const categoria = await createCategory(admin, idCliente, w.categoria.nombre, w.categoria.icono);
    const producto = await createProduct(admin, {
      id_cliente: idCliente,
      id_categoria: categoria,
      unidad_de_medida: 'Pieza',
      ...w.producto,
    });
    const idComprador = await createAccount(
      admin,
      { id_cliente: idCliente, ...w.comprador, rol: 1, presupuesto_default: w.presupuesto },
      w.password,
    );
    await assignAll(admin, idComprador, w.cantidadLimite);
    const idAutorizador = w.autorizador
      ? await createAccount(admin, { id_cliente: idCliente, ...w.autorizador, rol: 2 }, w.password)
      : undefined;
    if (w.administrador) {
      await createAccount(admin, { id_cliente: idCliente, ...w.administrador, rol: 5 }, w.password);
    }
    return { idCliente, producto, idComprador, idAutorizador };
  });
}

/** A buyer's order of one product through its API (the cart and purchase screens have their own specs). */
export async function placeOrder(
  buyer: Page,
  producto: number,
  cantidad: number,
): Promise<{ id: number; status: string }> {
  const item = { id: producto, cantidad };
  await apiPost(buyer, '/api/carrito/nuevo_item', { item });
  const { pedido } = await apiPost<{ pedido: { id: number; status: string } }>(buyer, '/api/compra', {
    orden: [item],
    fecha: businessToday(),
  });
  return pedido;
}

/**
 * The operator registers a stamped CFDI (its XML) for an order, as the upload on the order's page does
 * (decision 0131).
 */
export async function uploadCfdi(admin: Page, idPedido: number, name: string, xml: string): Promise<void> {
  await apiPostForm(admin, `/api/surtido/${idPedido}/facturas`, {
    xml: { name, mimeType: 'application/xml', buffer: Buffer.from(xml) },
  });
}

/** Enables every product of the user's client for a rol-1 user (quantity limit 1 unless given). */
export async function assignAll(page: Page, idUser: number, cantidadLimite?: number): Promise<void> {
  await apiPost(page, '/api/productos/asignar_todos', {
    id_user: idUser,
    status: 1,
    ...(cantidadLimite ? { cantidad_limite: cantidadLimite } : {}),
  });
}

/** Enables a product for a rol-1 user with its quantity limit. */
export async function assignProduct(page: Page, idUser: number, idProducto: number, cantidadLimite: number) {
  await apiPost(page, '/api/productos/asignar', {
    id_producto: idProducto,
    id_user: idUser,
    status: 1,
    cantidad_limite: cantidadLimite,
  });
}

interface DemoClient {
  id: number;
  nombre: string;
  imagen: string | null;
  color: string;
  color2: string;
  calendario: string | null;
  manual: string | null;
  presupuesto_default: number;
  cantidad_autorizadores: number;
  limite_de_compras: number;
  modo_presupuesto: 'regular' | 'categoria';
  mostrar_presupuesto_a_usuarios: boolean;
}

interface DemoUser {
  id: number;
  usuario: string;
  nombre: string;
  direccion_entrega: string;
  calle: string;
  colonia: string;
  ciudad: string;
  cp: string;
  estado: string;
  area: string;
  active_week: number;
  entrega_week: number;
  limite_de_compras: number;
  presupuesto_default: number;
  categorias: string;
}

interface DemoProduct {
  id_categoria: number;
  clave_interna: string;
  clave_cliente: string;
  nombre: string;
  descripcion: string;
  unidad_de_medida: string;
  precio: number;
  activo: boolean;
  impuesto: boolean;
  imagen: string | null;
  asignado: boolean;
  cantidad_limite: number;
}

async function getJson<T>(page: Page, url: string): Promise<T> {
  const res = await page.request.get(url);
  expect(res.ok(), url).toBe(true);
  return (await res.json()) as T;
}

/**
 * A buyer of the spec's own that sees what a demo buyer sees, without touching the demo account: a new
 * client with the demo client's settings, logo, colours and documents, its categories, the products the
 * demo buyer may order (same names, keys, prices, images and quantity limits), and a buyer with the demo
 * buyer's name, address and budgets who has chosen `password`. The demo buyer's past orders stay behind.
 */
export async function copyDemoBuyer(
  admin: Page,
  demo: { cliente: string; usuario: string },
  copy: { cliente: string; usuario: string; correo: string; password: string },
): Promise<void> {
  const { clientes } = await getJson<{ clientes: DemoClient[] }>(
    admin,
    `/api/clientes?q=${encodeURIComponent(demo.cliente)}`,
  );
  const client = clientes.find((c) => c.nombre === demo.cliente);
  if (!client) throw new Error(`No existe el cliente ${demo.cliente}`);
  const idCliente = await createClient(admin, {
    nombre: copy.cliente,
    presupuesto_default: client.presupuesto_default,
    limite_de_compras: client.limite_de_compras,
    modo_presupuesto: client.modo_presupuesto,
    cantidad_autorizadores: client.cantidad_autorizadores === 2 ? 2 : 1,
    color: client.color,
    color2: client.color2,
    mostrar_presupuesto_a_usuarios: client.mostrar_presupuesto_a_usuarios,
    logo: client.imagen ? await download(admin, client.imagen, 'logo.png') : undefined,
    calendario: client.calendario ? await download(admin, client.calendario, 'calendario.pdf') : undefined,
    manual: client.manual ? await download(admin, client.manual, 'manual.pdf') : undefined,
  });

  const { categorias } = await getJson<{ categorias: { id: number; nombre: string; icono: string }[] }>(
    admin,
    `/api/categorias?id_cliente=${client.id}`,
  );
  const category = new Map<number, number>();
  for (const c of categorias) category.set(c.id, await createCategory(admin, idCliente, c.nombre, c.icono));

  const { usuarios } = await getJson<{ usuarios: DemoUser[] }>(
    admin,
    `/api/usuarios?id_cliente=${client.id}&q=${encodeURIComponent(demo.usuario)}`,
  );
  const user = usuarios.find((u) => u.usuario === demo.usuario);
  if (!user) throw new Error(`No existe el usuario ${demo.usuario}`);
  const budgets = JSON.parse(user.categorias || '[]') as { id: number; presupuesto: number }[];
  const idUser = await createAccount(
    admin,
    {
      id_cliente: idCliente,
      usuario: copy.usuario,
      correo: copy.correo,
      nombre: user.nombre,
      rol: 1,
      direccion_entrega: user.direccion_entrega,
      calle: user.calle,
      colonia: user.colonia,
      ciudad: user.ciudad,
      cp: user.cp,
      estado: user.estado,
      area: user.area,
      active_week: user.active_week,
      entrega_week: user.entrega_week,
      limite_de_compras: user.limite_de_compras,
      presupuesto_default: user.presupuesto_default,
      categorias: budgets.map((b) => ({ id: category.get(b.id) ?? 0, presupuesto: b.presupuesto })),
    },
    copy.password,
  );

  const { productos } = await getJson<{ productos: DemoProduct[] }>(
    admin,
    `/api/usuarios/${user.id}/productos?per_page=200`,
  );
  for (const p of productos.filter((p) => p.asignado && p.activo)) {
    const idProducto = await createProduct(admin, {
      id_cliente: idCliente,
      id_categoria: category.get(p.id_categoria) ?? 0,
      clave_interna: p.clave_interna,
      clave_cliente: p.clave_cliente,
      nombre: p.nombre,
      descripcion: p.descripcion,
      unidad_de_medida: p.unidad_de_medida,
      precio: p.precio,
      impuesto: p.impuesto,
      imagen: p.imagen ? await download(admin, p.imagen, `${p.clave_interna}.png`) : undefined,
    });
    await assignProduct(admin, idUser, idProducto, p.cantidad_limite);
  }
}

export async function clientId(page: Page, nombre: string): Promise<number> {
  const res = await page.request.get(`/api/clientes?q=${encodeURIComponent(nombre)}`);
  const { clientes } = (await res.json()) as { clientes: { id: number; nombre: string }[] };
  const found = clientes.find((c) => c.nombre === nombre);
  if (!found) throw new Error(`No existe el cliente ${nombre}`);
  return found.id;
}

// ---------------------------------------------------------------------------------------------------------
// Screens

/** The inventory of a client, ready (its «Cargar productos» button shown). */
export async function openInventory(page: Page, idCliente: number): Promise<void> {
  await page.goto(`/administrador/inventario?cliente=${idCliente}`);
  // The admin area's first screen loads its chunks: slower on a busy machine.
  await expect(page.getByRole('heading', { name: 'Inventario', level: 1 })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole('button', { name: 'Cargar productos' })).toBeVisible();
}

// ---------------------------------------------------------------------------------------------------------
// Widgets

/**
 * Picks an option of a Mantine Select by its label (typing first when it is searchable). A list that is
 * read again while it is open (the clients, when the address names one created since they were read)
 * re-renders its dropdown under the pointer: the dropdown is then opened again, instead of waiting on an
 * option that is gone.
 */
export async function choose(page: Page, label: string, option: string | RegExp, type?: string) {
  const input = page.getByRole('combobox', { name: label, exact: true });
  const target = page.getByRole('option', { name: option, exact: typeof option === 'string' });
  await expect(async () => {
    if (!(await target.isVisible())) {
      await input.click();
      if (type) await input.fill(type);
    }
    await target.click({ timeout: 5_000 });
  }).toPass({ timeout: 30_000 });
}

/** Answers the '¿Estás seguro?' dialog with one of its buttons. */
export async function confirm(page: Page, button: string) {
  const dialog = page.getByRole('dialog', { name: '¿Estás seguro?' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: button, exact: true }).click();
  await expect(dialog).toBeHidden();
}

/**
 * A Mantine switch's input is visually hidden, and a notice may sit over it: the keyboard toggles it
 * the way a user tabbing through the page would, without clicking whatever lies on top.
 */
export async function toggleSwitch(control: Locator) {
  await control.focus();
  await control.press('Space');
}

/** The photo thumbnails of a region have loaded (a real image, not a broken one). */
export async function expectPhotosLoaded(region: Locator): Promise<void> {
  const images = region.getByTestId('foto').locator('img');
  await expect(images.first()).toBeVisible();
  await expect
    .poll(() => images.evaluateAll((imgs) => imgs.every((i) => (i as HTMLImageElement).naturalWidth > 0)))
    .toBe(true);
}

export async function expectNotice(page: Page, text: string) {
  await expect(page.locator('.mantine-Notification-root').filter({ hasText: text }).first()).toBeVisible();
}

/** Closes the notices that stay until closed (imports) and waits for the others to go (3 s). */
export async function clearNotifications(page: Page): Promise<void> {
  // Always the first one still open: a notice that closes by itself meanwhile must not leave a click
  // waiting for a button that is gone.
  const close = page.getByRole('button', { name: 'Cerrar notificación' });
  for (let i = 0; i < 10 && (await close.count()) > 0; i++) {
    await close
      .first()
      .click({ timeout: 2_000 })
      .catch(() => undefined);
  }
  await expect(page.locator('.mantine-Notification-root')).toHaveCount(0, { timeout: 15_000 });
}

const spanishMonth = (d: Date) =>
  new Intl.DateTimeFormat('es-MX', { month: 'long', timeZone: 'UTC' }).format(d).toLowerCase();

/** Clicks a day of a Mantine calendar (aria-label "D mes YYYY"), moving to the next month when needed. */
export async function pickDay(page: Page, label: string, iso: string) {
  await page.getByRole('button', { name: label, exact: true }).click();
  await clickDay(page, iso);
}

/** Clicks a day of the open calendar, moving up to three months forward to find it. */
export async function clickDay(page: Page, iso: string) {
  const d = new Date(`${iso}T00:00:00Z`);
  const name = `${d.getUTCDate()} ${spanishMonth(d)} ${d.getUTCFullYear()}`;
  const day = page.getByRole('button', { name, exact: true });
  // Wait for the calendar to open before deciding whether to move to another month.
  await page.getByRole('button', { name: 'Mes siguiente' }).first().waitFor();
  for (let i = 0; i < 3 && !(await day.isVisible()); i++) {
    await page.getByRole('button', { name: 'Mes siguiente' }).first().click();
  }
  await day.click();
}

/** Today's date (YYYY-MM-DD) in the business time zone. */
export function businessToday(): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Mexico_City' }).format(new Date());
}

/** A date `days` after (or before) today in the business time zone, as YYYY-MM-DD. */
export function businessDayFromToday(days: number): string {
  const d = new Date(`${businessToday()}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** Opens an active access week from yesterday to three days ahead, so the client's buyers may buy now. */
export async function openAccessWeek(page: Page, idCliente: number): Promise<void> {
  await apiPost(page, '/api/calendario_semanas', {
    inicio: businessDayFromToday(-1),
    fin: businessDayFromToday(3),
    id_cliente: idCliente,
    activo: 1,
  });
}

/** YYYY-MM-DD → DD/MM/YYYY, as the screens show dates. */
export const dmy = (iso: string) => iso.split('-').reverse().join('/');

/** Scrolls an open drawer or modal back to its top (for the screenshots). */
export async function scrollDialogTop(page: Page) {
  await page.evaluate(() => {
    for (const el of document.querySelectorAll('.mantine-Drawer-content, .mantine-Modal-content')) {
      el.scrollTop = 0;
    }
  });
}

/**
 * At 390 px the screen has no sideways scroll (tables turn into cards). PHONE_SHOTS=dir also saves a
 * picture of each, for a person to look at.
 */
export async function checkPhone(page: Page, name: string) {
  const size = page.viewportSize();
  await page.setViewportSize({ width: 390, height: 844 });
  await expect
    .poll(() => page.evaluate(() => document.documentElement.scrollWidth), { message: `${name} a 390 px` })
    .toBeLessThanOrEqual(390);
  await checkA11y(page, `${name} a 390 px`);
  if (process.env.PHONE_SHOTS) {
    await page.screenshot({
      path: `${process.env.PHONE_SHOTS}/${name}.png`,
      fullPage: true,
      animations: 'disabled',
    });
  }
  if (size) await page.setViewportSize(size);
}
