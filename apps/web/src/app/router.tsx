/**
 * The screens' routes (README "Screens"), in react-router's declarative mode (the data router would add ~30 kB gzip to every
 * first load; docs/decisions/0029-front-end-budget.md). Each role area, the app shell and the public
 * screens are lazy, so each is a chunk of its own and the sign-in screen loads only what it needs.
 */

import { loginPathFor } from '@portal/shared/domain/return-path';
import { type Area, areaAllows, homeFor } from '@portal/shared/domain/role-areas';
import type { SessionResponse } from '@portal/shared/schemas/auth';
import { type ComponentType, lazy, type ReactNode, Suspense, useEffect } from 'react';
import { BrowserRouter, matchPath, Navigate, Route, Routes, useLocation, useNavigate } from 'react-router';
import { setApiHandlers } from '../lib/api';
import { CHANGE_PASSWORD_PATH, landingFor, TWO_FACTOR_ENROLMENT_PATH } from '../lib/auth';
import type { FirstData, FirstQuery, FirstScreenContext } from '../lib/boot-data';
import { FullPageLoader, RequireArea, RequireSession, RootRedirect } from './routes/guards';
import { RouteErrorBoundary } from './routes/route-error';
import { ScrollOnNavigation } from './scroll-on-navigation';

/** A chunk's loader that keeps the module once it has arrived. */
type Loader<M> = (() => Promise<M>) & { module?: M };

function loader<M>(load: () => Promise<M>): Loader<M> {
  const remembered: Loader<M> = () =>
    load().then((module) => {
      remembered.module = module;
      return module;
    });
  return remembered;
}

/**
 * A lazy screen: `pick` chooses the component from the loaded module. A module already here (the boot waited
 * for the first screen's, decision 0141) is handed over by a thenable that resolves at once: React renders the
 * screen in the same pass instead of suspending to the fallback first.
 */
function screen<M>(load: Loader<M>, pick: (module: M) => ComponentType): ComponentType {
  return lazy(() => {
    const here = load.module;
    if (here === undefined) return load().then((module) => ({ default: pick(module) }));
    const screen = { default: pick(here) };
    // biome-ignore lint/suspicious/noThenProperty: a thenable on purpose: React reads a synchronous one at once.
    return { then: (resolve: (value: typeof screen) => void) => resolve(screen) } as Promise<typeof screen>;
  });
}

const usuario = loader(() => import('./routes/usuario/pages'));
const autorizador = loader(() => import('./routes/autorizador/pages'));
const administrador = loader(() => import('./routes/administrador/pages'));
const cliente = loader(() => import('./routes/cliente/pages'));
const appShell = loader(() => import('./routes/app-shell'));
// The dashboards and their charts: chunks of their own, outside the role areas.
const autorizadorTablero = loader(() => import('./routes/autorizador/tablero'));
const administradorTablero = loader(() => import('./routes/administrador/tablero'));

/** A page module: its screens by name, and what some of them show first. */
type PageModule = {
  firstData?: Partial<Record<string, FirstData>>;
  [screen: string]: unknown;
};

/** A role area's pages: each path with the name its module exports the screen under. */
interface PageTable {
  area: Area;
  load: () => Promise<PageModule>;
  pages: Record<string, string>;
}

/** The performance mark set when the first screen's modules have loaded. */
const BOOT_MODULES_MARK = 'portal:modulos-de-arranque';

/**
 * The chunks of the screen first opened and, once the session is known, the data it shows first: asked for
 * at boot, before the first render (main.tsx; docs/decisions/0108-route-chunks-early.md and 0141). A link
 * opened while signed out still needs them right after the sign-in, which comes back to it.
 */
export async function loadFirstScreen(
  location: { pathname: string; search: string },
  session: Promise<SessionResponse | undefined>,
): Promise<FirstQuery[]> {
  const { pathname } = location;
  let found: { table: PageTable; name: string; params: FirstScreenContext['params'] } | null = null;
  for (const table of PAGE_TABLES) {
    for (const [path, name] of Object.entries(table.pages)) {
      const match = matchPath(`/${table.area}/${path}`, pathname);
      if (match) found ??= { table, name, params: match.params };
    }
  }
  if (!found) return [];
  // A failed download is not an error here: the route's own import retries it and shows its error.
  const chunks = Promise.all([found.table.load().catch(() => null), appShell().catch(() => undefined)]);
  const signedIn = await session;
  // Signed out: the sign-in screen comes now; the chunks go on downloading for after it.
  if (!signedIn) return [];
  const [module] = await chunks;
  // When the boot had its code (the page names these requests in its HTML, decision 0151; the browser test
  // checks that nothing fetched before this mark was left unnamed).
  performance.mark(BOOT_MODULES_MARK);
  const first = module?.firstData?.[found.name];
  // Not for a page the guards send elsewhere (another role's area, a forced screen first).
  if (!first || !areaAllows(found.table.area, signedIn.user.rol)) return [];
  if (landingFor(signedIn.user) !== homeFor(signedIn.user.rol)) return [];
  return first({
    session: signedIn,
    params: found.params,
    search: new URLSearchParams(location.search),
    pathname,
  });
}

