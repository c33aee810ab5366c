import {
  ClientSelect,
  ClientsLoadProblem,
  useSelectedClient,
} from '../../../features/admin/clients/client-select';
import { TopupsPage } from '../../../features/topups/components/topups-page';

/**
 * The distributor's «Ampliaciones» (decision 0123): the budget top-ups of the client chosen in `?cliente=`
 * (it follows from screen to screen), which it may decide as the client's own approvers do.
 */
export function Ampliaciones() {
  const [idCliente, setCliente] = useSelectedClient();
  return (
    <TopupsPage
      description="Las solicitudes de más presupuesto de las personas y las áreas de cada cliente. Suelen decidirlas el responsable del área, un super autorizador o el administrador del cliente; también puedes decidirlas tú."
      client={{
        id: idCliente,
        picker: <ClientSelect value={idCliente} onChange={(id) => setCliente(id)} />,
        problem: <ClientsLoadProblem />,
      }}
    />
  );
}
