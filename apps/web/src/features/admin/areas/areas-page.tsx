/**
 * «Áreas» (decision 0123): a client's cost centres with this month's figures — the budget (the base and
 * this month's top-ups and transfers), what their orders used and what is left — their clave and cuenta
 * contable, their responsible approver and how many people they have. 'Nueva área', 'Editar' and
 * 'Eliminar' (refused while it has users or orders: the server's reason stays in the dialog), and
 * 'Transferir presupuesto' between two of them. The distributor picks the client (`?cliente=`, it follows
 * from screen to screen); a client administrator (rol 5, scope.ts) works on its own, and without its
 * client's `presupuestos` only reads. A table on wide screens, cards on phones.
 */
import '@mantine/core/styles/Progress.css';
import '@mantine/core/styles/Table.css';
import {
  ActionIcon,
  Anchor,
  Box,
  Button,
  Group,
  Paper,
  Progress,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Tooltip,
} from '@mantine/core';
import type { AreaDto } from '@portal/shared/schemas/areas';
import type { ClientDto } from '@portal/shared/schemas/clients';
import {
  IconArrowsExchange,
  IconBuildingFactory2,
  IconPencil,
  IconPlus,
  IconTrash,
} from '@tabler/icons-react';
import { type ReactNode, useState } from 'react';
import { showSuccess } from '../../../components/ui/alerts';
import { ChooseClientFirst } from '../../../components/ui/choose-client';
import { confirmAction } from '../../../components/ui/confirm';
import { ListPanel } from '../../../components/ui/list-panel';
import { ListEmpty } from '../../../components/ui/list-states';
import { PageHeader } from '../../../components/ui/page';
import { formatMXN } from '../../../lib/format';
import { monthLabel } from '../../../lib/month-label';
import { ClientSelect, useAllClients, useSelectedClient } from '../clients/client-select';
import { isDistributor, mayChangeBudgets } from '../scope';
import { useAdminScope } from '../scope-context';
import { useAreas, useDeleteArea } from './api';
import { AreaDialog } from './area-dialog';
import { areaMonth } from './area-figures';
import { TransferDialog } from './transfer-dialog';

export function AreasPage() {
  const scope = useAdminScope();
  if (scope.client) {
    const own = scope.client;
    return (
      <AreasScreen
        idCliente={own.id}
        client={own}
        picker={
          <Text fw={700} size="lg">
            {own.nombre}
          </Text>
        }
      />
    );
  }
  return <AnyClientAreas />;
}

/** The distributor's screen: the client chosen in `?cliente=`. */
function AnyClientAreas() {
  const [idCliente, setCliente] = useSelectedClient();
  const clients = useAllClients();
  return (
    <AreasScreen
      idCliente={idCliente}
      client={clients.data?.clientes.find((c) => c.id === idCliente) ?? null}
      picker={<ClientSelect value={idCliente} onChange={(id) => setCliente(id)} />}
      problem={
        clients.isError ? (
          <Text size="sm" c="red">
            No se pudo cargar la lista de clientes.{' '}
            <Anchor component="button" type="button" onClick={() => void clients.refetch()}>
              Reintentar
            </Anchor>
          </Text>
        ) : null
      }
    />
  );
}

interface AreaActions {
  /** Null: the reader only reads (no buttons). */
  onEdit: ((area: AreaDto) => void) | null;
  onDelete: ((area: AreaDto) => void) | null;
}

function Money({ value, danger = false }: { value: number; danger?: boolean }) {
  return (
    <Text
      span
      size="sm"
      fw={600}
      c={danger ? 'red.8' : undefined}
      style={{ whiteSpace: 'nowrap', fontVariantNumeric: 'tabular-nums' }}
    >
      {formatMXN(value, false)}
    </Text>
  );
}

function Usage({ area }: { area: AreaDto }) {
  const m = areaMonth(area);
  return (
    <Progress
      value={m.usedPct}
      color={m.color}
      size="sm"
      aria-label={`Presupuesto usado del área ${area.nombre}: ${Math.round(m.usedPct)}%`}
    />
  );
}

function RowButtons({ area, onEdit, onDelete }: AreaActions & { area: AreaDto }) {
  if (!onEdit || !onDelete) return null;
  return (
    <Group gap={4} wrap="nowrap" justify="flex-end">
      <Tooltip label="Editar" withArrow>
        <ActionIcon variant="subtle" aria-label={`Editar área ${area.nombre}`} onClick={() => onEdit(area)}>
          <IconPencil size={18} />
        </ActionIcon>
      </Tooltip>
      <Tooltip label="Eliminar" withArrow>
        <ActionIcon
          variant="subtle"
          color="red"
          aria-label={`Eliminar área ${area.nombre}`}
          onClick={() => onDelete(area)}
        >
          <IconTrash size={18} />
        </ActionIcon>
      </Tooltip>
    </Group>
  );
}

