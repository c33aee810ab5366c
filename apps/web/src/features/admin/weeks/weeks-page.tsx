/**
 * The form that adds an access week to a client, the generator of many, and the client's weeks as a
 * month calendar beside the paginated list (where each week is switched on or off, or deleted). A client
 * administrator (rol 5, scope.ts) works on its own client, with no client picker; without its client's
 * permission `semanas` it only sees them (no form, no generator, no switches).
 */
import '@mantine/core/styles/Grid.css';
import { Alert, Button, Grid, Stack } from '@mantine/core';
import type { ClientDto } from '@portal/shared/schemas/clients';
import { IconCalendarRepeat } from '@tabler/icons-react';
import { type ReactNode, useState } from 'react';
import { PageHeader } from '../../../components/ui/page';
import { useAllClients, useSelectedClient } from '../clients/client-select';
import { isDistributor, mayChangeWeeks } from '../scope';
import { useAdminScope } from '../scope-context';
import { currentMonth, WeekCalendar } from './week-calendar';
import { WeekForm } from './week-form';
import { WeekGenerator } from './week-generator';
import { WeekList } from './week-list';

export function WeeksPage() {
  const scope = useAdminScope();
  if (scope.client) return <WeeksScreen idCliente={scope.client.id} client={scope.client} />;
  return <AnyClientWeeks />;
}

/** The distributor's screen: the client chosen in `?cliente=` (the form's client select). */
function AnyClientWeeks() {
  const [idCliente, setCliente] = useSelectedClient();
  const clients = useAllClients();
  return (
    <WeeksScreen
      idCliente={idCliente}
      client={clients.data?.clientes.find((c) => c.id === idCliente) ?? null}
      onClientChange={(id) => setCliente(id)}
      problem={
        clients.isError ? (
          <Alert color="red" variant="light">
            No se pudo cargar la lista de clientes.
          </Alert>
        ) : null
      }
    />
  );
}

interface WeeksScreenProps {
  idCliente: number | null;
  client: ClientDto | null;
  /** The distributor picks the client in the form; a client administrator has its own. */
  onClientChange?: (id: number | null) => void;
  problem?: ReactNode;
}

function WeeksScreen({ idCliente, client, onClientChange, problem }: WeeksScreenProps) {
  const scope = useAdminScope();
  const changes = mayChangeWeeks(scope);
  const [mes, setMes] = useState(currentMonth);
  const [generating, setGenerating] = useState(false);

  return (
    <Stack gap="lg">
      <PageHeader
        title="Semanas de acceso"
        description={
          isDistributor(scope)
            ? 'Los periodos en que los usuarios de cada cliente pueden entrar y comprar.'
            : changes
              ? 'Los periodos en que los usuarios de tu empresa pueden entrar y comprar.'
              : 'Los periodos en que los usuarios de tu empresa pueden entrar y comprar. Tu distribuidor no te permite cambiarlos: solo puedes consultarlos.'
        }
        actions={
          changes ? (
            <Button
              variant="light"
              leftSection={<IconCalendarRepeat size={18} aria-hidden />}
              disabled={idCliente === null}
              onClick={() => setGenerating(true)}
            >
              Generar semanas…
            </Button>
          ) : null
        }
      />
      {changes ? <WeekForm idCliente={idCliente} onClientChange={onClientChange} /> : null}
      {idCliente === null ? (
        <WeekList idCliente={idCliente} client={client} />
      ) : (
        // Side by side only where the list keeps its columns; stacked below that.
        <Grid gap="lg">
          <Grid.Col span={{ base: 12, xl: 5 }}>
            <WeekCalendar idCliente={idCliente} mes={mes} onMonthChange={setMes} />
          </Grid.Col>
          <Grid.Col span={{ base: 12, xl: 7 }}>
            <WeekList idCliente={idCliente} client={client} />
          </Grid.Col>
        </Grid>
      )}
      {idCliente !== null && changes ? (
        <WeekGenerator
          opened={generating}
          onClose={() => setGenerating(false)}
          idCliente={idCliente}
          clientName={client?.nombre ?? 'el cliente'}
          onSaved={(inicio) => inicio && setMes(inicio.slice(0, 7))}
        />
      ) : null}
      {problem}
    </Stack>
  );
}
