import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { orders, users } from '../db/schema/index.ts';
import { MSG } from '../messages.ts';
import { makeOrder, makeUser, TEST_PASSWORD } from '../test/factories.ts';
import { ApiClient, DB_KINDS } from '../test/harness.ts';
import { CALL_ORDER, REQUESTS, send, tableKeyFor, WEB_FILES } from './route-table.ts';
import { ACTOR_LABEL, ACTORS, type Actor, describeRefusal, type RouteKey, useWorld } from './world.ts';

/**
 * The authorization matrix: every method and path of the app, for every kind of caller, with the status
 * it must answer. 401 = not signed in, 403 = a role that may not call it, 404 = another client's id (it
 * answers exactly like an id that does not exist: docs/domain.md "Tenancy"). The client administrators
 * (rol 5, decision 0122) have a column each: the administration routes they share with rol 4 within their
 * own client answer client A's administrator, and answer client B's for A's ids like missing ones; every
 * other administration route answers them 403. Public rows are public on
 * purpose: health, the CSRF cookie, the API description, content-addressed images (decision 0009) and
 * the sign-in and recovery calls. A route the app serves without a row here fails the suite, so a new
 * route cannot ship without a decision about who may call it. The requests themselves (real ids of
 * client A's rows) are in route-table.ts.
 */
type Expect = Record<Actor, number>;

const all = (s: number): Expect => ({ anon: s, u1: s, u1b: s, u2: s, u3: s, adm: s, u2b: s, u5: s, u5b: s });
const signedIn = (s: number): Expect => ({ ...all(s), anon: 401 });
const admin = (s: number): Expect => ({ ...all(403), anon: 401, adm: s });
const buyer = (own: number, otherClient = own): Expect => ({
  ...all(403),
  anon: 401,
  u1: own,
  u1b: otherClient,
});
/** Roles 2, 3, 4 and 5, each on its own account (two-factor sign-in). */
const secondFactor = (s: number): Expect => ({
  ...all(403),
  anon: 401,
  u2: s,
  u3: s,
  adm: s,
  u2b: s,
  u5: s,
  u5b: s,
});
const authorizer = (own: number, otherClient = own): Expect => ({
  ...all(403),
  anon: 401,
  u2: own,
  u3: own,
  u2b: otherClient,
});
/** The bell, the live updates and the phone's notices: every role but rol 5, which gets no notices. */
const withNotices = (s: number): Expect => ({ ...signedIn(s), u5: 403, u5b: 403 });
/**
 * Rol 4, and rol 5 within its own client: client A's administrator gets `own`, client B's `otherClient`
 * (A's ids are another client's: answered like missing ones).
 */
const clientAdmin = (s: number, own = s, otherClient = 404): Expect => ({
  ...admin(s),
  u5: own,
  u5b: otherClient,
});
/**
 * Receivers named by the client (decision 0130): the world's rol 1 and rol 2 of each client carry the flag,
 * rol 3 does not (403, like a role outside the area).
 */
const receiver = (own: number, otherClient = own): Expect => ({
  ...all(403),
  anon: 401,
  u1: own,
  u2: own,
  u1b: otherClient,
  u2b: otherClient,
});
/** Rol 5 only, each on its own client. */
const clientAdminOnly = (s: number): Expect => ({ ...all(403), anon: 401, u5: s, u5b: s });

