import { createECDH, randomBytes, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { CLAIM_PHOTO_MAX_BYTES } from '@portal/shared/domain/claims';
import { sealLogin } from '@portal/shared/domain/login-envelope';
import { addDays, businessDate } from '@portal/shared/domain/time';
import { and, eq, isNull } from 'drizzle-orm';
import { expect } from 'vitest';
import { WEB_DIST } from '../app.ts';
import {
  apiTokens,
  areas,
  budgetChangeRequests,
  budgetTopups,
  clientAddresses,
  clientSso,
  clients,
  invoices,
  notifications,
  orderClaimLines,
  orderClaims,
  orderPhotos,
  orderShipmentLines,
  orderShipments,
  pushSubscriptions,
  scheduledPrices,
  scimTokens,
  users,
  webhookDeliveries,
  webhookEndpoints,
  webhookEvents,
} from '../db/schema/index.ts';
import { insertPreparedFiles, preparePhoto, sha256Hex } from '../lib/files.ts';
import { sealSecret, ssoContext } from '../lib/secret-box.ts';
import { hashToken, newToken } from '../lib/tokens.ts';
import { codeAt, newTotpSecret, sealTotpSecret, stepAt } from '../lib/totp.ts';
import { multipart } from '../test/admin-fixtures.ts';
import { cfdiXml, ISSUER_RFC } from '../test/cfdi-documents.ts';
import { makeOrder, TEST_PASSWORD } from '../test/factories.ts';
import { fixture } from '../test/fixture-files.ts';
import { type Actor, MISSING_ID, type RouteKey, type World } from './world.ts';

/**
 * How to call each route of the app with ids of client A's real rows (the authorization matrix, the
 * fuzzer and the CSRF sweep share these recipes). State-changing calls use a row per caller, so every
 * call of the matrix is meaningful: callers run in CALL_ORDER, other tenants and wrong roles first.
 */

export interface Req {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url: string;
  body?: unknown;
  /** multipart/form-data fields and files instead of JSON. */
  form?: {
    fields: Record<string, string | number>;
    files?: Record<string, { filename: string; data: Buffer }>;
  };
}

export interface Recipe {
  req: (w: World, actor: Actor) => Req | Promise<Req>;
  /** A caller that may make this call (the fuzzer and the CSRF sweep call as it). */
  caller: Actor;
  /** The same request on ids that do not exist; other tenants must get exactly this answer. */
  missing?: (w: World, actor: Actor) => Req;
  /** Runs after every other row (sign-out ends the sessions). */
  last?: boolean;
}

/**
 * One row stands for every file of the built web app (@fastify/static registers a route per file, and only
 * when the app is built); it exists only then.
 */
export const WEB_FILES: RouteKey = 'GET /<archivo de la aplicación web>';

/** A browser's push subscription (a real P-256 key and secret) at a public address, new at each call. */
const pushDevice = (actor: Actor) => ({
  endpoint: `https://93.184.216.34/push/${actor}-${randomUUID()}`,
  expirationTime: null,
  keys: {
    p256dh: createECDH('prime256v1').generateKeys().toString('base64url'),
    auth: randomBytes(16).toString('base64url'),
  },
});
const get = (url: string): Req => ({ method: 'GET', url });
const post = (url: string, body: unknown = {}): Req => ({ method: 'POST', url, body });
const today = new Date().toISOString().slice(0, 10);
/** A SCIM PatchOp that would deactivate a user (Microsoft Entra ID's shape). */
const scimDeactivate = {
  schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
  Operations: [{ op: 'Replace', path: 'active', value: 'False' }],
};
/** A two-day delegation window starting `from` business days after today. */
const futureWindow = (from: number) => {
  const day = businessDate(new Date());
  return { desde: addDays(day, from), hasta: addDays(day, from + 1) };
};
const userBody = (w: World, usuario: string) => ({
  usuario,
  user_id: `${usuario}@example.test`,
  nombre: 'Persona Nueva',
  direccion_entrega: 'Calle 1, CDMX',
  rol: 1,
  active_week: 1,
  entrega_week: 2,
  id_cliente: w.a.client.id,
});
/** A generator rule for three monthly weeks of 2031 (far from the weeks the world signs in with). */
const weekRule = (idCliente: number) => ({
  id_cliente: idCliente,
  desde: '2031-01-01',
  hasta: '2031-03-31',
  modo: 'mensual',
  semana_del_mes: 2,
});
/**
 * A new order of client A's buyer that the caller's role acts on (espera for rol 3, else pendiente). Its one
 * line costs a centavo, as freshApproved's: the matrix makes one per caller and route.
 */
const freshOrder = (w: World, actor: Actor) =>
  makeOrder(w.db, {
    idUser: w.users.u1.id,
    idCliente: w.a.client.id,
    status: actor === 'u3' ? 'espera' : 'pendiente',
    lines: [{ productId: w.a.prod.id, precio: 1, cantidad: 1, idCategoria: w.a.cat.id }],
  });
/**
 * A new approved order of client A's buyer, in the fulfilment state asked (decision 0058). Its one line
 * costs a centavo: the matrix makes one per caller and route, and the buyer's month must keep its budget
 * for the tests that approve the buyer's orders afterwards.
 */
const freshApproved = (w: World, surtido?: 'enviado') =>
  makeOrder(w.db, {
    idUser: w.users.u1.id,
    idCliente: w.a.client.id,
    status: 'aprobado',
    surtido,
    lines: [{ productId: w.a.prod.id, precio: 1, cantidad: 1, idCategoria: w.a.cat.id }],
  });

/**
 * A new approved order of client A's buyer with its one line shipped as shipment 1 (decision 0125), written
 * directly: the remisión's routes read it.
 */
async function shippedOnce(w: World): Promise<number> {
  return (await shippedOrder(w)).id;
}

/** `shippedOnce`'s order and its one line. */
async function shippedOrder(w: World): Promise<{ id: number; line: number }> {
  const o = await freshApproved(w, 'enviado');
  const [shipment] = await w.db
    .insert(orderShipments)
    .values({
      orderId: o.id,
      idCliente: w.a.client.id,
      numero: 1,
      guia: 'GUIA-MATRIZ',
      paqueteria: 'DHL',
      fecha: today,
    })
    .returning({ id: orderShipments.id });
  await w.db
    .insert(orderShipmentLines)
    .values({ shipmentId: shipment!.id, orderLineId: o.lineIds[0]!, cantidad: 1 });
  return { id: o.id, line: o.lineIds[0]! };
}

/** A photo (JPEG) the buyer of client A uploaded for a shipped order (decision 0127), written directly. */
async function photoOfA(w: World): Promise<{ order: number; foto: number }> {
  const order = await shippedOnce(w);
  const file = await preparePhoto(fixture('green-40x30.jpg'), CLAIM_PHOTO_MAX_BYTES);
  await insertPreparedFiles(w.db, [file]);
  const [row] = await w.db
    .insert(orderPhotos)
    .values({ orderId: order, userId: w.users.u1.id, fileId: file.id, nombre: 'caja.jpg', tipo: file.mime })
    .returning({ id: orderPhotos.id });
  return { order, foto: row!.id };
}

/** Client A's RFC, set for the CFDI routes (decision 0131): the receptor's RFC is checked against it. */
const RFC_A = 'URE180429TM6';

async function withRfc(w: World): Promise<void> {
  await w.db.update(clients).set({ rfc: RFC_A }).where(eq(clients.id, w.a.client.id));
}

/**
 * A CFDI invoice of a new approved order of client A, its XML and a PDF stored, written directly; `cotejo`:
 * its match state (decision 0133), none by default.
 */
async function invoiceOfA(
  w: World,
  cotejo: 'con_diferencias' | null = null,
): Promise<{ order: number; uuid: string }> {
  const o = await freshApproved(w);
  const { xml, uuid } = cfdiXml({ receptorRfc: RFC_A });
  const data = Buffer.from(xml);
  const files = [
    {
      id: `${await sha256Hex(data, 'cfdi:')}.xml`,
      idCliente: w.a.client.id,
      kind: 'factura' as const,
      mime: 'application/xml' as const,
      size: data.length,
      data,
    },
    {
      id: `${await sha256Hex(fixture('manual.pdf'), 'cfdi:')}.pdf`,
      idCliente: w.a.client.id,
      kind: 'factura' as const,
      mime: 'application/pdf' as const,
      size: fixture('manual.pdf').length,
      data: fixture('manual.pdf'),
    },
  ];
  await insertPreparedFiles(w.db, files);
  await w.db.insert(invoices).values({
    idCliente: w.a.client.id,
    orderId: o.id,
    tipo: 'I',
    uuid,
    fecha: '2026-12-01T10:00:00',
    fechaTimbrado: '2026-12-01T10:00:00',
    emisorRfc: ISSUER_RFC,
    emisorNombre: 'EMISOR',
    receptorRfc: RFC_A,
    receptorNombre: 'CLIENTE A',
    usoCfdi: 'G03',
    subtotal: 100,
    descuento: 0,
    traslados: 16,
    retenciones: 0,
    total: 116,
    saldo: 116,
    xmlFileId: files[0]!.id,
    pdfFileId: files[1]!.id,
    cotejo,
  });
  return { order: o.id, uuid };
}

/** An order's invoices and their files under `prefix` as `caller` reads them (decisions 0131 and 0133). */
function invoiceReads(prefix: string, caller: Actor): Record<RouteKey, Recipe> {
  const none = '00000000-0000-0000-0000-000000000000';
  return {
    [`GET ${prefix}/:id/facturas`]: {
      req: async (w: World) => get(`${prefix}/${(await invoiceOfA(w)).order}/facturas`),
      missing: () => get(`${prefix}/${MISSING_ID}/facturas`),
      caller,
    },
    ...Object.fromEntries(
      (['xml', 'pdf'] as const).map((which) => [
        `GET ${prefix}/:id/facturas/:uuid/${which}`,
        {
          req: async (w: World) => {
            const f = await invoiceOfA(w);
            return get(`${prefix}/${f.order}/facturas/${f.uuid}/${which}`);
          },
          missing: () => get(`${prefix}/${MISSING_ID}/facturas/${none}/${which}`),
          caller,
        },
      ]),
    ),
  };
}

/** An open claim of one unit of a shipped order of client A (decision 0127), written directly. */
async function claimOfA(w: World): Promise<number> {
  const o = await shippedOrder(w);
  const [claim] = await w.db
    .insert(orderClaims)
    .values({ orderId: o.id, numero: 1, userId: w.users.u1.id, resolucionSolicitada: 'credito' })
    .returning({ id: orderClaims.id });
  await w.db
    .insert(orderClaimLines)
    .values({ claimId: claim!.id, lineId: o.line, cantidad: 1, motivo: 'danado' });
  return claim!.id;
}

/** An integration token row (its value is irrelevant here: the admin routes never read it). */
async function tokenRow(w: World): Promise<number> {
  const [row] = await w.db
    .insert(apiTokens)
    .values({
      nombre: 'Matriz',
      prefijo: 'pdc_matriz',
      tokenHash: randomUUID(),
      idCliente: null,
      permisos: ['pedidos:leer'],
      expiraEn: new Date(Date.now() + 86_400_000),
    })
    .returning({ id: apiTokens.id });
  return row!.id;
}

/**
 * A webhook endpoint (inactive unless asked: nothing is ever sent from the matrix) with one delivery of an
 * event of client A's order.
 */
async function webhookRows(w: World, activo = false): Promise<{ endpoint: number; delivery: number }> {
  const [endpoint] = await w.db
    .insert(webhookEndpoints)
    .values({ url: 'https://8.8.8.8/matriz', eventos: ['pedido.surtido'], secretoCifrado: 'x', activo })
    .returning({ id: webhookEndpoints.id });
  const order = await freshOrder(w, 'u2');
  const eventId = randomUUID();
  await w.db.insert(webhookEvents).values({
    id: eventId,
    tipo: 'pedido.surtido',
    orderId: order.id,
    idCliente: w.a.client.id,
    cuerpo: '{}',
  });
  const [delivery] = await w.db
    .insert(webhookDeliveries)
    .values({ eventId, endpointId: endpoint!.id, estado: 'fallido' })
    .returning({ id: webhookDeliveries.id });
  return { endpoint: endpoint!.id, delivery: delivery!.id };
}

/** Callers with a second factor of their own (roles 2, 3, 4 and 5). */
const TWO_FACTOR_ACTORS = new Set<Actor>(['u2', 'u3', 'adm', 'u2b', 'u5', 'u5b']);

/**
 * Puts a user's second factor in a state directly in the database (no audit entry, as the seed does):
 * none, an enrolment waiting for its code, or active with a new secret. Answers a current, unused code of
 * the new secret.
 */
async function secondFactor(w: World, userId: number, state: 'ninguno' | 'pendiente' | 'activo') {
  const secret = newTotpSecret();
  const sealed = sealTotpSecret(w.t.app.keys.encryption, userId, secret);
  await w.db
    .update(users)
    .set({
      totpSecret: state === 'activo' ? sealed : null,
      totpPendingSecret: state === 'pendiente' ? sealed : null,
      totpEnabledAt: state === 'activo' ? new Date() : null,
      totpLastStep: null,
    })
    .where(eq(users.id, userId));
  return codeAt(secret, stepAt(Date.now()));
}

/** The same for a caller, when it has a second factor of its own; otherwise a code of nothing. */
async function callerSecondFactor(w: World, actor: Actor, state: 'ninguno' | 'pendiente' | 'activo') {
  if (!TWO_FACTOR_ACTORS.has(actor) || actor === 'anon') return '000000';
  return secondFactor(w, w.users[actor].id, state);
}

/**
 * A client's single sign-on configuration (decision 0120) written directly, when it has none: an issuer at a
 * public address the matrix never calls (every sign-in the matrix starts is for a domain without one).
 */
const SSO_ISSUER = 'https://93.184.216.34/tenant/v2.0';
/** The body of a save of client A's single sign-on (the domain its configuration has). */
const ssoBody = {
  emisor: SSO_ISSUER,
  id_cliente: 'portal-matriz',
  secreto: 'secreto-matriz',
  dominios: ['matriz-a.example.com'],
};
async function ssoConfigured(w: World, idCliente: number, dominio: string): Promise<void> {
  await w.db
    .insert(clientSso)
    .values({
      idCliente,
      emisor: SSO_ISSUER,
      idClienteOidc: 'portal-matriz',
      secretoCifrado: sealSecret(w.t.app.keys.encryption, 'secreto-matriz', ssoContext(idCliente)),
      dominios: [dominio],
    })
    .onConflictDoNothing();
}

/**
 * A budget of client A's buyer that client A's administrator asked above the cap, waiting for the distributor
 * (decision 0122): a new request per call, the one before it replaced (one waits per user).
 */
async function pendingBudgetRequest(w: World): Promise<number> {
  const target = w.a.budgetTarget;
  await w.db
    .update(budgetChangeRequests)
    .set({ estado: 'reemplazada', decidedAt: new Date() })
    .where(and(eq(budgetChangeRequests.userId, target.id), eq(budgetChangeRequests.estado, 'pendiente')));
  const [row] = await w.db
    .insert(budgetChangeRequests)
    .values({
      idCliente: w.a.client.id,
      userId: target.id,
      presupuesto: target.presupuestoDefault + 100_000,
      presupuestoAnterior: target.presupuestoDefault,
      requestedBy: w.users.u5.id,
    })
    .returning({ id: budgetChangeRequests.id });
  return row!.id;
}

/** A new área of client A (decision 0123), with a budget of $10, for a call that changes or removes one. */
async function areaOfA(w: World): Promise<number> {
  const code = randomBytes(4).toString('hex');
  const [row] = await w.db
    .insert(areas)
    .values({ idCliente: w.a.client.id, nombre: `Área ${code}`, codigo: code, presupuesto: 1_000 })
    .returning({ id: areas.id });
  return row!.id;
}

/** A ship-to address of client A's book (decision 0126), with a label of its own. */
const ADDRESS = {
  calle: 'Av. Matriz',
  numero_exterior: '1',
  colonia: 'Centro',
  municipio: 'Monterrey',
  ciudad: 'Monterrey',
  estado: 'Nuevo León',
  cp: '64000',
  contacto: 'Recibe Matriz',
  telefono: '8112345678',
};
async function addressOfA(w: World): Promise<number> {
  const [row] = await w.db
    .insert(clientAddresses)
    .values({
      idCliente: w.a.client.id,
      nombre: `Dirección ${randomUUID()}`,
      calle: ADDRESS.calle,
      numeroExterior: ADDRESS.numero_exterior,
      colonia: ADDRESS.colonia,
      municipio: ADDRESS.municipio,
      ciudad: ADDRESS.ciudad,
      estado: ADDRESS.estado,
      cp: ADDRESS.cp,
      contacto: ADDRESS.contacto,
      telefono: ADDRESS.telefono,
    })
    .returning({ id: clientAddresses.id });
  return row!.id;
}

/** A pending top-up of client A's buyer (u1), of its own budget, for a decision. */
async function pendingTopup(w: World): Promise<number> {
  const [row] = await w.db
    .insert(budgetTopups)
    .values({
      idCliente: w.a.client.id,
      userId: w.users.u1.id,
      mes: `${today.slice(0, 7)}-01`,
      importe: 1_000,
      motivo: 'Matriz',
    })
    .returning({ id: budgetTopups.id });
  return row!.id;
}

/** A preview of client A's (or a missing client's) staff list (decision 0122's HR list): nothing changes. */
const rosterPreview = (idCliente: number): Req => ({
  method: 'POST',
  url: '/api/cliente/sincronizar',
  form: {
    fields: { id_cliente: idCliente, vista_previa: 1 },
    files: {
      archivo: {
        filename: 'personal.csv',
        data: Buffer.from(
          'usuario,correo,nombre\nlista.matriz,lista.matriz@example.test,Persona de la Lista\n',
        ),
      },
    },
  },
});

const clientForm = (nombre: string) => ({
  fields: { nombre, presupuesto_default: 1000, limite_de_compras: 3, cantidad_autorizadores: 1 },
});

export const REQUESTS: Record<RouteKey, Recipe> = {
  // Public: health, the CSRF cookie, the API description and content-addressed images (decision 0009).
  'GET /healthz': { req: () => get('/healthz'), caller: 'adm' },
  [WEB_FILES]: { req: () => get('/favicon.svg'), caller: 'anon' },
  'GET /sanctum/csrf-cookie': { req: () => get('/sanctum/csrf-cookie'), caller: 'adm' },
  'GET /api/docs': { req: () => get('/api/docs'), caller: 'adm' },
  'HEAD /api/docs/': { req: () => get('/api/docs/'), caller: 'adm' },
  'GET /api/docs/static/index.html': { req: () => get('/api/docs/static/index.html'), caller: 'adm' },
  'GET /api/docs/static/swagger-initializer.js': {
    req: () => get('/api/docs/static/swagger-initializer.js'),
    caller: 'adm',
  },
  'GET /api/docs/static/*': { req: () => get('/api/docs/static/logo.svg'), caller: 'adm' },
  'GET /api/docs/json': { req: () => get('/api/docs/json'), caller: 'adm' },
  'GET /api/docs/yaml': { req: () => get('/api/docs/yaml'), caller: 'adm' },
  'GET /api/img/:imagen': { req: (w) => get(`/api/img/${w.files.logo}`), caller: 'adm' },

  // Sign-in and passwords: open to everyone; the body decides.
  'POST /api/login': {
    // Wrong credentials of an unknown user (a signed-in caller stays who it is).
    req: (w, actor) =>
      post(
        '/api/login',
        sealLogin({ usuario: `nadie_${actor}`, password: 'Mala#2026x' }, w.api[actor].xsrf!),
      ),
    caller: 'anon',
  },
  'POST /api/recuperar-password': {
    req: (w) => post('/api/recuperar-password', { usuario: w.a.spare.usuario }),
    caller: 'adm',
  },
  'POST /api/restablecer/verificar': {
    req: () => post('/api/restablecer/verificar', { token: 'x'.repeat(43) }),
    caller: 'u1',
  },
  'POST /api/restablecer-password': {
    req: () =>
      post('/api/restablecer-password', {
        token: 'x'.repeat(43),
        newPass: 'Nueva#2027',
        confirmPass: 'Nueva#2027',
      }),
    caller: 'u1',
  },
  'GET /api/sesion': { req: () => get('/api/sesion'), caller: 'adm' },
  'POST /api/repassword': {
    // A wrong current password: the call is allowed, the change is refused, nobody's password changes.
    req: () =>
      post('/api/repassword', { password: 'NoEsLaMia#1', newPass: 'Nueva#2027', confirmPass: 'Nueva#2027' }),
    caller: 'u1',
  },
  'GET /api/logout': { req: () => get('/api/logout'), caller: 'adm', last: true },
  // The sign-in's second step: without a waiting session every caller gets the one answer (401 BAD_CODE).
  // Single sign-on (decision 0120): public like the sign-in; a domain without a provider, so the matrix
  // never calls one: the start and the callback send the browser back to the sign-in page (302).
  'POST /api/sso/descubrir': {
    req: () => post('/api/sso/descubrir', { correo: 'alguien@sin-proveedor.example' }),
    caller: 'anon',
  },
  'GET /api/sso/iniciar': {
    req: () => get('/api/sso/iniciar?correo=alguien%40sin-proveedor.example'),
    caller: 'anon',
  },
  'GET /api/sso/retorno': {
    req: () => get('/api/sso/retorno?code=codigo-de-la-matriz&state=estado-de-la-matriz'),
    caller: 'anon',
  },
  'POST /api/login/2fa': { req: () => post('/api/login/2fa', { codigo: '123456' }), caller: 'anon' },

  // Two-factor sign-in of the caller's own account: roles 2, 3 and 4.
  'GET /api/2fa': { req: () => get('/api/2fa'), caller: 'u2' },
  'POST /api/2fa/iniciar': {
    req: async (w, actor) => {
      await callerSecondFactor(w, actor, 'ninguno');
      return post('/api/2fa/iniciar', { password: TEST_PASSWORD });
    },
    caller: 'u2',
  },
  'POST /api/2fa/activar': {
    req: async (w, actor) =>
      post('/api/2fa/activar', {
        codigo: await callerSecondFactor(w, actor, 'pendiente'),
        password: TEST_PASSWORD,
      }),
    caller: 'u2',
  },
  'POST /api/2fa/codigos-respaldo': {
    req: async (w, actor) =>
      post('/api/2fa/codigos-respaldo', { codigo: await callerSecondFactor(w, actor, 'activo') }),
    caller: 'u3',
  },
  'POST /api/2fa/desactivar': {
    // A wrong password: the call is allowed, the change is refused, the second factor stays.
    req: async (w, actor) =>
      post('/api/2fa/desactivar', {
        password: 'NoEsLaMia#1',
        codigo: await callerSecondFactor(w, actor, 'activo'),
      }),
    caller: 'u3',
  },

  // Client documents: that client's users and administrators.
  'GET /api/resource/:clientId/:documento': {
    req: (w) => get(`/api/resource/${w.a.client.id}/calendario`),
    missing: () => get(`/api/resource/${MISSING_ID}/calendario`),
    caller: 'adm',
  },

  // Rol 1: catalogue, cart, purchase, history.
  'GET /api/catalogo': { req: () => get('/api/catalogo'), caller: 'u1' },
  'GET /api/carrito': { req: () => get('/api/carrito'), caller: 'u1' },
  'POST /api/carrito/nuevo_item': {
    req: (w) => post('/api/carrito/nuevo_item', { item: { id: w.a.prod.id, cantidad: 1 } }),
    missing: () => post('/api/carrito/nuevo_item', { item: { id: MISSING_ID, cantidad: 1 } }),
    caller: 'u1',
  },
  'POST /api/carrito/eliminar_item': {
    req: (w) => post('/api/carrito/eliminar_item', { item_id: w.a.prod.id }),
    missing: () => post('/api/carrito/eliminar_item', { item_id: MISSING_ID }),
    caller: 'u1',
  },
  'POST /api/carrito/vaciar_carrito': { req: () => post('/api/carrito/vaciar_carrito'), caller: 'u1' },
  'POST /api/compra': {
    req: async (w, actor) => {
      if (actor === 'u1') {
        const res = await w.api.u1.post('/api/carrito/nuevo_item', {
          item: { id: w.a.prod.id, cantidad: 1 },
        });
        expect(res.statusCode, res.body).toBe(200);
      }
      return post('/api/compra', { orden: [{ id: w.a.prod.id, cantidad: 1 }] });
    },
    missing: () => post('/api/compra', { orden: [{ id: MISSING_ID, cantidad: 1 }] }),
    caller: 'u1',
  },
  'GET /api/historial': { req: () => get('/api/historial'), caller: 'u1' },
  'GET /api/historial/:id': {
    req: (w) => get(`/api/historial/${w.orders.view.id}`),
    missing: () => get(`/api/historial/${MISSING_ID}`),
    caller: 'u1',
  },
  'GET /api/historial/:id/pdf': {
    req: (w) => get(`/api/historial/${w.orders.approved.id}/pdf`),
    missing: () => get(`/api/historial/${MISSING_ID}/pdf`),
    caller: 'u1',
  },
  'GET /api/historial/:id/envios/:numero/remision': {
    req: async (w) => get(`/api/historial/${await shippedOnce(w)}/envios/1/remision`),
    missing: () => get(`/api/historial/${MISSING_ID}/envios/1/remision`),
    caller: 'u1',
  },
  // Receipts, claims and their photos (decision 0127): the buyer's own orders.
  'POST /api/historial/:id/envios/:numero/recepcion': {
    req: async (w) => post(`/api/historial/${await shippedOnce(w)}/envios/1/recepcion`, { nota: 'Completo' }),
    missing: () => post(`/api/historial/${MISSING_ID}/envios/1/recepcion`, { nota: 'Completo' }),
    caller: 'u1',
  },
  'POST /api/historial/:id/reclamos': {
    req: async (w) => {
      const o = await shippedOrder(w);
      return post(`/api/historial/${o.id}/reclamos`, {
        lineas: [{ id: o.line, cantidad: 1, motivo: 'danado' }],
        resolucion: 'credito',
      });
    },
    missing: () =>
      post(`/api/historial/${MISSING_ID}/reclamos`, {
        lineas: [{ id: 1, cantidad: 1, motivo: 'danado' }],
        resolucion: 'credito',
      }),
    caller: 'u1',
  },
  'POST /api/historial/:id/fotos': {
    req: async (w) => ({
      method: 'POST',
      url: `/api/historial/${await shippedOnce(w)}/fotos`,
      form: { fields: {}, files: { archivo: { filename: 'caja.jpg', data: fixture('green-40x30.jpg') } } },
    }),
    missing: () => ({
      method: 'POST',
      url: `/api/historial/${MISSING_ID}/fotos`,
      form: { fields: {}, files: { archivo: { filename: 'caja.jpg', data: fixture('green-40x30.jpg') } } },
    }),
    caller: 'u1',
  },
  'GET /api/historial/:id/fotos/:foto': {
    req: async (w) => {
      const p = await photoOfA(w);
      return get(`/api/historial/${p.order}/fotos/${p.foto}`);
    },
    missing: () => get(`/api/historial/${MISSING_ID}/fotos/${MISSING_ID}`),
    caller: 'u1',
  },
  'POST /api/historial/:id/repetir': {
    req: (w) => post(`/api/historial/${w.orders.view.id}/repetir`),
    missing: () => post(`/api/historial/${MISSING_ID}/repetir`),
    caller: 'u1',
  },
  'POST /api/historial/:id/retirar': {
    req: (w) => post(`/api/historial/${w.orders.withdraw.id}/retirar`),
    missing: () => post(`/api/historial/${MISSING_ID}/retirar`),
    caller: 'u1',
  },
  'POST /api/historial/:id/recibido': {
    req: async (w) =>
      post(`/api/historial/${(await freshApproved(w, 'enviado')).id}/recibido`, { nota: 'Todo bien' }),
    missing: () => post(`/api/historial/${MISSING_ID}/recibido`, {}),
    caller: 'u1',
  },
  'GET /api/historial/:id/comentarios': {
    req: (w) => get(`/api/historial/${w.orders.view.id}/comentarios?antes=${MISSING_ID}`),
    missing: () => get(`/api/historial/${MISSING_ID}/comentarios?antes=1`),
    caller: 'u1',
  },
  'POST /api/historial/:id/comentarios': {
    req: (w, actor) =>
      post(`/api/historial/${w.orders.view.id}/comentarios`, { texto: `Comentario de ${actor}` }),
    missing: () => post(`/api/historial/${MISSING_ID}/comentarios`, { texto: 'Comentario de prueba' }),
    caller: 'u1',
  },
  // Another client's buyer pasting client A's clave gets it back as unknown (200, nothing added).
  'POST /api/pedido-rapido': {
    req: (w) => post('/api/pedido-rapido', { texto: `${w.a.prod.claveInterna}\t1` }),
    caller: 'u1',
  },

  // Rol 1: saved lists, private to their owner (another client's buyer is refused like a missing list).
  'GET /api/listas': { req: () => get('/api/listas'), caller: 'u1' },
  'POST /api/listas': {
    // Another client's buyer cannot put client A's product on a list (422, named by its id only).
    req: (w, actor) =>
      post('/api/listas', { nombre: `Lista ${actor}`, items: [{ id: w.a.prod.id, cantidad: 1 }] }),
    caller: 'u1',
  },
  'GET /api/listas/:id': {
    req: (w) => get(`/api/listas/${w.lists.view.id}`),
    missing: () => get(`/api/listas/${MISSING_ID}`),
    caller: 'u1',
  },
  'PUT /api/listas/:id': {
    req: (w) => ({
      method: 'PUT',
      url: `/api/listas/${w.lists.view.id}`,
      body: { nombre: 'Lista de la matriz', items: [{ id: w.a.prod.id, cantidad: 2 }] },
    }),
    missing: (w) => ({
      method: 'PUT',
      url: `/api/listas/${MISSING_ID}`,
      body: { nombre: 'Lista de la matriz', items: [{ id: w.a.prod.id, cantidad: 2 }] },
    }),
    caller: 'u1',
  },
  'DELETE /api/listas/:id': {
    req: (w) => ({ method: 'DELETE', url: `/api/listas/${w.lists.destroy.id}` }),
    missing: () => ({ method: 'DELETE', url: `/api/listas/${MISSING_ID}` }),
    caller: 'u1',
  },
  'POST /api/listas/:id/al-carrito': {
    req: (w) => post(`/api/listas/${w.lists.view.id}/al-carrito`),
    missing: () => post(`/api/listas/${MISSING_ID}/al-carrito`),
    caller: 'u1',
  },

  // Roles 2 and 3: the client's orders.
  'GET /api/pedidos': { req: () => get('/api/pedidos'), caller: 'u2' },
  'GET /api/pedidos/:id': {
    req: (w) => get(`/api/pedidos/${w.orders.view.id}`),
    missing: () => get(`/api/pedidos/${MISSING_ID}`),
    caller: 'u2',
  },
  'GET /api/pedidos/:id/pdf': {
    req: (w) => get(`/api/pedidos/${w.orders.approved.id}/pdf`),
    missing: () => get(`/api/pedidos/${MISSING_ID}/pdf`),
    caller: 'u2',
  },
  'GET /api/pedidos/:id/envios/:numero/remision': {
    req: async (w) => get(`/api/pedidos/${await shippedOnce(w)}/envios/1/remision`),
    missing: () => get(`/api/pedidos/${MISSING_ID}/envios/1/remision`),
    caller: 'u2',
  },
  'GET /api/pedidos/:id/fotos/:foto': {
    req: async (w) => {
      const p = await photoOfA(w);
      return get(`/api/pedidos/${p.order}/fotos/${p.foto}`);
    },
    missing: () => get(`/api/pedidos/${MISSING_ID}/fotos/${MISSING_ID}`),
    caller: 'u2',
  },
  'GET /api/pedidos/:id/siguiente': {
    req: (w) => get(`/api/pedidos/${w.orders.view.id}/siguiente?status=todos`),
    missing: () => get(`/api/pedidos/${MISSING_ID}/siguiente?status=todos`),
    caller: 'u2',
  },
  'POST /api/update/compra': {
    req: (w, actor) => {
      const order = actor === 'u3' ? w.orders.approveByRol3 : w.orders.approveByRol2;
      return post('/api/update/compra', { id: order.id, orden: [{ id: w.a.prod.id, cantidad: 1 }] });
    },
    missing: (w) => post('/api/update/compra', { id: MISSING_ID, orden: [{ id: w.a.prod.id, cantidad: 1 }] }),
    caller: 'u2',
  },
  'GET /api/pedidos/:id/comentarios': {
    req: (w) => get(`/api/pedidos/${w.orders.view.id}/comentarios?antes=${MISSING_ID}`),
    missing: () => get(`/api/pedidos/${MISSING_ID}/comentarios?antes=1`),
    caller: 'u2',
  },
  'POST /api/pedidos/:id/comentarios': {
    req: (w, actor) =>
      post(`/api/pedidos/${w.orders.view.id}/comentarios`, { texto: `Comentario de ${actor}` }),
    missing: () => post(`/api/pedidos/${MISSING_ID}/comentarios`, { texto: 'Comentario de prueba' }),
    caller: 'u2',
  },
  'POST /api/cancelar/compra/:id': {
    req: (w, actor) =>
      post(`/api/cancelar/compra/${(actor === 'u3' ? w.orders.cancelByRol3 : w.orders.cancelByRol2).id}`, {
        motivo: 'Prueba de permisos',
      }),
    missing: () => post(`/api/cancelar/compra/${MISSING_ID}`, { motivo: 'Prueba de permisos' }),
    caller: 'u2',
  },
  // Each caller on a fresh order of client A waiting at level 2 (decision 0111). Sent back it still counts:
  // its one line costs a centavo, so the buyer's month keeps its budget for the tests that follow.
  'POST /api/pedidos/:id/devolver': {
    req: async (w) => {
      const order = await makeOrder(w.db, {
        idUser: w.users.u1.id,
        idCliente: w.a.client.id,
        status: 'espera',
        lines: [{ productId: w.a.prod.id, precio: 1, cantidad: 1, idCategoria: w.a.cat.id }],
      });
      return post(`/api/pedidos/${order.id}/devolver`, { comentario: 'Prueba de permisos' });
    },
    missing: () => post(`/api/pedidos/${MISSING_ID}/devolver`, { comentario: 'Prueba de permisos' }),
    caller: 'u3',
  },
  // Bulk: each caller acts on a fresh order of client A (espera for rol 3); another client's authorizer gets
  // 200 with the order's row reading like a missing one.
  'POST /api/pedidos/aprobar-lote': {
    req: async (w, actor) => post('/api/pedidos/aprobar-lote', { ids: [(await freshOrder(w, actor)).id] }),
    caller: 'u2',
  },
  'POST /api/pedidos/cancelar-lote': {
    req: async (w, actor) =>
      post('/api/pedidos/cancelar-lote', {
        ids: [(await freshOrder(w, actor)).id],
        motivo: 'Prueba de permisos',
      }),
    caller: 'u2',
  },
  // The dashboard of client A: its authorizers and administrators; another client's authorizer reads it like a
  // client that does not exist.
  'GET /api/historial/gasto': { req: () => get('/api/historial/gasto'), caller: 'u1' },
  'GET /api/tablero': {
    req: (w) => get(`/api/tablero?cliente=${w.a.client.id}`),
    missing: () => get(`/api/tablero?cliente=${MISSING_ID}`),
    caller: 'u2',
  },
  // Delegation (decision 0053): windows in the future, apart from each other, so no row changes what another
  // caller may do today. An authorizer of client B names client A's user: refused like a missing delegate.
  // The bell and the notification preferences: every signed-in person's own (decision 0114). Marking an
  // item read uses an item of client A's buyer: anyone else gets the missing item's answer.
  'GET /api/notificaciones': { req: () => get('/api/notificaciones'), caller: 'u1' },
  'POST /api/notificaciones/leidas': { req: () => post('/api/notificaciones/leidas'), caller: 'u1' },
  'POST /api/notificaciones/:id/leida': {
    req: async (w) => {
      const [item] = await w.db
        .insert(notifications)
        .values({
          userId: w.users.u1.id,
          tipo: 'pedido',
          titulo: 'Prueba de permisos',
          texto: 'Prueba',
          ruta: '/usuario/principal',
        })
        .returning({ id: notifications.id });
      return post(`/api/notificaciones/${item!.id}/leida`);
    },
    missing: () => post(`/api/notificaciones/${MISSING_ID}/leida`),
    caller: 'u1',
  },
  'GET /api/notificaciones/preferencias': {
    req: () => get('/api/notificaciones/preferencias'),
    caller: 'u1',
  },
  'PUT /api/notificaciones/preferencias': {
    req: () => ({
      method: 'PUT',
      url: '/api/notificaciones/preferencias',
      body: { canales: { comentario: 'inmediato' }, resumen_hora: 8 },
    }),
    caller: 'u1',
  },
  // Live updates (decision 0116): every signed-in person's own stream. The suite's apps end a stream after a
  // fraction of a second (EVENTS_MAX_SECONDS in world.ts), so an in-process call gets its whole answer.
  'GET /api/eventos': { req: () => get('/api/eventos'), caller: 'u1' },
  // Web Push (decision 0117): every signed-in person's own devices. The endpoint is a public address given
  // as a literal (nothing to resolve); each call subscribes, or removes, a device of the caller's own.
  'GET /api/push/clave': { req: () => get('/api/push/clave'), caller: 'u1' },
  'POST /api/push/suscripciones': {
    req: (_w, actor) => post('/api/push/suscripciones', pushDevice(actor)),
    caller: 'u1',
  },
  'DELETE /api/push/suscripciones': {
    req: async (w, actor) => {
      const device = pushDevice(actor);
      const user = (w.users as Record<string, { id: number } | undefined>)[actor];
      if (user)
        await w.db.insert(pushSubscriptions).values({
          userId: user.id,
          endpoint: device.endpoint,
          p256dh: device.keys.p256dh,
          auth: device.keys.auth,
        });
      return { method: 'DELETE', url: '/api/push/suscripciones', body: { endpoint: device.endpoint } };
    },
    caller: 'u1',
  },
  'GET /api/delegacion': { req: () => get('/api/delegacion'), caller: 'u2' },
  'PUT /api/delegacion': {
    req: (w, actor) => ({
      method: 'PUT',
      url: '/api/delegacion',
      body: {
        delegado_id: actor === 'u3' ? w.users.u2.id : w.users.u3.id,
        ...futureWindow(actor === 'u3' ? 5 : 1),
      },
    }),
    missing: () => ({
      method: 'PUT',
      url: '/api/delegacion',
      body: { delegado_id: MISSING_ID, ...futureWindow(1) },
    }),
    caller: 'u2',
  },
  'DELETE /api/delegacion': { req: () => ({ method: 'DELETE', url: '/api/delegacion' }), caller: 'u2' },
  'GET /api/usuarios/:id/delegacion': {
    req: (w) => get(`/api/usuarios/${w.users.u2.id}/delegacion`),
    missing: () => get(`/api/usuarios/${MISSING_ID}/delegacion`),
    caller: 'adm',
  },
  'PUT /api/usuarios/:id/delegacion': {
    req: (w) => ({
      method: 'PUT',
      url: `/api/usuarios/${w.users.u2.id}/delegacion`,
      body: { delegado_id: w.users.u3.id, ...futureWindow(10) },
    }),
    missing: (w) => ({
      method: 'PUT',
      url: `/api/usuarios/${MISSING_ID}/delegacion`,
      body: { delegado_id: w.users.u3.id, ...futureWindow(10) },
    }),
    caller: 'adm',
  },
  'DELETE /api/usuarios/:id/delegacion': {
    req: (w) => ({ method: 'DELETE', url: `/api/usuarios/${w.users.u2.id}/delegacion` }),
    missing: () => ({ method: 'DELETE', url: `/api/usuarios/${MISSING_ID}/delegacion` }),
    caller: 'adm',
  },
  'POST /api/reporte/autorizador': {
    req: () =>
      post('/api/reporte/autorizador', { tipo: 'general', fecha_inicio: '2020-01-01', fecha_fin: today }),
    caller: 'u2',
  },
  'POST /api/reporte/autorizador/productos/detalle': {
    req: () =>
      post('/api/reporte/autorizador/productos/detalle', {
        tipo: 'detalle',
        fecha_inicio: '2020-01-01',
        fecha_fin: today,
      }),
    caller: 'u2',
  },

  // Rol 5: its own client (decision 0122): its client's page, its approval rules (a change that keeps them)
  // and its staff list (a preview).
  'GET /api/cliente': { req: () => get('/api/cliente'), caller: 'u5' },
  'PUT /api/cliente/reglas': {
    req: () => ({ method: 'PUT', url: '/api/cliente/reglas', body: { recordatorio_horas: 24 } }),
    caller: 'u5',
  },
  'POST /api/cliente/sincronizar': {
    req: (w) => rosterPreview(w.a.client.id),
    missing: () => rosterPreview(MISSING_ID),
    caller: 'adm',
  },
  // Budgets above a client's cap: the queue is read by the distributor and by client A's administrator;
  // only the distributor decides, each caller on a request of its own.
  'GET /api/presupuestos/solicitudes': {
    req: (w) => get(`/api/presupuestos/solicitudes?id_cliente=${w.a.client.id}`),
    missing: () => get(`/api/presupuestos/solicitudes?id_cliente=${MISSING_ID}`),
    caller: 'adm',
  },
  'POST /api/presupuestos/solicitudes/:id/aprobar': {
    req: async (w) => post(`/api/presupuestos/solicitudes/${await pendingBudgetRequest(w)}/aprobar`),
    caller: 'adm',
  },
  'POST /api/presupuestos/solicitudes/:id/rechazar': {
    req: async (w) => post(`/api/presupuestos/solicitudes/${await pendingBudgetRequest(w)}/rechazar`),
    caller: 'adm',
  },

  // Áreas (decision 0123): the distributor's and client A's administrator's; each change on an área of its own.
  'GET /api/areas': {
    req: (w) => get(`/api/areas?id_cliente=${w.a.client.id}`),
    missing: () => get(`/api/areas?id_cliente=${MISSING_ID}`),
    caller: 'adm',
  },
  'POST /api/areas': {
    req: (w) =>
      post('/api/areas', {
        id_cliente: w.a.client.id,
        nombre: `Área ${randomUUID()}`,
        codigo: randomBytes(4).toString('hex'),
        presupuesto: 10,
      }),
    missing: () =>
      post('/api/areas', { id_cliente: MISSING_ID, nombre: 'Área', codigo: 'X1', presupuesto: 10 }),
    caller: 'adm',
  },
  'PUT /api/areas/:id': {
    req: async (w) => ({
      method: 'PUT',
      url: `/api/areas/${await areaOfA(w)}`,
      body: { nombre: `Área ${randomUUID()}`, codigo: randomBytes(4).toString('hex'), presupuesto: 20 },
    }),
    missing: () => ({
      method: 'PUT',
      url: `/api/areas/${MISSING_ID}`,
      body: { nombre: 'Área', codigo: 'X1', presupuesto: 20 },
    }),
    caller: 'adm',
  },
  'DELETE /api/areas/:id': {
    req: async (w) => ({ method: 'DELETE', url: `/api/areas/${await areaOfA(w)}` }),
    missing: () => ({ method: 'DELETE', url: `/api/areas/${MISSING_ID}` }),
    caller: 'adm',
  },
  'POST /api/areas/transferencias': {
    req: async (w) =>
      post('/api/areas/transferencias', { de: await areaOfA(w), a: await areaOfA(w), importe: 1 }),
    missing: () => post('/api/areas/transferencias', { de: MISSING_ID, a: MISSING_ID - 1, importe: 1 }),
    caller: 'adm',
  },
  // Ship-to addresses (decision 0126): the distributor's and client A's administrator's, on A's book and
  // A's buyer; the buyer reads its own choices.
  'GET /api/direcciones': {
    req: (w) => get(`/api/direcciones?id_cliente=${w.a.client.id}`),
    missing: () => get(`/api/direcciones?id_cliente=${MISSING_ID}`),
    caller: 'adm',
  },
  'POST /api/direcciones': {
    req: (w) =>
      post('/api/direcciones', {
        id_cliente: w.a.client.id,
        nombre: `Dirección ${randomUUID()}`,
        ...ADDRESS,
      }),
    missing: () => post('/api/direcciones', { id_cliente: MISSING_ID, nombre: 'Dirección', ...ADDRESS }),
    caller: 'adm',
  },
  'PUT /api/direcciones/:id': {
    req: async (w) => ({
      method: 'PUT',
      url: `/api/direcciones/${await addressOfA(w)}`,
      body: { nombre: `Dirección ${randomUUID()}`, ...ADDRESS },
    }),
    missing: () => ({
      method: 'PUT',
      url: `/api/direcciones/${MISSING_ID}`,
      body: { nombre: 'Dirección', ...ADDRESS },
    }),
    caller: 'adm',
  },
  'DELETE /api/direcciones/:id': {
    req: async (w) => ({ method: 'DELETE', url: `/api/direcciones/${await addressOfA(w)}` }),
    missing: () => ({ method: 'DELETE', url: `/api/direcciones/${MISSING_ID}` }),
    caller: 'adm',
  },
  'GET /api/usuarios/:id/direcciones': {
    req: (w) => get(`/api/usuarios/${w.users.u1.id}/direcciones`),
    missing: () => get(`/api/usuarios/${MISSING_ID}/direcciones`),
    caller: 'adm',
  },
  // Receivers named by the client (decision 0130): a spare buyer of client A is named; the receivers act on
  // a shipped order of client A sent to its buyer's profile address (every receiver of A reaches it).
  'GET /api/usuarios/:id/receptor': {
    req: (w) => get(`/api/usuarios/${w.a.spare.id}/receptor`),
    missing: () => get(`/api/usuarios/${MISSING_ID}/receptor`),
    caller: 'adm',
  },
  'PUT /api/usuarios/:id/receptor': {
    req: async (w) => ({
      method: 'PUT',
      url: `/api/usuarios/${w.a.spare.id}/receptor`,
      body: { receptor: true, direcciones: [await addressOfA(w)] },
    }),
    missing: () => ({
      method: 'PUT',
      url: `/api/usuarios/${MISSING_ID}/receptor`,
      body: { receptor: true, direcciones: [] },
    }),
    caller: 'adm',
  },
  'GET /api/recepcion': { req: () => get('/api/recepcion'), caller: 'u1' },
  'GET /api/recepcion/:id/envios/:numero': {
    req: async (w) => get(`/api/recepcion/${await shippedOnce(w)}/envios/1`),
    missing: () => get(`/api/recepcion/${MISSING_ID}/envios/1`),
    caller: 'u1',
  },
  'POST /api/recepcion/:id/envios/:numero/recepcion': {
    req: async (w) => post(`/api/recepcion/${await shippedOnce(w)}/envios/1/recepcion`, { nota: 'Completo' }),
    missing: () => post(`/api/recepcion/${MISSING_ID}/envios/1/recepcion`, { nota: 'Completo' }),
    caller: 'u1',
  },
  'POST /api/recepcion/:id/fotos': {
    req: async (w) => ({
      method: 'POST',
      url: `/api/recepcion/${await shippedOnce(w)}/fotos`,
      form: { fields: {}, files: { archivo: { filename: 'caja.jpg', data: fixture('green-40x30.jpg') } } },
    }),
    missing: () => ({
      method: 'POST',
      url: `/api/recepcion/${MISSING_ID}/fotos`,
      form: { fields: {}, files: { archivo: { filename: 'caja.jpg', data: fixture('green-40x30.jpg') } } },
    }),
    caller: 'u1',
  },
  'GET /api/recepcion/:id/fotos/:foto': {
    req: async (w) => {
      const p = await photoOfA(w);
      return get(`/api/recepcion/${p.order}/fotos/${p.foto}`);
    },
    missing: () => get(`/api/recepcion/${MISSING_ID}/fotos/${MISSING_ID}`),
    caller: 'u1',
  },
  'PUT /api/usuarios/:id/direcciones': {
    req: async (w) => ({
      method: 'PUT',
      url: `/api/usuarios/${w.users.u1.id}/direcciones`,
      body: { id_direccion: null, direcciones: [await addressOfA(w)] },
    }),
    missing: () => ({
      method: 'PUT',
      url: `/api/usuarios/${MISSING_ID}/direcciones`,
      body: { id_direccion: null, direcciones: [] },
    }),
    caller: 'adm',
  },
  'GET /api/carrito/direcciones': { req: () => get('/api/carrito/direcciones'), caller: 'u1' },
  // Top-ups: a buyer asks (one pending per budget: each call first closes the caller's own); everyone signed
  // in reads what it may see; the deciders decide one of client A's buyer's, which client A's approver (rol 2,
  // responsible for no área) does not see.
  'POST /api/ampliaciones': {
    req: async (w, actor) => {
      const caller = actor === 'anon' ? undefined : w.users[actor];
      if (caller)
        await w.db
          .update(budgetTopups)
          .set({ estado: 'rechazada' })
          .where(and(eq(budgetTopups.userId, caller.id), eq(budgetTopups.estado, 'pendiente')));
      return post('/api/ampliaciones', { destino: 'usuario', importe: 10, motivo: 'Matriz' });
    },
    caller: 'u1',
  },
  'GET /api/ampliaciones': { req: () => get('/api/ampliaciones'), caller: 'u3' },
  'POST /api/ampliaciones/:id/aprobar': {
    req: async (w) => post(`/api/ampliaciones/${await pendingTopup(w)}/aprobar`),
    missing: () => post(`/api/ampliaciones/${MISSING_ID}/aprobar`),
    caller: 'u3',
  },
  'POST /api/ampliaciones/:id/rechazar': {
    req: async (w) => post(`/api/ampliaciones/${await pendingTopup(w)}/rechazar`),
    missing: () => post(`/api/ampliaciones/${MISSING_ID}/rechazar`),
    caller: 'u3',
  },

  // Rol 4: administration (administrators belong to no client and see every client). The users, assignments,
  // categories (read), log and weeks routes are also client A's administrator's (rol 5) within client A: for
  // client B's, A's ids answer like missing ones.
  'GET /api/admin/resumen': { req: () => get('/api/admin/resumen'), caller: 'adm' },
  'GET /api/clientes': { req: () => get('/api/clientes'), caller: 'adm' },
  'GET /api/clientes/:id/resumen': {
    req: (w) => get(`/api/clientes/${w.a.client.id}/resumen`),
    caller: 'adm',
    missing: () => get(`/api/clientes/${MISSING_ID}/resumen`),
  },
  'POST /api/clientes': {
    req: () => ({ method: 'POST', url: '/api/clientes', form: clientForm('Cliente Nuevo') }),
    caller: 'adm',
  },
  'POST /api/clientes/update/:id': {
    req: (w) => ({
      method: 'POST',
      url: `/api/clientes/update/${w.c.client.id}`,
      form: clientForm('Cliente C2'),
    }),
    caller: 'adm',
  },
  // A client's fiscal data (decision 0128): the distributor's and client A's administrator's (with `fiscales`).
  'PUT /api/clientes/:id/datos-fiscales': {
    req: (w) => ({
      method: 'PUT',
      url: `/api/clientes/${w.a.client.id}/datos-fiscales`,
      body: { cp_fiscal: '64000' },
    }),
    missing: () => ({
      method: 'PUT',
      url: `/api/clientes/${MISSING_ID}/datos-fiscales`,
      body: { cp_fiscal: '64000' },
    }),
    caller: 'adm',
  },
  // A client's single sign-on (decision 0120), the distributor's and client A's administrator's (rol 5, with
  // `identidad`): client A's is read, saved and removed, by each of them on a configuration of its own.
  'GET /api/clients/:id/sso': {
    req: async (w, actor) => {
      if (actor === 'adm' || actor === 'u5') await ssoConfigured(w, w.a.client.id, 'matriz-a.example.com');
      return get(`/api/clients/${w.a.client.id}/sso`);
    },
    missing: () => get(`/api/clients/${MISSING_ID}/sso`),
    caller: 'adm',
  },
  'PUT /api/clients/:id/sso': {
    req: async (w, actor) => {
      // A client administrator saves the domains its configuration already has (decision 0122).
      if (actor === 'u5') await ssoConfigured(w, w.a.client.id, 'matriz-a.example.com');
      return { method: 'PUT', url: `/api/clients/${w.a.client.id}/sso`, body: ssoBody };
    },
    missing: () => ({ method: 'PUT', url: `/api/clients/${MISSING_ID}/sso`, body: ssoBody }),
    caller: 'adm',
  },
  'DELETE /api/clients/:id/sso': {
    req: async (w, actor) => {
      if (actor === 'adm' || actor === 'u5') await ssoConfigured(w, w.a.client.id, 'matriz-a.example.com');
      return { method: 'DELETE', url: `/api/clients/${w.a.client.id}/sso` };
    },
    missing: () => ({ method: 'DELETE', url: `/api/clients/${MISSING_ID}/sso` }),
    caller: 'adm',
  },
  // A client's SCIM token (decision 0121), the distributor's and client A's administrator's: client A's is
  // read, generated and revoked (each revoker on a live token of its own).
  'GET /api/clients/:id/scim/token': {
    req: (w) => get(`/api/clients/${w.a.client.id}/scim/token`),
    missing: () => get(`/api/clients/${MISSING_ID}/scim/token`),
    caller: 'adm',
  },
  'POST /api/clients/:id/scim/token': {
    req: (w) => post(`/api/clients/${w.a.client.id}/scim/token`),
    missing: () => post(`/api/clients/${MISSING_ID}/scim/token`),
    caller: 'adm',
  },
  'DELETE /api/clients/:id/scim/token': {
    req: async (w, actor) => {
      if (actor === 'adm' || actor === 'u5') {
        const token = newToken();
        await w.db
          .update(scimTokens)
          .set({ revocadoEn: new Date() })
          .where(and(eq(scimTokens.idCliente, w.a.client.id), isNull(scimTokens.revocadoEn)));
        await w.db
          .insert(scimTokens)
          .values({ idCliente: w.a.client.id, tokenHash: hashToken(token), prefijo: token.slice(0, 12) });
      }
      return { method: 'DELETE', url: `/api/clients/${w.a.client.id}/scim/token` };
    },
    missing: () => ({ method: 'DELETE', url: `/api/clients/${MISSING_ID}/scim/token` }),
    caller: 'adm',
  },
  'GET /api/usuarios': {
    req: (w) => get(`/api/usuarios?id_cliente=${w.a.client.id}`),
    missing: () => get(`/api/usuarios?id_cliente=${MISSING_ID}`),
    caller: 'adm',
  },
  'GET /api/usuarios/:id': {
    req: (w) => get(`/api/usuarios/${w.a.spare.id}`),
    missing: () => get(`/api/usuarios/${MISSING_ID}`),
    caller: 'adm',
  },
  'GET /api/buscar': { req: () => get('/api/buscar?q=matriz'), caller: 'adm' },
  'GET /api/admin/pedidos': { req: () => get('/api/admin/pedidos?estatus=por_autorizar'), caller: 'adm' },
  'GET /api/surtido': { req: () => get('/api/surtido?surtido=por_surtir'), caller: 'adm' },
  'POST /api/surtido/exportar': {
    req: async (w) => post('/api/surtido/exportar', { ids: [(await freshApproved(w)).id] }),
    missing: () => post('/api/surtido/exportar', { ids: [MISSING_ID] }),
    caller: 'adm',
  },
  // Reads only: the world's approved order (por_surtir) serves every caller.
  'POST /api/surtido/lista': {
    req: (w) => post('/api/surtido/lista', { ids: [w.orders.approved.id], formato: 'csv' }),
    missing: () => post('/api/surtido/lista', { ids: [MISSING_ID], formato: 'csv' }),
    caller: 'adm',
  },
  'POST /api/surtido/estado-lote': {
    req: async (w) =>
      post('/api/surtido/estado-lote', { ids: [(await freshApproved(w)).id], estado: 'en_surtido' }),
    caller: 'adm',
  },
  'POST /api/surtido/guias': {
    req: async (w) => ({
      method: 'POST',
      url: '/api/surtido/guias',
      form: {
        fields: {},
        files: {
          file: {
            filename: 'guias.csv',
            data: Buffer.from(`pedido,guia,paqueteria\n${(await freshApproved(w)).id},123,DHL\n`),
          },
        },
      },
    }),
    caller: 'adm',
  },
  'POST /api/surtido/:id/estado': {
    req: async (w) => post(`/api/surtido/${(await freshApproved(w)).id}/estado`, { estado: 'en_surtido' }),
    missing: () => post(`/api/surtido/${MISSING_ID}/estado`, { estado: 'en_surtido' }),
    caller: 'adm',
  },
  // A release per caller: a new held order each (decision 0134).
  'POST /api/surtido/:id/liberar': {
    req: async (w) =>
      post(
        `/api/surtido/${
          (
            await makeOrder(w.db, {
              idUser: w.users.u1.id,
              idCliente: w.a.client.id,
              status: 'aprobado',
              retenidoCredito: 'Matriz: retenido',
              lines: [{ productId: w.a.prod.id, precio: 1, cantidad: 1, idCategoria: w.a.cat.id }],
            })
          ).id
        }/liberar`,
      ),
    missing: () => post(`/api/surtido/${MISSING_ID}/liberar`),
    caller: 'adm',
  },
  // Credit (decision 0134): client A's statement for its approvers and administrator (and rol 4 naming it);
  // another client's people read it like a client that does not exist. The aging is rol 4's.
  'GET /api/estado-cuenta': {
    req: (w) => get(`/api/estado-cuenta?cliente=${w.a.client.id}`),
    missing: () => get(`/api/estado-cuenta?cliente=${MISSING_ID}`),
    caller: 'u2',
  },
  'GET /api/estado-cuenta/descarga': {
    req: (w) => get(`/api/estado-cuenta/descarga?cliente=${w.a.client.id}&formato=csv`),
    missing: () => get(`/api/estado-cuenta/descarga?cliente=${MISSING_ID}&formato=csv`),
    caller: 'u2',
  },
  'GET /api/credito/clientes': { req: () => get('/api/credito/clientes'), caller: 'adm' },
  'POST /api/surtido/:id/envios': {
    req: async (w) => {
      const o = await freshApproved(w);
      return post(`/api/surtido/${o.id}/envios`, { lineas: [{ id: o.lineIds[0]!, cantidad: 1 }] });
    },
    missing: () => post(`/api/surtido/${MISSING_ID}/envios`, { lineas: [{ id: 1, cantidad: 1 }] }),
    caller: 'adm',
  },
  'POST /api/surtido/:id/lineas/:linea/cancelar': {
    req: async (w) => {
      const o = await freshApproved(w);
      return post(`/api/surtido/${o.id}/lineas/${o.lineIds[0]!}/cancelar`, { motivo: 'Sin existencia' });
    },
    missing: () => post(`/api/surtido/${MISSING_ID}/lineas/1/cancelar`, { motivo: 'Sin existencia' }),
    caller: 'adm',
  },
  'POST /api/surtido/:id/promesa': {
    req: async (w) => post(`/api/surtido/${(await freshApproved(w)).id}/promesa`, { fecha: '2099-01-01' }),
    missing: () => post(`/api/surtido/${MISSING_ID}/promesa`, { fecha: '2099-01-01' }),
    caller: 'adm',
  },
  'GET /api/surtido/:id/fotos/:foto': {
    req: async (w) => {
      const p = await photoOfA(w);
      return get(`/api/surtido/${p.order}/fotos/${p.foto}`);
    },
    missing: () => get(`/api/surtido/${MISSING_ID}/fotos/${MISSING_ID}`),
    caller: 'adm',
  },
  // CFDI invoices (decision 0131): the operator's upload, list and downloads.
  'POST /api/surtido/:id/facturas': {
    req: async (w) => {
      await withRfc(w);
      const o = await freshApproved(w);
      return {
        method: 'POST',
        url: `/api/surtido/${o.id}/facturas`,
        form: {
          fields: {},
          files: { xml: { filename: 'f.xml', data: Buffer.from(cfdiXml({ receptorRfc: RFC_A }).xml) } },
        },
      };
    },
    missing: () => ({
      method: 'POST',
      url: `/api/surtido/${MISSING_ID}/facturas`,
      form: {
        fields: {},
        files: { xml: { filename: 'f.xml', data: Buffer.from(cfdiXml({ receptorRfc: RFC_A }).xml) } },
      },
    }),
    caller: 'adm',
  },
  ...invoiceReads('/api/surtido', 'adm'),
  'POST /api/surtido/:id/facturas/:uuid/aceptar-diferencia': {
    req: async (w) => {
      const f = await invoiceOfA(w, 'con_diferencias');
      return post(`/api/surtido/${f.order}/facturas/${f.uuid}/aceptar-diferencia`, { motivo: 'Matriz' });
    },
    missing: () =>
      post(`/api/surtido/${MISSING_ID}/facturas/00000000-0000-0000-0000-000000000000/aceptar-diferencia`, {
        motivo: 'Matriz',
      }),
    caller: 'adm',
  },
  ...invoiceReads('/api/historial', 'u1'),
  ...invoiceReads('/api/pedidos', 'u2'),
  ...invoiceReads('/api/cliente/pedidos', 'u5'),
  'GET /api/surtido/reclamos': { req: () => get('/api/surtido/reclamos?estado=todos'), caller: 'adm' },
  'POST /api/surtido/reclamos/:id': {
    req: async (w) =>
      post(`/api/surtido/reclamos/${await claimOfA(w)}`, { accion: 'devolucion', guia: 'GUIA-MATRIZ' }),
    missing: () => post(`/api/surtido/reclamos/${MISSING_ID}`, { accion: 'devolucion', guia: 'GUIA-MATRIZ' }),
    caller: 'adm',
  },
  'GET /api/surtido/:id/pdf': {
    req: (w) => get(`/api/surtido/${w.orders.approved.id}/pdf`),
    missing: () => get(`/api/surtido/${MISSING_ID}/pdf`),
    caller: 'adm',
  },
  'GET /api/surtido/:id/envios/:numero/remision': {
    req: async (w) => get(`/api/surtido/${await shippedOnce(w)}/envios/1/remision`),
    missing: () => get(`/api/surtido/${MISSING_ID}/envios/1/remision`),
    caller: 'adm',
  },
  'GET /api/admin/pedidos/:id': {
    req: (w) => get(`/api/admin/pedidos/${w.orders.view.id}`),
    missing: () => get(`/api/admin/pedidos/${MISSING_ID}`),
    caller: 'adm',
  },
  'GET /api/admin/pedidos/:id/comentarios': {
    req: (w) => get(`/api/admin/pedidos/${w.orders.view.id}/comentarios?antes=${MISSING_ID}`),
    missing: () => get(`/api/admin/pedidos/${MISSING_ID}/comentarios?antes=1`),
    caller: 'adm',
  },
  'POST /api/usuarios': {
    req: (w, actor) =>
      post('/api/usuarios', userBody(w, actor === 'adm' ? 'nuevo_matriz' : `nuevo_matriz_${actor}`)),
    missing: (w, actor) =>
      post('/api/usuarios', { ...userBody(w, `nadie_matriz_${actor}`), id_cliente: MISSING_ID }),
    caller: 'adm',
  },
  'PUT /api/usuarios/:id': {
    req: (w) => ({
      method: 'PUT',
      url: `/api/usuarios/${w.a.spare.id}`,
      body: userBody(w, w.a.spare.usuario),
    }),
    missing: (w) => ({
      method: 'PUT',
      url: `/api/usuarios/${MISSING_ID}`,
      body: userBody(w, w.a.spare.usuario),
    }),
    caller: 'adm',
  },
  // A preview (nothing changes), so client A's users stay active for the rows after it.
  'POST /api/usuarios/desactivar_lote': {
    req: (w) => post('/api/usuarios/desactivar_lote', { ids: [w.a.spare.id], vista_previa: true }),
    missing: () => post('/api/usuarios/desactivar_lote', { ids: [MISSING_ID], vista_previa: true }),
    caller: 'adm',
  },
  'GET /api/usuarios/accesos-sin-enviar': {
    req: () => get('/api/usuarios/accesos-sin-enviar'),
    caller: 'adm',
  },
  'POST /api/usuarios/reenviar-acceso': {
    req: (w) => post('/api/usuarios/reenviar-acceso', { ids: [w.a.spare.id] }),
    missing: () => post('/api/usuarios/reenviar-acceso', { ids: [MISSING_ID] }),
    caller: 'adm',
  },
  'POST /api/recuperar/password/:id': {
    req: (w) => post(`/api/recuperar/password/${w.a.resetTarget.id}`),
    missing: () => post(`/api/recuperar/password/${MISSING_ID}`),
    caller: 'adm',
  },
  'POST /api/recuperar/2fa/:id': {
    req: async (w, actor) => {
      if (actor === 'adm') await secondFactor(w, w.c.twoFactorTarget.id, 'activo');
      return post(`/api/recuperar/2fa/${w.c.twoFactorTarget.id}`);
    },
    caller: 'adm',
  },
  'GET /api/usuarios/:id/productos': {
    req: (w) => get(`/api/usuarios/${w.a.spare.id}/productos`),
    missing: () => get(`/api/usuarios/${MISSING_ID}/productos`),
    caller: 'adm',
  },
  'POST /api/productos/asignar': {
    req: (w) =>
      post('/api/productos/asignar', {
        id_producto: w.a.prod2.id,
        id_user: w.a.spare.id,
        cantidad_limite: 2,
        status: 1,
      }),
    missing: (w) =>
      post('/api/productos/asignar', {
        id_producto: w.a.prod2.id,
        id_user: MISSING_ID,
        cantidad_limite: 2,
        status: 1,
      }),
    caller: 'adm',
  },
  'POST /api/productos/asignar_todos': {
    req: (w) => post('/api/productos/asignar_todos', { id_user: w.a.spare.id, status: 1 }),
    missing: () => post('/api/productos/asignar_todos', { id_user: MISSING_ID, status: 1 }),
    caller: 'adm',
  },
  'POST /api/usuarios/:id/productos/copiar': {
    req: (w) =>
      post(`/api/usuarios/${w.a.spare.id}/productos/copiar`, {
        desde_usuario_id: w.users.u1.id,
        modo: 'agregar',
      }),
    missing: (w) =>
      post(`/api/usuarios/${MISSING_ID}/productos/copiar`, {
        desde_usuario_id: w.users.u1.id,
        modo: 'agregar',
      }),
    caller: 'adm',
  },
  'POST /api/productos/asignar_lote': {
    req: (w) =>
      post('/api/productos/asignar_lote', {
        usuarios: [w.a.spare.id],
        categoria_id: w.a.cat.id,
        asignado: 1,
      }),
    missing: (w) =>
      post('/api/productos/asignar_lote', {
        usuarios: [MISSING_ID],
        categoria_id: w.a.cat.id,
        asignado: 1,
      }),
    caller: 'adm',
  },
  'GET /api/productos': { req: (w) => get(`/api/productos?id_cliente=${w.a.client.id}`), caller: 'adm' },
  'POST /api/productos/activar_lote': {
    req: (w) => post('/api/productos/activar_lote', { ids: [w.a.prod2.id], activo: 1 }),
    caller: 'adm',
  },
  'POST /api/productos': {
    req: (w) =>
      post('/api/productos', {
        id_cliente: w.a.client.id,
        id_categoria: w.a.cat.id,
        clave_interna: 'MATRIZ-1',
        nombre: 'Producto de la matriz',
        precio: 12.5,
      }),
    caller: 'adm',
  },
  'POST /api/productos/actualizar/:id': {
    req: (w) =>
      post(`/api/productos/actualizar/${w.a.prod2.id}`, {
        id_cliente: w.a.client.id,
        id_categoria: w.a.cat.id,
        clave_interna: w.a.prod2.claveInterna,
        nombre: 'Producto actualizado',
        precio: 30,
      }),
    caller: 'adm',
  },
  // Scheduled price changes (decision 0132): client A's second product, a month from today.
  'POST /api/productos/:id/precio_programado': {
    req: (w) =>
      post(`/api/productos/${w.a.prod2.id}/precio_programado`, {
        id_cliente: w.a.client.id,
        precio: 31,
        vigente_desde: addDays(businessDate(new Date()), 30),
      }),
    missing: (w) =>
      post(`/api/productos/${MISSING_ID}/precio_programado`, {
        id_cliente: w.a.client.id,
        precio: 31,
        vigente_desde: addDays(businessDate(new Date()), 30),
      }),
    caller: 'adm',
  },
  // A pending change made for each call, so each caller has one to cancel.
  'DELETE /api/productos/:id/precio_programado': {
    req: async (w) => {
      await w.db
        .insert(scheduledPrices)
        .values({
          productId: w.a.prod2.id,
          idCliente: w.a.client.id,
          precio: 3100,
          vigenteDesde: addDays(businessDate(new Date()), 30),
        })
        .onConflictDoNothing();
      return {
        method: 'DELETE',
        url: `/api/productos/${w.a.prod2.id}/precio_programado?id_cliente=${w.a.client.id}`,
      };
    },
    missing: (w) => ({
      method: 'DELETE',
      url: `/api/productos/${MISSING_ID}/precio_programado?id_cliente=${w.a.client.id}`,
    }),
    caller: 'adm',
  },
  'POST /api/productos/precios/vista_previa': {
    req: (w) =>
      post('/api/productos/precios/vista_previa', {
        id_cliente: w.a.client.id,
        cambios: [{ id: w.a.prod2.id, precio: 31 }],
      }),
    missing: (w) =>
      post('/api/productos/precios/vista_previa', {
        id_cliente: w.a.client.id,
        cambios: [{ id: MISSING_ID, precio: 31 }],
      }),
    caller: 'adm',
  },
  'GET /api/categorias': {
    req: (w) => get(`/api/categorias?id_cliente=${w.a.client.id}`),
    missing: () => get(`/api/categorias?id_cliente=${MISSING_ID}`),
    caller: 'adm',
  },
  'POST /api/categorias': {
    req: (w) =>
      post('/api/categorias', { nombre: 'Limpieza', icono: 'IconPackage', id_cliente: w.a.client.id }),
    caller: 'adm',
  },
  'POST /api/categorias/update/:id': {
    req: (w) => post(`/api/categorias/update/${w.a.cat.id}`, { nombre: 'Papelería A2', icono: 'IconPencil' }),
    caller: 'adm',
  },
  'GET /api/iconos': { req: () => get('/api/iconos'), caller: 'adm' },
  'POST /api/template/productos': {
    req: (w) => post('/api/template/productos', { id_cliente: w.a.client.id }),
    caller: 'adm',
  },
  'POST /api/template/usuarios': {
    req: (w) => post('/api/template/usuarios', { id_cliente: w.a.client.id }),
    caller: 'adm',
  },
  'POST /api/load/productos': {
    req: (w) => ({
      method: 'POST',
      url: '/api/load/productos',
      form: {
        fields: { id_cliente: w.a.client.id },
        files: { file: { filename: 'productos.csv', data: Buffer.from(w.templates.productos) } },
      },
    }),
    caller: 'adm',
  },
  'POST /api/template/asignaciones': {
    req: (w) => post('/api/template/asignaciones', { id_cliente: w.a.client.id }),
    caller: 'adm',
  },
  'POST /api/load/asignaciones': {
    req: (w) => ({
      method: 'POST',
      url: '/api/load/asignaciones',
      form: {
        fields: { id_cliente: w.a.client.id },
        files: { file: { filename: 'asignaciones.csv', data: Buffer.from(w.templates.asignaciones) } },
      },
    }),
    caller: 'adm',
  },
  'POST /api/load/usuarios': {
    req: (w) => ({
      method: 'POST',
      url: '/api/load/usuarios',
      form: {
        fields: { id_cliente: w.a.client.id },
        files: { file: { filename: 'usuarios.csv', data: Buffer.from(w.templates.usuarios) } },
      },
    }),
    caller: 'adm',
  },
  'POST /api/importaciones/productos/vista_previa': {
    req: (w) => ({
      method: 'POST',
      url: '/api/importaciones/productos/vista_previa',
      form: {
        fields: { id_cliente: w.a.client.id },
        files: { file: { filename: 'productos.csv', data: Buffer.from(w.templates.productos) } },
      },
    }),
    caller: 'adm',
  },
  'GET /api/importaciones': { req: () => get('/api/importaciones'), caller: 'adm' },
  'GET /api/importaciones/:id': {
    req: (w) => get(`/api/importaciones/${w.importJob.id}`),
    caller: 'adm',
  },
  'GET /api/importaciones/:id/errores.csv': {
    req: (w) => get(`/api/importaciones/${w.importJob.id}/errores.csv`),
    caller: 'adm',
  },
  'GET /api/integracion/tokens': { req: () => get('/api/integracion/tokens'), caller: 'adm' },
  'POST /api/integracion/tokens': {
    req: () =>
      post('/api/integracion/tokens', {
        nombre: 'ERP',
        id_cliente: null,
        permisos: ['pedidos:leer'],
        vigencia_dias: 30,
      }),
    caller: 'adm',
  },
  'POST /api/integracion/tokens/:id/revocar': {
    req: async (w) => post(`/api/integracion/tokens/${await tokenRow(w)}/revocar`),
    caller: 'adm',
  },
  'GET /api/integracion/webhooks': { req: () => get('/api/integracion/webhooks'), caller: 'adm' },
  'POST /api/integracion/webhooks': {
    // A public address literal, subscribed to an event nothing emits yet: the matrix never sends to it.
    req: (w) =>
      post('/api/integracion/webhooks', {
        url: 'https://8.8.8.8/recibir',
        eventos: ['pedido.surtido'],
        id_cliente: w.a.client.id,
      }),
    caller: 'adm',
  },
  'POST /api/integracion/webhooks/:id/desactivar': {
    req: async (w) => post(`/api/integracion/webhooks/${(await webhookRows(w, true)).endpoint}/desactivar`),
    caller: 'adm',
  },
  'GET /api/integracion/webhooks/:id/entregas': {
    req: async (w) => get(`/api/integracion/webhooks/${(await webhookRows(w)).endpoint}/entregas`),
    caller: 'adm',
  },
  'POST /api/integracion/entregas/:id/reenviar': {
    req: async (w) => post(`/api/integracion/entregas/${(await webhookRows(w)).delivery}/reenviar`),
    caller: 'adm',
  },
  // Bearer tokens only (decision 0059): no session opens it, so every caller of the matrix gets 401.
  'GET /api/v1/pedidos': { req: () => get('/api/v1/pedidos'), caller: 'anon' },
  'GET /api/v1/pedidos/:id': { req: (w) => get(`/api/v1/pedidos/${w.orders.view.id}`), caller: 'anon' },
  'GET /api/v1/reclamos': { req: () => get('/api/v1/reclamos'), caller: 'anon' },
  'POST /api/v1/pedidos/:id/surtido': {
    req: (w) => post(`/api/v1/pedidos/${w.orders.approved.id}/surtido`, { estado: 'en_surtido' }),
    caller: 'anon',
  },
  'POST /api/v1/pedidos/:id/envios': {
    req: (w) => post(`/api/v1/pedidos/${w.orders.approved.id}/envios`, { lineas: [{ id: 1, cantidad: 1 }] }),
    caller: 'anon',
  },
  // CFDI invoices by the integration API (decision 0131): bearer tokens with facturas:* only.
  'POST /api/v1/facturas': {
    req: (w) => post('/api/v1/facturas', { pedido: w.orders.approved.id, xml: '<x/>' }),
    caller: 'anon',
  },
  'GET /api/v1/facturas': { req: () => get('/api/v1/facturas'), caller: 'anon' },
  'GET /api/v1/facturas/:uuid': {
    req: () => get('/api/v1/facturas/00000000-0000-0000-0000-000000000000'),
    caller: 'anon',
  },
  'GET /api/v1/clientes/:id/datos-fiscales': {
    req: (w) => get(`/api/v1/clientes/${w.a.client.id}/datos-fiscales`),
    caller: 'anon',
  },
  // Stock by the integration API (decision 0124): bearer tokens with inventario:escribir only.
  'PUT /api/v1/productos/:clave/existencia': {
    req: (w) => ({
      method: 'PUT',
      url: `/api/v1/productos/${encodeURIComponent(w.a.prod.claveInterna)}/existencia`,
      body: { existencia: 5 },
    }),
    caller: 'anon',
  },
  'POST /api/v1/existencias': {
    req: (w) =>
      post('/api/v1/existencias', { existencias: [{ clave: w.a.prod.claveInterna, existencia: 5 }] }),
    caller: 'anon',
  },
  // SCIM provisioning (decision 0121): the client's SCIM bearer token only; no session opens it.
  'GET /scim/v2/ServiceProviderConfig': { req: () => get('/scim/v2/ServiceProviderConfig'), caller: 'anon' },
  'GET /scim/v2/ResourceTypes': { req: () => get('/scim/v2/ResourceTypes'), caller: 'anon' },
  'GET /scim/v2/Schemas': { req: () => get('/scim/v2/Schemas'), caller: 'anon' },
  'GET /scim/v2/Users': { req: () => get('/scim/v2/Users?filter=userName%20eq%20%22x%22'), caller: 'anon' },
  'GET /scim/v2/Users/:id': { req: (w) => get(`/scim/v2/Users/${w.a.spare.id}`), caller: 'anon' },
  'POST /scim/v2/Users': { req: () => post('/scim/v2/Users', { userName: 'scim.matriz' }), caller: 'anon' },
  'PUT /scim/v2/Users/:id': {
    req: (w) => ({ method: 'PUT', url: `/scim/v2/Users/${w.a.spare.id}`, body: { userName: 'scim.matriz' } }),
    caller: 'anon',
  },
  'PATCH /scim/v2/Users/:id': {
    req: (w) => ({ method: 'PATCH', url: `/scim/v2/Users/${w.a.spare.id}`, body: scimDeactivate }),
    caller: 'anon',
  },
  'DELETE /scim/v2/Users/:id': {
    req: (w) => ({ method: 'DELETE', url: `/scim/v2/Users/${w.a.spare.id}` }),
    caller: 'anon',
  },
  'GET /scim/v2/Groups': { req: () => get('/scim/v2/Groups'), caller: 'anon' },
  'GET /scim/v2/Groups/:id': { req: () => get('/scim/v2/Groups/rol-2'), caller: 'anon' },
  'POST /scim/v2/Groups': { req: () => post('/scim/v2/Groups', { displayName: 'Matriz' }), caller: 'anon' },
  'PUT /scim/v2/Groups/:id': {
    req: (w) => ({
      method: 'PUT',
      url: '/scim/v2/Groups/rol-2',
      body: { displayName: 'Autorizador', members: [{ value: String(w.a.spare.id) }] },
    }),
    caller: 'anon',
  },
  'PATCH /scim/v2/Groups/:id': {
    req: (w) => ({
      method: 'PATCH',
      url: '/scim/v2/Groups/rol-2',
      body: {
        schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
        Operations: [{ op: 'add', path: 'members', value: [{ value: String(w.a.spare.id) }] }],
      },
    }),
    caller: 'anon',
  },
  'DELETE /scim/v2/Groups/:id': {
    req: () => ({ method: 'DELETE', url: '/scim/v2/Groups/rol-2' }),
    caller: 'anon',
  },
  'GET /api/logs': {
    req: (w) => get(`/api/logs?id_cliente=${w.a.client.id}`),
    missing: () => get(`/api/logs?id_cliente=${MISSING_ID}`),
    caller: 'adm',
  },
  'GET /api/logs/tipos': { req: () => get('/api/logs/tipos'), caller: 'adm' },
  'GET /api/logs/exportar': {
    req: (w) => get(`/api/logs/exportar?id_cliente=${w.a.client.id}`),
    missing: () => get(`/api/logs/exportar?id_cliente=${MISSING_ID}`),
    caller: 'adm',
  },
  // Access weeks of client C (weeks of client A would close its buyer's access): another client's, and so
  // missing ones, for both client administrators.
  'GET /api/calendario_semanas': {
    req: (w) => get(`/api/calendario_semanas?id_cliente=${w.c.client.id}`),
    missing: () => get(`/api/calendario_semanas?id_cliente=${MISSING_ID}`),
    caller: 'adm',
  },
  'POST /api/calendario_semanas': {
    req: (w) =>
      post('/api/calendario_semanas', { inicio: '2030-03-04', fin: '2030-03-08', id_cliente: w.c.client.id }),
    missing: () =>
      post('/api/calendario_semanas', { inicio: '2030-03-04', fin: '2030-03-08', id_cliente: MISSING_ID }),
    caller: 'adm',
  },
  'GET /api/calendario_semanas/mes': {
    req: (w) => get(`/api/calendario_semanas/mes?id_cliente=${w.c.client.id}&mes=2031-01`),
    missing: () => get(`/api/calendario_semanas/mes?id_cliente=${MISSING_ID}&mes=2031-01`),
    caller: 'adm',
  },
  'POST /api/calendario_semanas/generar/vista_previa': {
    req: (w) => post('/api/calendario_semanas/generar/vista_previa', weekRule(w.c.client.id)),
    missing: () => post('/api/calendario_semanas/generar/vista_previa', weekRule(MISSING_ID)),
    caller: 'adm',
  },
  'POST /api/calendario_semanas/generar': {
    req: (w) => post('/api/calendario_semanas/generar', weekRule(w.c.client.id)),
    missing: () => post('/api/calendario_semanas/generar', weekRule(MISSING_ID)),
    caller: 'adm',
  },
  'PUT /api/calendario_semanas/:id': {
    req: (w) => ({
      method: 'PUT',
      url: `/api/calendario_semanas/${w.c.weekToggle.id}`,
      body: { activo: false },
    }),
    missing: () => ({ method: 'PUT', url: `/api/calendario_semanas/${MISSING_ID}`, body: { activo: false } }),
    caller: 'adm',
  },
  'POST /api/calendario_semanas/destroy/:id': {
    req: (w) => post(`/api/calendario_semanas/destroy/${w.c.weekDestroy.id}`),
    missing: () => post(`/api/calendario_semanas/destroy/${MISSING_ID}`),
    caller: 'adm',
  },
};

/** Other tenants and wrong roles first, the allowed callers last. */
export const CALL_ORDER: Actor[] = ['anon', 'u1b', 'u2b', 'u5b', 'u5', 'adm', 'u1', 'u2', 'u3'];

/** Sends a recipe's request as an actor; `xsrf` overrides the header (null: none), `head` sends HEAD. */
export async function send(
  w: World,
  actor: Actor,
  req: Req,
  opts: { head?: boolean; xsrf?: string | null } = {},
) {
  const api = w.api[actor];
  const xsrf = opts.xsrf === undefined ? {} : { xsrf: opts.xsrf };
  if (req.form) {
    const { body, headers } = multipart(req.form.fields, req.form.files ?? {});
    return api.request(req.method, req.url, body, { headers, ...xsrf });
  }
  if (opts.head) {
    // ApiClient speaks GET/POST/PUT; HEAD goes through the same cookies by hand.
    const cookie = [...api.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    return w.t.app.inject({
      method: 'HEAD',
      url: req.url,
      headers: cookie ? { cookie } : {},
      remoteAddress: api.ip,
    });
  }
  return api.request(req.method, req.url, req.body, xsrf);
}

function isWebFile(url: string): boolean {
  return (
    !url.startsWith('/api/') &&
    !url.includes(':') &&
    !url.includes('*') &&
    existsSync(path.join(WEB_DIST, url)) &&
    url !== '/'
  );
}

/** The route key a table row covers: HEAD twins of GET routes, and web files, share a row. */
export function tableKeyFor(key: RouteKey, keys: Set<RouteKey>): RouteKey {
  const [method, url] = key.split(' ') as [string, string];
  if ((method === 'GET' || method === 'HEAD') && isWebFile(url)) return WEB_FILES;
  if (method === 'HEAD' && keys.has(`GET ${url}`)) return `GET ${url}`;
  return key;
}
