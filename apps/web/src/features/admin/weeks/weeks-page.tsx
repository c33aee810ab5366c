/**
 * The form that adds an access week to a client and the client's weeks.
 */
import { Alert, Stack } from '@mantine/core';
import { PageHeader } from '../../../components/ui/page';
import { useAllClients, useSelectedClient } from '../clients/client-select';
import { WeekForm } from './week-form';
import { WeekList } from './week-list';

export function WeeksPage() {
  const [idCliente, setCliente] = useSelectedClient();
  const clients = useAllClients();
  const client = clients.data?.clientes.find((c) => c.id === idCliente) ?? null;

  return (
    <Stack gap="lg">
      <PageHeader
        title="Semanas de acceso"
        description="Los periodos en que los usuarios de cada cliente pueden entrar y comprar."
      />
      <WeekForm idCliente={idCliente} onClientChange={(id) => setCliente(id)} />
      <WeekList idCliente={idCliente} client={client} />
      {clients.isError ? (
        <Alert color="red" variant="light">
          No se pudo cargar la lista de clientes.
        </Alert>
      ) : null}
    </Stack>
  );
}