const EXPECTED: Record<RouteKey, Expect> = {
  'GET /healthz': all(200),
  [WEB_FILES]: all(200),
  'GET /sanctum/csrf-cookie': all(204),
  'GET /api/docs': all(200),
  'HEAD /api/docs/': all(200),
  'GET /api/docs/static/index.html': all(302),
  'GET /api/docs/static/swagger-initializer.js': all(200),
  'GET /api/docs/static/*': all(200),
  'GET /api/docs/json': all(200),
  'GET /api/docs/yaml': all(200),
  'GET /api/img/:imagen': all(200),
  'POST /api/login': all(401),
  'POST /api/recuperar-password': all(200),
  'POST /api/restablecer/verificar': all(400),
  'POST /api/restablecer-password': all(400),
  'GET /api/sesion': signedIn(200),
  'POST /api/repassword': signedIn(400),
  'GET /api/logout': all(200),
  // Single sign-on (decision 0120): the sign-in page's calls; the start and the callback are navigations
  // that always answer with a redirect (here to /login?sso=…).
  'POST /api/sso/descubrir': all(200),
  'GET /api/sso/iniciar': all(302),
  'GET /api/sso/retorno': all(302),
  'POST /api/login/2fa': all(401),
  'GET /api/2fa': secondFactor(200),
  'POST /api/2fa/iniciar': secondFactor(200),
  'POST /api/2fa/activar': secondFactor(200),
  'POST /api/2fa/codigos-respaldo': secondFactor(200),
  // A wrong password: refused with 400; for rol 5 two-factor sign-in is mandatory: 403 before the password.
  'POST /api/2fa/desactivar': { ...secondFactor(400), u5: 403, u5b: 403 },
  'GET /api/resource/:clientId/:documento': {
    anon: 401,
    u1: 200,
    u1b: 404,
    u2: 200,
    u3: 200,
    adm: 200,
    u2b: 404,
    u5: 200,
    u5b: 404,
  },
  'GET /api/catalogo': buyer(200),
  'GET /api/carrito': buyer(200),
  'POST /api/carrito/nuevo_item': buyer(200, 404),
  'POST /api/carrito/eliminar_item': buyer(200, 404),
  'POST /api/carrito/vaciar_carrito': buyer(200),
  'POST /api/compra': buyer(201, 409),
  'GET /api/historial': buyer(200),
  'GET /api/historial/:id': buyer(200, 404),
  'GET /api/historial/:id/pdf': buyer(200, 404),
  'GET /api/historial/:id/envios/:numero/remision': buyer(200, 404),
  'POST /api/historial/:id/recibido': buyer(200, 404),
  // Receipts, claims and their photos (decision 0127): the buyer's own orders.
  'POST /api/historial/:id/envios/:numero/recepcion': buyer(200, 404),
  'POST /api/historial/:id/reclamos': buyer(200, 404),
  'POST /api/historial/:id/fotos': buyer(200, 404),
  'GET /api/historial/:id/fotos/:foto': buyer(200, 404),
  'GET /api/historial/gasto': buyer(200),
  'POST /api/historial/:id/repetir': buyer(200, 404),
  'POST /api/historial/:id/retirar': buyer(200, 404),
  'GET /api/historial/:id/comentarios': buyer(200, 404),
  'POST /api/historial/:id/comentarios': buyer(201, 404),
  'POST /api/pedido-rapido': buyer(200),
  'GET /api/listas': buyer(200),
  'POST /api/listas': buyer(201, 422),
  'GET /api/listas/:id': buyer(200, 404),
  'PUT /api/listas/:id': buyer(200, 404),
  'DELETE /api/listas/:id': buyer(200, 404),
  'POST /api/listas/:id/al-carrito': buyer(200, 404),
  'GET /api/pedidos': authorizer(200),
  'GET /api/pedidos/:id': authorizer(200, 404),
  'GET /api/pedidos/:id/pdf': authorizer(200, 404),
  'GET /api/pedidos/:id/envios/:numero/remision': authorizer(200, 404),
  'GET /api/pedidos/:id/fotos/:foto': authorizer(200, 404),
  'GET /api/pedidos/:id/siguiente': authorizer(200, 404),
  'POST /api/update/compra': authorizer(200, 404),
  'GET /api/pedidos/:id/comentarios': authorizer(200, 404),
  'POST /api/pedidos/:id/comentarios': authorizer(201, 404),
  'POST /api/cancelar/compra/:id': authorizer(200, 404),
  // Only the second level sends an order back (decision 0111): rol 2 gets 403.
  'POST /api/pedidos/:id/devolver': { ...authorizer(200, 404), u2: 403 },
  // Another client's authorizer: 200 with its row reading "the order does not exist" (asserted below).
  'POST /api/pedidos/aprobar-lote': authorizer(200),
  'POST /api/pedidos/cancelar-lote': authorizer(200),
  'GET /api/tablero': { ...authorizer(200, 404), adm: 200, u5: 200, u5b: 404 },
  'GET /api/notificaciones': withNotices(200),
  'POST /api/notificaciones/leidas': withNotices(200),
  'POST /api/notificaciones/:id/leida': { ...all(404), anon: 401, u1: 200, u5: 403, u5b: 403 },
  'GET /api/notificaciones/preferencias': withNotices(200),
  'PUT /api/notificaciones/preferencias': withNotices(200),
  'GET /api/eventos': withNotices(200),
  'GET /api/push/clave': withNotices(200),
  'POST /api/push/suscripciones': withNotices(200),
  'DELETE /api/push/suscripciones': withNotices(200),
  'GET /api/delegacion': authorizer(200),
  // Another client's authorizer naming client A's user: 400, exactly like a delegate that does not exist.
  'PUT /api/delegacion': authorizer(200, 400),
  'DELETE /api/delegacion': authorizer(200),
  'POST /api/reporte/autorizador': { ...authorizer(200), u5: 200, u5b: 200 },
  'POST /api/reporte/autorizador/productos/detalle': { ...authorizer(200), u5: 200, u5b: 200 },
  // The client administrator's own client (decision 0122).
  'GET /api/cliente': clientAdminOnly(200),
  'PUT /api/cliente/reglas': clientAdminOnly(200),
  'POST /api/cliente/sincronizar': clientAdmin(200),
  // Budgets above a client's cap: read by both administrators, decided by the distributor only.
  'GET /api/presupuestos/solicitudes': clientAdmin(200),
  'GET /api/areas': clientAdmin(200),
  'POST /api/areas': clientAdmin(201),
  'PUT /api/areas/:id': clientAdmin(200),
  'DELETE /api/areas/:id': clientAdmin(200),
  'POST /api/areas/transferencias': clientAdmin(200),
  'GET /api/direcciones': clientAdmin(200),
  'POST /api/direcciones': clientAdmin(201),
  'PUT /api/direcciones/:id': clientAdmin(200),
  'DELETE /api/direcciones/:id': clientAdmin(200),
  'GET /api/usuarios/:id/direcciones': clientAdmin(200),
  'PUT /api/usuarios/:id/direcciones': clientAdmin(200),
  'GET /api/carrito/direcciones': buyer(200),
  // Receivers named by the client (decision 0130): named by the administrators, and their own area.
  'GET /api/usuarios/:id/receptor': clientAdmin(200),
  'PUT /api/usuarios/:id/receptor': clientAdmin(200),
  'GET /api/recepcion': receiver(200),
  'GET /api/recepcion/:id/envios/:numero': receiver(200, 404),
  'POST /api/recepcion/:id/envios/:numero/recepcion': receiver(200, 404),
  'POST /api/recepcion/:id/fotos': receiver(200, 404),
  'GET /api/recepcion/:id/fotos/:foto': receiver(200, 404),
  'POST /api/ampliaciones': buyer(201),
  'GET /api/ampliaciones': signedIn(200),
  // A buyer is not a decider (403); client A's approver decides only its áreas' (it has none: missing).
  'POST /api/ampliaciones/:id/aprobar': { ...clientAdmin(200), u2: 404, u3: 200, u2b: 404 },
  'POST /api/ampliaciones/:id/rechazar': { ...clientAdmin(200), u2: 404, u3: 200, u2b: 404 },
  'POST /api/presupuestos/solicitudes/:id/aprobar': admin(200),
  'POST /api/presupuestos/solicitudes/:id/rechazar': admin(200),
  'GET /api/admin/resumen': admin(200),
  'GET /api/clientes': admin(200),
  'GET /api/clientes/:id/resumen': admin(200),
  'POST /api/clientes': admin(201),
  'POST /api/clientes/update/:id': admin(200),
  'PUT /api/clientes/:id/datos-fiscales': clientAdmin(200),
  'GET /api/clients/:id/sso': clientAdmin(200),
  'PUT /api/clients/:id/sso': clientAdmin(200),
  'DELETE /api/clients/:id/sso': clientAdmin(200),
  // A client's SCIM token (decision 0121).
  'GET /api/clients/:id/scim/token': clientAdmin(200),
  'POST /api/clients/:id/scim/token': clientAdmin(201),
  'DELETE /api/clients/:id/scim/token': clientAdmin(200),
  'GET /api/usuarios': clientAdmin(200),
  'GET /api/usuarios/:id': clientAdmin(200),
  'GET /api/buscar': admin(200),
  'GET /api/admin/pedidos': admin(200),
  'GET /api/admin/pedidos/:id': admin(200),
  'GET /api/admin/pedidos/:id/comentarios': admin(200),
  'GET /api/surtido': admin(200),
  'POST /api/surtido/exportar': admin(200),
  'POST /api/surtido/lista': admin(200),
  'POST /api/surtido/estado-lote': admin(200),
  'POST /api/surtido/guias': admin(200),
  'POST /api/surtido/:id/estado': admin(200),
  'POST /api/surtido/:id/liberar': admin(200),
  'GET /api/estado-cuenta': { ...authorizer(200, 404), adm: 200, u5: 200, u5b: 404 },
  'GET /api/estado-cuenta/descarga': { ...authorizer(200, 404), adm: 200, u5: 200, u5b: 404 },
  'GET /api/credito/clientes': admin(200),
  'POST /api/surtido/:id/envios': admin(200),
  'POST /api/surtido/:id/lineas/:linea/cancelar': admin(200),
  'POST /api/surtido/:id/promesa': admin(200),
  'GET /api/surtido/:id/pdf': admin(200),
  'GET /api/surtido/:id/envios/:numero/remision': admin(200),
  'GET /api/surtido/:id/fotos/:foto': admin(200),
  'GET /api/surtido/reclamos': admin(200),
  'POST /api/surtido/:id/facturas': admin(200),
  'GET /api/surtido/:id/facturas': admin(200),
  'GET /api/surtido/:id/facturas/:uuid/xml': admin(200),
  'GET /api/surtido/:id/facturas/:uuid/pdf': admin(200),
  'POST /api/surtido/:id/facturas/:uuid/aceptar-diferencia': admin(200),
  'GET /api/historial/:id/facturas': buyer(200, 404),
  'GET /api/historial/:id/facturas/:uuid/xml': buyer(200, 404),
  'GET /api/historial/:id/facturas/:uuid/pdf': buyer(200, 404),
  'GET /api/pedidos/:id/facturas': authorizer(200, 404),
  'GET /api/pedidos/:id/facturas/:uuid/xml': authorizer(200, 404),
  'GET /api/pedidos/:id/facturas/:uuid/pdf': authorizer(200, 404),
  'GET /api/cliente/pedidos/:id/facturas': { ...clientAdminOnly(200), u5b: 404 },
  'GET /api/cliente/pedidos/:id/facturas/:uuid/xml': { ...clientAdminOnly(200), u5b: 404 },
  'GET /api/cliente/pedidos/:id/facturas/:uuid/pdf': { ...clientAdminOnly(200), u5b: 404 },
  'POST /api/surtido/reclamos/:id': admin(200),
  'POST /api/usuarios': clientAdmin(201),
  'PUT /api/usuarios/:id': clientAdmin(200),
  'POST /api/usuarios/desactivar_lote': clientAdmin(200),
  'GET /api/usuarios/accesos-sin-enviar': admin(200),
  'POST /api/usuarios/reenviar-acceso': clientAdmin(200),
  'GET /api/usuarios/:id/delegacion': admin(200),
  'PUT /api/usuarios/:id/delegacion': admin(200),
  'DELETE /api/usuarios/:id/delegacion': admin(200),
  'POST /api/recuperar/password/:id': clientAdmin(200),
  'POST /api/recuperar/2fa/:id': admin(200),
  'GET /api/usuarios/:id/productos': clientAdmin(200),
  'POST /api/productos/asignar': clientAdmin(200),
  'POST /api/productos/asignar_todos': clientAdmin(200),
  'POST /api/usuarios/:id/productos/copiar': clientAdmin(200),
  'POST /api/productos/asignar_lote': clientAdmin(200),
  'GET /api/productos': admin(200),
  'POST /api/productos/activar_lote': admin(200),
  'POST /api/productos': admin(201),
  'POST /api/productos/actualizar/:id': admin(200),
  'POST /api/productos/:id/precio_programado': admin(200),
  'DELETE /api/productos/:id/precio_programado': admin(200),
  'POST /api/productos/precios/vista_previa': admin(200),
  'GET /api/categorias': clientAdmin(200),
  'POST /api/categorias': admin(201),
  'POST /api/categorias/update/:id': admin(200),
  'GET /api/iconos': admin(200),
  'POST /api/template/productos': admin(200),
  // A client administrator imports its own client's people and their products (never products).
  'POST /api/template/usuarios': clientAdmin(200),
  'POST /api/template/asignaciones': clientAdmin(200),
  'POST /api/load/productos': admin(202),
  'POST /api/load/usuarios': clientAdmin(202),
  'POST /api/load/asignaciones': clientAdmin(202),
  'POST /api/importaciones/productos/vista_previa': admin(200),
  'GET /api/importaciones': { ...admin(200), u5: 200, u5b: 200 },
  'GET /api/importaciones/:id': clientAdmin(200),
  'GET /api/importaciones/:id/errores.csv': clientAdmin(200),
  'GET /api/integracion/tokens': admin(200),
  'POST /api/integracion/tokens': admin(201),
  'POST /api/integracion/tokens/:id/revocar': admin(200),
  'GET /api/integracion/webhooks': admin(200),
  'POST /api/integracion/webhooks': admin(201),
  'POST /api/integracion/webhooks/:id/desactivar': admin(200),
  'GET /api/integracion/webhooks/:id/entregas': admin(200),
  'POST /api/integracion/entregas/:id/reenviar': admin(200),
  // Bearer tokens only: a session of any role is not a credential there (v1.api.test.ts tests the tokens).
  'GET /api/v1/pedidos': all(401),
  'GET /api/v1/pedidos/:id': all(401),
  'GET /api/v1/reclamos': all(401),
  'POST /api/v1/pedidos/:id/surtido': all(401),
  'POST /api/v1/pedidos/:id/envios': all(401),
  'PUT /api/v1/productos/:clave/existencia': all(401),
  'POST /api/v1/existencias': all(401),
  'GET /api/v1/clientes/:id/datos-fiscales': all(401),
  'POST /api/v1/facturas': all(401),
  'GET /api/v1/facturas': all(401),
  'GET /api/v1/facturas/:uuid': all(401),
  // SCIM provisioning (decision 0121): the client's SCIM bearer token only, like /api/v1 (scim.api.test.ts
  // tests the tokens, the tenancy and the answers).
  'GET /scim/v2/ServiceProviderConfig': all(401),
  'GET /scim/v2/ResourceTypes': all(401),
  'GET /scim/v2/Schemas': all(401),
  'GET /scim/v2/Users': all(401),
  'GET /scim/v2/Users/:id': all(401),
  'POST /scim/v2/Users': all(401),
  'PUT /scim/v2/Users/:id': all(401),
  'PATCH /scim/v2/Users/:id': all(401),
  'DELETE /scim/v2/Users/:id': all(401),
  'GET /scim/v2/Groups': all(401),
  'GET /scim/v2/Groups/:id': all(401),
  'POST /scim/v2/Groups': all(401),
  'PUT /scim/v2/Groups/:id': all(401),
  'PATCH /scim/v2/Groups/:id': all(401),
  'DELETE /scim/v2/Groups/:id': all(401),
  'GET /api/logs': clientAdmin(200),
  'GET /api/logs/tipos': clientAdmin(200, 200, 200),
  'GET /api/logs/exportar': clientAdmin(200),
  // Client C's weeks: another client's for both client administrators.
  'GET /api/calendario_semanas': clientAdmin(200, 404),
  'POST /api/calendario_semanas': clientAdmin(201, 404),
  'GET /api/calendario_semanas/mes': clientAdmin(200, 404),
  'POST /api/calendario_semanas/generar/vista_previa': clientAdmin(200, 404),
  'POST /api/calendario_semanas/generar': clientAdmin(200, 404),
  'PUT /api/calendario_semanas/:id': clientAdmin(200, 404),
  'POST /api/calendario_semanas/destroy/:id': clientAdmin(200, 404),
};