function people(n: number): string {
  return n === 1 ? '1 persona' : `${n} personas`;
}

function AreasTable({ areas, ...actions }: AreaActions & { areas: AreaDto[] }) {
  const changes = actions.onEdit !== null;
  return (
    <Table verticalSpacing="sm" highlightOnHover aria-label="Áreas del cliente">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Área</Table.Th>
          <Table.Th>Responsable</Table.Th>
          <Table.Th ta="right">Personas</Table.Th>
          <Table.Th ta="right">Presupuesto del mes</Table.Th>
          <Table.Th ta="right">Utilizado</Table.Th>
          <Table.Th ta="right" w={200}>
            Restante
          </Table.Th>
          {changes ? (
            <Table.Th ta="right" w={96}>
              Acciones
            </Table.Th>
          ) : null}
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {areas.map((a) => {
          const m = areaMonth(a);
          return (
            <Table.Tr key={a.id} data-testid={`area-${a.codigo}`}>
              <Table.Td>
                <Text size="sm" fw={700}>
                  {a.nombre}
                </Text>
                <Text size="xs" c="dimmed">
                  {a.codigo}
                  {a.cuenta_contable ? ` · Cuenta ${a.cuenta_contable}` : ''}
                </Text>
              </Table.Td>
              <Table.Td>
                {a.responsable ? (
                  <Text size="sm">{a.responsable.nombre}</Text>
                ) : (
                  <Text size="sm" c="dimmed">
                    Sin responsable
                  </Text>
                )}
              </Table.Td>
              <Table.Td ta="right">
                <Text size="sm">{a.usuarios}</Text>
              </Table.Td>
              <Table.Td ta="right">
                <Money value={a.presupuesto_mes} />
                {m.adjusted ? (
                  <Text size="xs" c="dimmed">
                    {m.adjusted}
                  </Text>
                ) : null}
              </Table.Td>
              <Table.Td ta="right">
                <Money value={a.utilizado} />
              </Table.Td>
              <Table.Td ta="right">
                <Money value={a.restante} danger={m.over} />
                <Box mt={6}>
                  <Usage area={a} />
                </Box>
              </Table.Td>
              {changes ? (
                <Table.Td>
                  <RowButtons area={a} {...actions} />
                </Table.Td>
              ) : null}
            </Table.Tr>
          );
        })}
      </Table.Tbody>
    </Table>
  );
}

function Figure({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Box>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      {children}
    </Box>
  );
}

/** Phones: one card per área. */
function AreasCards({ areas, ...actions }: AreaActions & { areas: AreaDto[] }) {
  return (
    <Stack component="ul" gap="xs" p="sm" m={0} style={{ listStyle: 'none' }}>
      {areas.map((a) => {
        const m = areaMonth(a);
        return (
          <Paper component="li" key={a.id} withBorder radius="md" p="sm" data-testid={`area-${a.codigo}`}>
            <Group justify="space-between" align="flex-start" gap="xs" wrap="nowrap">
              <Box miw={0}>
                <Text fw={700}>{a.nombre}</Text>
                <Text size="xs" c="dimmed">
                  {a.codigo}
                  {a.cuenta_contable ? ` · Cuenta ${a.cuenta_contable}` : ''}
                </Text>
              </Box>
              <RowButtons area={a} {...actions} />
            </Group>
            <SimpleGrid cols={3} spacing="xs" mt="xs">
              <Figure label="Del mes">
                <Money value={a.presupuesto_mes} />
              </Figure>
              <Figure label="Utilizado">
                <Money value={a.utilizado} />
              </Figure>
              <Figure label="Restante">
                <Money value={a.restante} danger={m.over} />
              </Figure>
            </SimpleGrid>
            <Box mt={8}>
              <Usage area={a} />
            </Box>
            <Text size="xs" c="dimmed" mt={6}>
              {a.responsable ? `Responsable: ${a.responsable.nombre}` : 'Sin responsable'} ·{' '}
              {people(a.usuarios)}
              {m.adjusted ? ` · ${m.adjusted}` : ''}
            </Text>
          </Paper>
        );
      })}
    </Stack>
  );
}

interface AreasScreenProps {
  idCliente: number | null;
  client: ClientDto | null;
  /** What names the client: the distributor's select, or the own client's name. */
  picker: ReactNode;
  problem?: ReactNode;
}