/** A route module's screen (its `Component`). */
const routeModule = (load: Loader<{ Component: ComponentType }>) => screen(load, (m) => m.Component);

const AuthLayout = routeModule(loader(() => import('./routes/auth/layout')));
const Login = routeModule(loader(() => import('./routes/auth/login')));
const RecuperarAcceso = routeModule(loader(() => import('./routes/auth/recuperar-acceso')));
const Restablecer = routeModule(loader(() => import('./routes/auth/restablecer')));
const CambiarPassword = routeModule(loader(() => import('./routes/auth/cambiar-password')));
const ActivarVerificacion = routeModule(loader(() => import('./routes/auth/activar-verificacion')));
const AppLayout = routeModule(appShell);

/**
 * A role area's pages as routes: each path with the name its module exports the screen under. One lazy
 * screen per name, so two paths of one screen keep it mounted between them.
 */
function areaRoutes<M extends Record<N, ComponentType>, N extends string>(
  load: Loader<M>,
  pages: Record<string, N>,
): ReactNode[] {
  const byName = new Map<N, ComponentType>();
  return Object.entries<N>(pages).map(([path, name]) => {
    const Screen = byName.get(name) ?? screen(load, (m) => m[name]);
    byName.set(name, Screen);
    return <Route key={path} path={path} element={<Screen />} />;
  });
}

/** A role area: its guard, its home at its own address, and its pages. */
function areaRoute(area: Area, pages: ReactNode[]) {
  return (
    <Route path={area} element={<RequireArea area={area} />}>
      <Route index element={<Navigate to="principal" replace />} />
      {pages}
    </Route>
  );
}

const USUARIO_PAGES = {
  principal: 'Principal',
  'categoria/:id_categoria': 'Categoria',
  historial: 'Historial',
  'historial/:id': 'HistorialDetalle',
  carrito: 'Carrito',
  listas: 'Listas',
  'listas/:id': 'ListaDetalle',
  'pedido-rapido': 'PedidoRapido',
  recepcion: 'Recepcion',
  'recepcion/:id/:numero': 'RecepcionEnvio',
} as const;
const USUARIO = areaRoutes(usuario, USUARIO_PAGES);
/** The authorizers' Tablero, also the client administrator's (its own client, decision 0122). */
const TABLERO_PAGES = { tablero: 'Tablero' } as const;
const TABLERO = areaRoutes(autorizadorTablero, TABLERO_PAGES);
const AUTORIZADOR_PAGES = {
  principal: 'Pedidos',
  reportes: 'Pedidos',
  'orden/:id': 'Orden',
  ampliaciones: 'Ampliaciones',
  recepcion: 'Recepcion',
  'recepcion/:id/:numero': 'RecepcionEnvio',
  'estado-de-cuenta': 'EstadoDeCuenta',
} as const;
const AUTORIZADOR = [...areaRoutes(autorizador, AUTORIZADOR_PAGES), ...TABLERO];
const ADMINISTRADOR_PAGES = {
  principal: 'Principal',
  clientes: 'Clientes',
  usuarios: 'Usuarios',
  'usuarios/usuario/:user_id/productos': 'UsuarioProductos',
  'usuarios/sincronizar': 'Sincronizar',
  semanas: 'Semanas',
  areas: 'Areas',
  direcciones: 'Direcciones',
  ampliaciones: 'Ampliaciones',
  inventario: 'Inventario',
  logs: 'Logs',
  pedidos: 'Pedidos',
  integraciones: 'Integraciones',
  'pedidos/:id': 'Pedido',
  surtido: 'Surtido',
  reclamos: 'Reclamos',
  credito: 'Credito',
  'credito/:id': 'CreditoCliente',
} as const;
const ADMINISTRADOR = [
  ...areaRoutes(administrador, ADMINISTRADOR_PAGES),
  ...areaRoutes(administradorTablero, TABLERO_PAGES),
];
const CLIENTE_PAGES = {
  principal: 'Principal',
  usuarios: 'Usuarios',
  'usuarios/usuario/:user_id/productos': 'UsuarioProductos',
  sincronizar: 'Sincronizar',
  semanas: 'Semanas',
  reglas: 'Reglas',
  areas: 'Areas',
  direcciones: 'Direcciones',
  ampliaciones: 'Ampliaciones',
  registros: 'Registros',
  'estado-de-cuenta': 'EstadoDeCuenta',
} as const;
const CLIENTE = [...areaRoutes(cliente, CLIENTE_PAGES), ...TABLERO];