describe.each(DB_KINDS)('authorization matrix (%s)', (kind) => {
  const w = useWorld(kind);

  it('every route of the app has a row in the table, and every row is a route of the app', () => {
    expect(w.routes.keys.size).toBeGreaterThan(60);
    const covered = [...w.routes.keys].map((k) => tableKeyFor(k, w.routes.keys));
    const missing = covered.filter((k) => !(k in EXPECTED));
    expect(missing, 'rutas sin fila en la matriz de autorización').toEqual([]);
    const noRecipe = covered.filter((k) => !(k in REQUESTS));
    expect(noRecipe, 'rutas sin receta en route-table.ts').toEqual([]);
    const served = new Set(covered);
    const stale = [...Object.keys(EXPECTED), ...Object.keys(REQUESTS)].filter(
      (k) => !served.has(k as RouteKey) && k !== WEB_FILES,
    );
    expect(stale, 'filas de la matriz sin ruta').toEqual([]);
    // The caller each recipe names for the fuzzer and the CSRF sweep really is allowed.
    for (const [key, recipe] of Object.entries(REQUESTS) as [RouteKey, (typeof REQUESTS)[RouteKey]][])
      expect(EXPECTED[key]![recipe.caller], `${key} como ${recipe.caller}`).not.toBeOneOf(
        recipe.caller === 'anon' ? [403, 404] : [401, 403, 404],
      );
  });

  it('each caller gets exactly the expected status on every route; refusals are Spanish JSON', async () => {
    const failures: string[] = [];
    const webBuilt = [...w.routes.keys].some((k) => tableKeyFor(k, w.routes.keys) === WEB_FILES);
    const rows = (Object.entries(REQUESTS) as [RouteKey, (typeof REQUESTS)[RouteKey]][]).filter(
      ([key]) => key !== WEB_FILES || webBuilt,
    );
    const ordered = [...rows.filter(([, r]) => !r.last), ...rows.filter(([, r]) => r.last)];
    let calls = 0;
    for (const [key, row] of ordered) {
      for (const actor of CALL_ORDER) {
        const req = await row.req(w, actor);
        const headTwin =
          req.method === 'GET' &&
          (key === WEB_FILES || w.routes.keys.has(`HEAD ${key.slice(4)}` as RouteKey));
        const want = EXPECTED[key]![actor];
        const res = await send(w, actor, req);
        calls++;
        const where = `${key} como ${ACTOR_LABEL[actor]} (${req.url})`;
        if (res.statusCode !== want) {
          failures.push(`${where}: ${res.statusCode} en vez de ${want} — ${res.body.slice(0, 160)}`);
          continue;
        }
        if (want >= 400 && ![400, 409].includes(want)) {
          const problem = describeRefusal(res);
          if (problem) failures.push(`${where}: ${problem}`);
        }
        if (want === 404 && row.missing) {
          const gone = await send(w, actor, row.missing(w, actor));
          if (gone.statusCode !== res.statusCode || gone.body !== res.body)
            failures.push(
              `${where}: el id de otro cliente responde distinto de un id inexistente (${gone.statusCode} ${gone.body.slice(0, 120)} / ${res.body.slice(0, 120)})`,
            );
        }
        if (headTwin && !row.last && key !== 'GET /sanctum/csrf-cookie') {
          const head = await send(w, actor, req, { head: true });
          if (head.statusCode !== res.statusCode)
            failures.push(
              `HEAD ${req.url} como ${ACTOR_LABEL[actor]}: ${head.statusCode} en vez de ${res.statusCode}`,
            );
        }
      }
    }
    expect(failures).toEqual([]);
    expect(calls).toBe(ordered.length * ACTORS.length);
  });

  it('the state-changing calls were really made by the allowed callers only', async () => {
    const { orders } = await import('../db/schema/index.ts');
    const { inArray } = await import('drizzle-orm');
    const rows = await w.db
      .select({ id: orders.id, status: orders.status })
      .from(orders)
      .where(
        inArray(orders.id, [
          w.orders.approveByRol2.id,
          w.orders.approveByRol3.id,
          w.orders.cancelByRol2.id,
          w.orders.cancelByRol3.id,
          w.orders.view.id,
          w.orders.withdraw.id,
        ]),
      );
    const status = Object.fromEntries(rows.map((r) => [r.id, r.status]));
    expect(status[w.orders.approveByRol2.id]).toBe('espera');
    expect(status[w.orders.approveByRol3.id]).toBe('aprobado');
    expect(status[w.orders.cancelByRol2.id]).toBe('cancelado');
    expect(status[w.orders.cancelByRol3.id]).toBe('cancelado');
    expect(status[w.orders.view.id]).toBe('pendiente');
    expect(status[w.orders.withdraw.id]).toBe('cancelado');
    const { savedLists } = await import('../db/schema/index.ts');
    const lists = await w.db
      .select({ id: savedLists.id, nombre: savedLists.nombre })
      .from(savedLists)
      .where(eq(savedLists.userId, w.users.u1.id));
    expect(lists.map((l) => l.nombre).sort()).toEqual(['Lista de la matriz', 'Lista u1']);
  });

  it('separation of duties: after role changes, nobody reviews their own order or gives both approvals', async () => {
    const client = w.a.client;
    const signIn = async (u: { usuario: string }, ip: string) =>
      new ApiClient(w.t.app, ip).loginOk(u.usuario, TEST_PASSWORD);
    /** A role change as an administrator makes it, then a new sign-in. */
    const promote = async (u: { id: number; usuario: string }, rol: number, ip: string) => {
      await w.db.update(users).set({ rol }).where(eq(users.id, u.id));
      return signIn(u, ip);
    };
    const statusOf = async (id: number) =>
      (await w.db.select({ s: orders.status }).from(orders).where(eq(orders.id, id)))[0]!.s;
    const line = { productId: w.a.prod.id, precio: w.a.prod.precio, cantidad: 1, idCategoria: w.a.cat.id };
    const approve = (api: ApiClient, id: number) =>
      api.post('/api/update/compra', { id, orden: [{ id: w.a.prod.id, cantidad: 1 }] });
    const cancel = (api: ApiClient, id: number) => api.post(`/api/cancelar/compra/${id}`, { motivo: 'x' });
    const refusals: string[] = [];
    // The world's actors were signed out by the matrix; two other reviewers of client A.
    const reviewer2 = await signIn(await makeUser(w.db, { rol: 2, idCliente: client.id }), '10.20.1.5');
    const reviewer3 = await signIn(await makeUser(w.db, { rol: 3, idCliente: client.id }), '10.20.1.6');
    const expectRefused = (
      res: Awaited<ReturnType<typeof approve>>,
      code: string,
      msg: string,
      what: string,
    ) => {
      const body = res.json();
      // Two approvals by one person is a conflict with the order's history (409); everything else 403.
      const status = code === 'SAME_APPROVER' ? 409 : 403;
      if (res.statusCode !== status || body.code !== code || body.msg !== msg)
        refusals.push(`${what}: ${res.statusCode} ${res.body.slice(0, 160)}`);
    };

    // Placed as rol 1; then rol 2, then rol 3: never theirs to approve or cancel, at either level.
    const placer = await makeUser(w.db, { rol: 1, idCliente: client.id, nombre: 'Compra y revisa' });
    const own = await makeOrder(w.db, { idUser: placer.id, idCliente: client.id, lines: [line] });
    const placerRol2 = await promote(placer, 2, '10.20.1.1');
    expectRefused(await approve(placerRol2, own.id), 'OWN_ORDER', MSG.pedidoPropio, 'rol 2 aprueba el suyo');
    expectRefused(await cancel(placerRol2, own.id), 'OWN_ORDER', MSG.pedidoPropio, 'rol 2 cancela el suyo');
    expect(await statusOf(own.id)).toBe('pendiente');
    expect((await approve(reviewer2, own.id)).statusCode).toBe(200);
    const placerRol3 = await promote(placer, 3, '10.20.1.2');
    expectRefused(await approve(placerRol3, own.id), 'OWN_ORDER', MSG.pedidoPropio, 'rol 3 aprueba el suyo');
    expectRefused(await cancel(placerRol3, own.id), 'OWN_ORDER', MSG.pedidoPropio, 'rol 3 cancela el suyo');
    expect(await statusOf(own.id)).toBe('espera');

    // Gave level 1 as rol 2; promoted to rol 3, cannot give level 2 of the same order.
    const approver = await makeUser(w.db, { rol: 2, idCliente: client.id, nombre: 'Dos niveles' });
    const order = await makeOrder(w.db, { idUser: w.users.u1.id, idCliente: client.id, lines: [line] });
    expect((await approve(await signIn(approver, '10.20.1.3'), order.id)).statusCode).toBe(200);
    expect(await statusOf(order.id)).toBe('espera');
    const approverRol3 = await promote(approver, 3, '10.20.1.4');
    expectRefused(
      await approve(approverRol3, order.id),
      'SAME_APPROVER',
      MSG.segundaAutorizacionOtraPersona,
      'el del nivel 1 da el nivel 2',
    );
    expect(refusals).toEqual([]);
    expect(await statusOf(order.id)).toBe('espera');

    // Other people can.
    expect((await approve(reviewer3, order.id)).statusCode).toBe(200);
    expect((await approve(reviewer3, own.id)).statusCode).toBe(200);
    expect([await statusOf(order.id), await statusOf(own.id)]).toEqual(['aprobado', 'aprobado']);
  });
});