function AreasScreen({ idCliente, client, picker, problem }: AreasScreenProps) {
  const scope = useAdminScope();
  const distributor = isDistributor(scope);
  const changes = mayChangeBudgets(scope);
  const query = useAreas(idCliente);
  const remove = useDeleteArea(idCliente ?? 0);
  const [editing, setEditing] = useState<{ opened: boolean; area: AreaDto | null }>({
    opened: false,
    area: null,
  });
  const [transferring, setTransferring] = useState(false);
  const areas = query.data?.areas ?? [];
  const mes = areas[0]?.mes;

  const onDelete = (area: AreaDto) =>
    confirmAction({
      title: `¿Eliminar el área ${area.nombre}?`,
      message:
        'Se elimina el área con su presupuesto. Solo se puede eliminar un área sin usuarios ni pedidos: cambia antes de área a sus usuarios.',
      confirmLabel: 'Eliminar área',
      danger: true,
      onConfirm: async () => {
        const res = await remove.mutateAsync(area.id);
        showSuccess(res.msg);
      },
    });
  const actions: AreaActions = changes
    ? { onEdit: (area) => setEditing({ opened: true, area }), onDelete }
    : { onEdit: null, onDelete: null };

  return (
    <Stack gap="lg">
      <PageHeader
        title="Áreas"
        description={
          distributor
            ? 'Los centros de costo de cada cliente: su presupuesto mensual, su responsable y lo que llevan gastado este mes.'
            : changes
              ? 'Los centros de costo de tu empresa: su presupuesto mensual, su responsable y lo que llevan gastado este mes.'
              : 'Los centros de costo de tu empresa. Tu distribuidor no te permite cambiarlas: solo puedes consultarlas.'
        }
      />
      <Paper withBorder radius="lg" shadow="xs" p={{ base: 'sm', sm: 'md' }} mt={-8}>
        <Group justify="space-between" align="flex-end" gap="md">
          <Box w={{ base: '100%', sm: 380 }}>{picker}</Box>
          {idCliente && changes ? (
            <Group gap="xs" w={{ base: '100%', sm: 'auto' }}>
              <Button
                variant="light"
                w={{ base: '100%', xs: 'auto' }}
                leftSection={<IconArrowsExchange size={18} aria-hidden />}
                disabled={areas.length < 2}
                onClick={() => setTransferring(true)}
              >
                Transferir presupuesto
              </Button>
              <Button
                w={{ base: '100%', xs: 'auto' }}
                leftSection={<IconPlus size={18} aria-hidden />}
                onClick={() => setEditing({ opened: true, area: null })}
              >
                Nueva área
              </Button>
            </Group>
          ) : null}
        </Group>
      </Paper>

      {idCliente === null ? (
        <ChooseClientFirst description="Selecciona un cliente en la lista de arriba para ver y administrar sus áreas." />
      ) : (
        <ListPanel
          headerGap={2}
          header={
            <>
              <Text fw={700}>{client ? `Áreas de ${client.nombre}` : 'Áreas del cliente'}</Text>
              {mes ? (
                <Text size="sm" c="dimmed">
                  Cifras de {monthLabel(mes)}, con sus ampliaciones y transferencias.
                </Text>
              ) : null}
            </>
          }
          page={
            query.data
              ? { page: 1, perPage: areas.length || 1, shown: areas.length, total: areas.length }
              : undefined
          }
          status={areas.length === 0 ? null : undefined}
          noun={['área', 'áreas']}
          query={query}
          loading={{ label: 'Cargando áreas', rows: 3 }}
          errorTitle="No se pudieron cargar las áreas"
          empty={
            <ListEmpty
              color="cyan"
              icon={<IconBuildingFactory2 size={28} stroke={1.6} />}
              title={distributor ? 'Este cliente aún no tiene áreas' : 'Tu empresa aún no tiene áreas'}
              description={
                changes
                  ? 'Crea la primera con «Nueva área»: su presupuesto mensual lo comparten las personas que pongas en ella.'
                  : 'Cada área tiene un presupuesto mensual que comparten las personas que pertenecen a ella.'
              }
            />
          }
          pager={{ label: 'Páginas de áreas', onChange: () => undefined }}
        >
          <Box visibleFrom="lg">
            <Table.ScrollContainer minWidth={820} type="native">
              <AreasTable areas={areas} {...actions} />
            </Table.ScrollContainer>
          </Box>
          <Box hiddenFrom="lg">
            <AreasCards areas={areas} {...actions} />
          </Box>
        </ListPanel>
      )}
      {problem}

      {idCliente && changes ? (
        <>
          <AreaDialog
            opened={editing.opened}
            area={editing.area}
            idCliente={idCliente}
            onClose={() => setEditing((e) => ({ ...e, opened: false }))}
          />
          <TransferDialog
            opened={transferring}
            onClose={() => setTransferring(false)}
            idCliente={idCliente}
            areas={areas}
          />
        </>
      ) : null}
    </Stack>
  );
}
