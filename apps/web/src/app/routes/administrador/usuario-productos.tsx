import { Navigate, useParams, useSearchParams } from 'react-router';
import { UserProductsPage } from '../../../features/admin/users/user-products-page';
import { positiveId } from '../params';

export function UsuarioProductos() {
  const userId = positiveId(useParams().user_id);
  const [params] = useSearchParams();
  const cliente = positiveId(params.get('cliente') ?? undefined);
  if (!userId) return <Navigate to="/administrador/usuarios" replace />;
  return <UserProductsPage key={userId} userId={userId} backCliente={cliente} />;
}
