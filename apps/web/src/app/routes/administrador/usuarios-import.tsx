import { useAllClients } from '../../../features/admin/clients/client-select';
import { ImportButton } from '../../../features/admin/imports/import-dialog';

/**
 * 'Importación por archivo' for users of a client: the CSV import dialog (template, upload, results) of
 * users or of their product assignments.
 */
export function UsersImportButton({ idCliente }: { idCliente: number }) {
  const { data } = useAllClients();
  const cliente = data?.clientes.find((c) => c.id === idCliente);
  return (
    <ImportButton
      kind="usuarios"
      kinds={['usuarios', 'asignaciones']}
      idCliente={idCliente}
      clienteNombre={cliente?.nombre}
      label="Importación por archivo"
    />
  );
}
