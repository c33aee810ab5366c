/**
 * The screens' routes (README "Screens"), in react-router's declarative mode (the data router would add ~30 kB gzip to every
 * first load; docs/decisions/0029-front-end-budget.md). Each role area, the app shell and the public
 * screens are lazy, so each is a chunk of its own and the sign-in screen loads only what it needs.
 */

import { loginPathFor } from '@portal/shared/domain/return-path';
import type { Area } from '@portal/shared/domain/role-areas';
import { type ComponentType, lazy, type ReactNode, Suspense, useEffect } from 'react';
import { BrowserRouter, Navigate, Route, Routes, useLocation, useNavigate } from 'react-router';
import { setApiHandlers } from '../lib/api';
import { CHANGE_PASSWORD_PATH, TWO_FACTOR_ENROLMENT_PATH } from '../lib/auth';
import { FullPageLoader, RequireArea, RequireSession, RootRedirect } from './routes/guards';
import { RouteErrorBoundary } from './routes/route-error';
import { ScrollOnNavigation } from './scroll-on-navigation';

/** A lazy screen: `pick` chooses the component from the loaded module. */
function screen<M>(load: () => Promise<M>, pick: (module: M) => ComponentType): ComponentType {
  return lazy(() => load().then((module) => ({ default: pick(module) })));
}

const usuario = () => import('./routes/usuario/pages');
const autorizador = () => import('./routes/autorizador/pages');
const administrador = () => import('./routes/administrador/pages');
const cliente = () => import('./routes/cliente/pages');
// The dashboards carry the charts library: chunks of their own, outside the role areas.
const autorizadorTablero = () => import('./routes/autorizador/tablero');
const administradorTablero = () => import('./routes/administrador/tablero');

/**
 * The chunks of the screen first opened, asked for right after the session's request (the guard's effect
 * runs before its parent's) instead of after its answer and then after the app shell's
 * (docs/decisions/0108-route-chunks-early.md). A link opened while signed out still needs them right after
 * the sign-in, which comes back to it.
 */
function warmRouteChunks(pathname: string): void {
  const [, area, page] = pathname.split('/');
  const load =
    area === 'usuario'
      ? usuario
      : area === 'autorizador'
        ? page === 'tablero'
          ? autorizadorTablero
          : autorizador
        : area === 'administrador'
          ? page === 'tablero'
            ? administradorTablero
            : administrador
          : area === 'cliente'
            ? cliente
            : null;
  if (!load) return;
  // A failed download is not an error here: the route's own import retries it and shows its error.
  void import('./routes/app-shell').catch(() => undefined);
  void load().catch(() => undefined);
}

/** A route module's screen (its `Component`). */
const routeModule = (load: () => Promise<{ Component: ComponentType }>) => screen(load, (m) => m.Component);

const AuthLayout = routeModule(() => import('./routes/auth/layout'));
const Login = routeModule(() => import('./routes/auth/login'));
const RecuperarAcceso = routeModule(() => import('./routes/auth/recuperar-acceso'));
const Restablecer = routeModule(() => import('./routes/auth/restablecer'));
const CambiarPassword = routeModule(() => import('./routes/auth/cambiar-password'));
const ActivarVerificacion = routeModule(() => import('./routes/auth/activar-verificacion'));
const AppLayout = routeModule(() => import('./routes/app-shell'));

/**
 * A role area's pages as routes: each path with the name its module exports the screen under. One lazy
 * screen per name, so two paths of one screen keep it mounted between them.
 */
function areaRoutes<M extends Record<N, ComponentType>, N extends string>(
  load: () => Promise<M>,
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

const USUARIO = areaRoutes(usuario, {
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
});
/** The authorizers' Tablero, also the client administrator's (its own client, decision 0122). */
const TABLERO = areaRoutes(autorizadorTablero, { tablero: 'Tablero' });
const AUTORIZADOR = [
  ...areaRoutes(autorizador, {
    principal: 'Pedidos',
    reportes: 'Pedidos',
    'orden/:id': 'Orden',
    ampliaciones: 'Ampliaciones',
    recepcion: 'Recepcion',
    'recepcion/:id/:numero': 'RecepcionEnvio',
    'estado-de-cuenta': 'EstadoDeCuenta',
  }),
  ...TABLERO,
];
const ADMINISTRADOR = [
  ...areaRoutes(administrador, {
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
  }),
  ...areaRoutes(administradorTablero, { tablero: 'Tablero' }),
];
const CLIENTE = [
  ...areaRoutes(cliente, {
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
  }),
  ...TABLERO,
];

const PUBLIC_PATHS = ['/login', '/recuperar-acceso', '/restablecer/'];

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
        if (!PUBLIC_PATHS.some((p) => here.pathname.startsWith(p)))
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
  useEffect(() => warmRouteChunks(window.location.pathname), []);
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
