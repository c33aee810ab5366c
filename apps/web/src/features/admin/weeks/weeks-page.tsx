/**
 * The form that adds an access week to a client, the generator of many, and the client's weeks as a
 * month calendar beside the paginated list (where each week is switched on or off, or deleted).
 */
import '@mantine/core/styles/Grid.css';
import { Alert, Button, Grid, Stack } from '@mantine/core';
import { IconCalendarRepeat } from '@tabler/icons-react';
import { useState } from 'react';
import { PageHeader } from '../../../components/ui/page';
import { useAllClients, useSelectedClient } from '../clients/client-select';
import { currentMonth, WeekCalendar } from './week-calendar';
import { WeekForm } from './week-form';
import { WeekGenerator } from './week-generator';
import { WeekList } from './week-list';

export function WeeksPage() {
  const [idCliente, setCliente] = useSelectedClient();
  const clients = useAllClients();
  const client = clients.data?.clientes.find((c) => c.id === idCliente) ?? null;
  const [mes, setMes] = useState(currentMonth);
  const [generating, setGenerating] = useState(false);

  return (
    <Stack gap="lg">
      <PageHeader
        title="Semanas de acceso"
        description="Los periodos en que los usuarios de cada cliente pueden entrar y comprar."
        actions={
          <Button
            variant="light"
            leftSection={<IconCalendarRepeat size={18} aria-hidden />}
            disabled={idCliente === null}
            onClick={() => setGenerating(true)}
          >
            Generar semanas…
          </Button>
        }
      />
      <WeekForm idCliente={idCliente} onClientChange={(id) => setCliente(id)} />
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
      {idCliente !== null ? (
        <WeekGenerator
          opened={generating}
          onClose={() => setGenerating(false)}
          idCliente={idCliente}
          clientName={client?.nombre ?? 'el cliente'}
          onSaved={(inicio) => inicio && setMes(inicio.slice(0, 7))}
        />
      ) : null}
      {clients.isError ? (
        <Alert color="red" variant="light">
          No se pudo cargar la lista de clientes.
        </Alert>
      ) : null}
    </Stack>
  );
}
