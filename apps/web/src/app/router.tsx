/**
 * The screens' routes (README "Screens"), in react-router's declarative mode (the data router would add ~30 kB gzip to every
 * first load; docs/decisions/0029-front-end-budget.md). Each role area, the app shell and the public
 * screens are lazy, so each is a chunk of its own and the sign-in screen loads only what it needs.
 */

import { loginPathFor } from '@portal/shared/domain/return-path';
import { type ComponentType, lazy, Suspense, useEffect } from 'react';
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
          : null;
  if (!load) return;
  // A failed download is not an error here: the route's own import retries it and shows its error.
  void import('./routes/app-shell').catch(() => undefined);
  void load().catch(() => undefined);
}

const AuthLayout = screen(
  () => import('./routes/auth/layout'),
  (m) => m.Component,
);
const Login = screen(
  () => import('./routes/auth/login'),
  (m) => m.Component,
);
const RecuperarAcceso = screen(
  () => import('./routes/auth/recuperar-acceso'),
  (m) => m.Component,
);
const Restablecer = screen(
  () => import('./routes/auth/restablecer'),
  (m) => m.Component,
);
const CambiarPassword = screen(
  () => import('./routes/auth/cambiar-password'),
  (m) => m.Component,
);
const ActivarVerificacion = screen(
  () => import('./routes/auth/activar-verificacion'),
  (m) => m.Component,
);
const AppLayout = screen(
  () => import('./routes/app-shell'),
  (m) => m.Component,
);

const U = {
  Principal: screen(usuario, (m) => m.Principal),
  Categoria: screen(usuario, (m) => m.Categoria),
  Historial: screen(usuario, (m) => m.Historial),
  HistorialDetalle: screen(usuario, (m) => m.HistorialDetalle),
  Carrito: screen(usuario, (m) => m.Carrito),
  Listas: screen(usuario, (m) => m.Listas),
  ListaDetalle: screen(usuario, (m) => m.ListaDetalle),
  PedidoRapido: screen(usuario, (m) => m.PedidoRapido),
};
const A = {
  Pedidos: screen(autorizador, (m) => m.Pedidos),
  Orden: screen(autorizador, (m) => m.Orden),
  Tablero: screen(autorizadorTablero, (m) => m.Tablero),
};
const ADM = {
  Principal: screen(administrador, (m) => m.Principal),
  Clientes: screen(administrador, (m) => m.Clientes),
  Usuarios: screen(administrador, (m) => m.Usuarios),
  UsuarioProductos: screen(administrador, (m) => m.UsuarioProductos),
  Semanas: screen(administrador, (m) => m.Semanas),
  Inventario: screen(administrador, (m) => m.Inventario),
  Logs: screen(administrador, (m) => m.Logs),
  Integraciones: screen(administrador, (m) => m.Integraciones),
  Pedido: screen(administrador, (m) => m.Pedido),
  Pedidos: screen(administrador, (m) => m.Pedidos),
  Surtido: screen(administrador, (m) => m.Surtido),
  Tablero: screen(administradorTablero, (m) => m.Tablero),
};

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
                <Route path="usuario" element={<RequireArea area="usuario" />}>
                  <Route index element={<Navigate to="principal" replace />} />
                  <Route path="principal" element={<U.Principal />} />
                  <Route path="categoria/:id_categoria" element={<U.Categoria />} />
                  <Route path="historial" element={<U.Historial />} />
                  <Route path="historial/:id" element={<U.HistorialDetalle />} />
                  <Route path="carrito" element={<U.Carrito />} />
                  <Route path="listas" element={<U.Listas />} />
                  <Route path="listas/:id" element={<U.ListaDetalle />} />
                  <Route path="pedido-rapido" element={<U.PedidoRapido />} />
                </Route>
                <Route path="autorizador" element={<RequireArea area="autorizador" />}>
                  <Route index element={<Navigate to="principal" replace />} />
                  <Route path="principal" element={<A.Pedidos />} />
                  <Route path="reportes" element={<A.Pedidos />} />
                  <Route path="orden/:id" element={<A.Orden />} />
                  <Route path="tablero" element={<A.Tablero />} />
                </Route>
                <Route path="administrador" element={<RequireArea area="administrador" />}>
                  <Route index element={<Navigate to="principal" replace />} />
                  <Route path="principal" element={<ADM.Principal />} />
                  <Route path="clientes" element={<ADM.Clientes />} />
                  <Route path="usuarios" element={<ADM.Usuarios />} />
                  <Route path="usuarios/usuario/:user_id/productos" element={<ADM.UsuarioProductos />} />
                  <Route path="semanas" element={<ADM.Semanas />} />
                  <Route path="inventario" element={<ADM.Inventario />} />
                  <Route path="logs" element={<ADM.Logs />} />
                  <Route path="pedidos" element={<ADM.Pedidos />} />
                  <Route path="integraciones" element={<ADM.Integraciones />} />
                  <Route path="pedidos/:id" element={<ADM.Pedido />} />
                  <Route path="surtido" element={<ADM.Surtido />} />
                  <Route path="tablero" element={<ADM.Tablero />} />
                </Route>
              </Route>
            </Route>
            <Route path="*" element={<Navigate to="/login" replace />} />
          </Routes>
        </Suspense>
      </RouteErrorBoundary>
    </BrowserRouter>
  );
}