/** Every role area's pages, the dashboards first (their own chunks; «tablero» is no page of the areas' own). */
const PAGE_TABLES: PageTable[] = [
  { area: 'autorizador', load: autorizadorTablero, pages: TABLERO_PAGES },
  { area: 'cliente', load: autorizadorTablero, pages: TABLERO_PAGES },
  { area: 'administrador', load: administradorTablero, pages: TABLERO_PAGES },
  { area: 'usuario', load: usuario, pages: USUARIO_PAGES },
  { area: 'autorizador', load: autorizador, pages: AUTORIZADOR_PAGES },
  { area: 'administrador', load: administrador, pages: ADMINISTRADOR_PAGES },
  { area: 'cliente', load: cliente, pages: CLIENTE_PAGES },
];

const PUBLIC_PATHS = ['/login', '/recuperar-acceso', '/restablecer/'];

/** A screen for the signed out: no session to check. */
export const isPublicPath = (pathname: string) => PUBLIC_PATHS.some((p) => pathname.startsWith(p));

/**
 * Lets the HTTP client send people to /login, /cambiar-password or /activar-verificacion (it knows nothing
 * about the router).
 */
function ApiNavigation() {
  const navigate = useNavigate();
  const { pathname } = useLocation();
  useEffect(() => {
    setApiHandlers({
      // A 401 anywhere but the sign-in itself: the session is gone; sign-in comes back to this page. The
      // page is read when the answer arrives, not when this handler was set: a request still in flight
      // while "Cerrar sesión" leaves for /login must not send the person back with `volver`.
      onUnauthorized: () => {
        const here = window.location;
        if (!isPublicPath(here.pathname))
          void navigate(loginPathFor(here.pathname + here.search), { replace: true });
      },
      onPasswordChangeRequired: () => {
        if (pathname !== CHANGE_PASSWORD_PATH) void navigate(CHANGE_PASSWORD_PATH, { replace: true });
      },
      onTwoFactorEnrolmentRequired: () => {
        if (pathname !== TWO_FACTOR_ENROLMENT_PATH)
          void navigate(TWO_FACTOR_ENROLMENT_PATH, { replace: true });
      },
    });
  }, [navigate, pathname]);
  return null;
}

export function AppRouter() {
  return (
    <BrowserRouter>
      <RouteErrorBoundary>
        <ApiNavigation />
        <ScrollOnNavigation />
        <Suspense fallback={<FullPageLoader />}>
          <Routes>
            <Route index element={<RootRedirect />} />
            <Route element={<AuthLayout />}>
              <Route path="login" element={<Login />} />
              <Route path="recuperar-acceso" element={<RecuperarAcceso />} />
              <Route path="restablecer/:token" element={<Restablecer />} />
            </Route>
            <Route element={<RequireSession mode="password-change" />}>
              <Route path="cambiar-password" element={<CambiarPassword />} />
            </Route>
            <Route element={<RequireSession mode="two-factor-enrolment" />}>
              <Route path="activar-verificacion" element={<ActivarVerificacion />} />
            </Route>
            <Route element={<RequireSession mode="app" />}>
              <Route element={<AppLayout />}>
                {areaRoute('usuario', USUARIO)}
                {areaRoute('autorizador', AUTORIZADOR)}
                {areaRoute('administrador', ADMINISTRADOR)}
                {areaRoute('cliente', CLIENTE)}
              </Route>
            </Route>
            <Route path="*" element={<Navigate to="/login" replace />} />
          </Routes>
        </Suspense>
      </RouteErrorBoundary>
    </BrowserRouter>
  );
}
