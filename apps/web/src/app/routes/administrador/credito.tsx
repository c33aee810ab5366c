import { Navigate, useParams } from 'react-router';
import { AgingPage } from '../../../features/credit/components/aging-page';
import { BackToAging, StatementPage } from '../../../features/credit/components/statement-page';
import { positiveId } from '../params';

/** /administrador/credito: every client's balance and aging (decision 0134). */
export function Credito() {
  return <AgingPage />;
}

/** /administrador/credito/:id: one client's «Estado de cuenta». */
export function CreditoCliente() {
  const id = positiveId(useParams().id);
  if (!id) return <Navigate to="/administrador/credito" replace />;
  return (
    <StatementPage
      key={id}
      cliente={id}
      back={<BackToAging />}
      fileHref={(pedido, uuid) => `/api/surtido/${pedido}/facturas/${uuid}/xml`}
    />
  );
}
