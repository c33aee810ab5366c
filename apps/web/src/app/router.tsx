/**
 * Routes of spec §2. Each role area, the app shell and the public screens are lazy, so each is a chunk
 * of its own and the sign-in screen loads only what it needs.
 */
import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { PASSWORD_CHANGE_REQUIRED, setApiHandlers } from '../lib/api';
import { FullPageLoader, RequireArea, RequireSession, RootRedirect } from './routes/guards';
import { RouteError } from './routes/route-error';

const usuario = () => import('./routes/usuario/pages');
const autorizador = () => import('./routes/autorizador/pages');
const administrador = () => import('./routes/administrador/pages');
const appLayout = () => import('../components/layouts/app-layout');

export const routes: RouteObject[] = [
  {
    errorElement: <RouteError />,
    hydrateFallbackElement: <FullPageLoader />,
    children: [
      { index: true, element: <RootRedirect /> },
      {
        lazy: () => import('./routes/auth/layout'),
        children: [
          { path: 'login', lazy: () => import('./routes/auth/login') },
          { path: 'recuperar-acceso', lazy: () => import('./routes/auth/recuperar-acceso') },
          { path: 'restablecer/:token', lazy: () => import('./routes/auth/restablecer') },
        ],
      },
      {
        element: <RequireSession mode="password-change" />,
        children: [{ path: 'cambiar-password', lazy: () => import('./routes/auth/cambiar-password') }],
      },
      {
        element: <RequireSession mode="app" />,
        children: [
          {
            lazy: () => appLayout().then((m) => ({ Component: m.AppLayout })),
            children: [
              {
                path: 'usuario',
                element: <RequireArea area="usuario" />,
                children: [
                  { index: true, element: <Navigate to="principal" replace /> },
                  { path: 'principal', lazy: () => usuario().then((m) => ({ Component: m.Principal })) },
                  {
                    path: 'categoria/:id_categoria',
                    lazy: () => usuario().then((m) => ({ Component: m.Categoria })),
                  },
                  { path: 'historial', lazy: () => usuario().then((m) => ({ Component: m.Historial })) },
                  {
                    path: 'historial/:id',
                    lazy: () => usuario().then((m) => ({ Component: m.HistorialDetalle })),
                  },
                  { path: 'carrito', lazy: () => usuario().then((m) => ({ Component: m.Carrito })) },
                ],
              },
              {
                path: 'autorizador',
                element: <RequireArea area="autorizador" />,
                children: [
                  { index: true, element: <Navigate to="principal" replace /> },
                  { path: 'principal', lazy: () => autorizador().then((m) => ({ Component: m.Pedidos })) },
                  { path: 'reportes', lazy: () => autorizador().then((m) => ({ Component: m.Pedidos })) },
                  { path: 'orden/:id', lazy: () => autorizador().then((m) => ({ Component: m.Orden })) },
                ],
              },
              {
                path: 'administrador',
                element: <RequireArea area="administrador" />,
                children: [
                  { index: true, element: <Navigate to="principal" replace /> },
                  {
                    path: 'principal',
                    lazy: () => administrador().then((m) => ({ Component: m.Principal })),
                  },
                  { path: 'clientes', lazy: () => administrador().then((m) => ({ Component: m.Clientes })) },
                  { path: 'usuarios', lazy: () => administrador().then((m) => ({ Component: m.Usuarios })) },
                  {
                    path: 'usuarios/usuario/:user_id/productos',
                    lazy: () => administrador().then((m) => ({ Component: m.UsuarioProductos })),
                  },
                  { path: 'semanas', lazy: () => administrador().then((m) => ({ Component: m.Semanas })) },
                  {
                    path: 'inventario',
                    lazy: () => administrador().then((m) => ({ Component: m.Inventario })),
                  },
                  { path: 'logs', lazy: () => administrador().then((m) => ({ Component: m.Logs })) },
                ],
              },
            ],
          },
        ],
      },
      { path: '*', element: <Navigate to="/login" replace /> },
    ],
  },
];

export const router = createBrowserRouter(routes);

const PUBLIC_PATHS = ['/login', '/recuperar-acceso', '/restablecer/'];

setApiHandlers({
  // A 401 anywhere but the sign-in itself: the session is gone.
  onUnauthorized: () => {
    const { pathname } = router.state.location;
    if (!PUBLIC_PATHS.some((p) => pathname.startsWith(p))) void router.navigate('/login', { replace: true });
  },
  onPasswordChangeRequired: (error) => {
    if (error.code === PASSWORD_CHANGE_REQUIRED && router.state.location.pathname !== '/cambiar-password') {
      void router.navigate('/cambiar-password', { replace: true });
    }
  },
});
