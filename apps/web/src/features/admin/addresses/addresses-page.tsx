/**
 * «Direcciones de entrega» (decision 0126): a client's address book — each address's label, the whole
 * address, who receives and when, how many buyers have it as default or may choose it — 20 a page, active
 * ones first. 'Nueva dirección', 'Editar' (saving an inactive one reactivates it) and 'Desactivar'
 * (refused while it is an active buyer's default: the server's reason is shown). The distributor picks the
 * client (`?cliente=`); a client administrator (rol 5) works on its own, and without its client's
 * `usuarios` only reads. A table on wide screens, cards on phones. Each buyer's default and allowed
 * addresses are chosen in the user's drawer.
 */
import '@mantine/core/styles/Table.css';
import { ActionIcon, Badge, Box, Button, Group, Paper, Stack, Table, Text, Tooltip } from '@mantine/core';
import { deliveryAddress, deliveryContact } from '@portal/shared/domain/delivery';
import type { AddressDto } from '@portal/shared/schemas/addresses';
import { IconMapPin, IconMapPinOff, IconPencil, IconPlus } from '@tabler/icons-react';
import { type ReactNode, useState } from 'react';
import { showSuccess } from '../../../components/ui/alerts';
import { ChooseClientFirst } from '../../../components/ui/choose-client';
import { confirmAction } from '../../../components/ui/confirm';
import { ListPanel } from '../../../components/ui/list-panel';
import { ListEmpty } from '../../../components/ui/list-states';
import { PageHeader } from '../../../components/ui/page';
import { ClientSelect, useAllClients, useSelectedClient } from '../clients/client-select';
import { isDistributor, mayChangeUsers } from '../scope';
import { useAdminScope } from '../scope-context';
import { AddressDialog } from './address-dialog';
import { useAddresses, useDeactivateAddress } from './api';

export function AddressesPage() {
  const own = useAdminScope().client;
  if (!own) return <AnyClientAddresses />;
  return (
    <AddressesScreen
      idCliente={own.id}
      nombre={own.nombre}
      picker={
        <Text fw={700} size="lg">
          {own.nombre}
        </Text>
      }
    />
  );
}

/** The distributor's screen: the client chosen in `?cliente=`. */
function AnyClientAddresses() {
  const [chosen, setCliente] = useSelectedClient();
  const clients = useAllClients();
  return (
    <AddressesScreen
      key={chosen ?? 0}
      idCliente={chosen}
      nombre={clients.data?.clientes.find((c) => c.id === chosen)?.nombre ?? null}
      picker={<ClientSelect value={chosen} onChange={(id) => setCliente(id)} />}
    />
  );
}

interface Actions {
  /** Null: the reader only reads (no buttons). */
  onEdit: ((a: AddressDto) => void) | null;
  onDeactivate: ((a: AddressDto) => void) | null;
}

const line = (a: AddressDto) => deliveryAddress({ ...a, nombre: '' });
const who = (a: AddressDto) => deliveryContact(a);
const compradores = (n: number) => `${n} ${n === 1 ? 'comprador' : 'compradores'}`;
/** Who has it as the default, and how many more may choose it in the cart. */
const defaultOf = (a: AddressDto) => `Predeterminada de ${compradores(a.predeterminada_de)}`;
const choosableBy = (a: AddressDto) =>
  a.permitida_a === 0 ? null : `${a.permitida_a} más ${a.permitida_a === 1 ? 'puede' : 'pueden'} elegirla`;
const buyers = (a: AddressDto) => [defaultOf(a), choosableBy(a)].filter(Boolean).join(' · ');

function RowButtons({ address, onEdit, onDeactivate }: Actions & { address: AddressDto }) {
  if (!onEdit || !onDeactivate) return null;
  return (
    <Group gap={4} wrap="nowrap" justify="flex-end">
      <Tooltip label={address.activo ? 'Editar' : 'Editar y reactivar'} withArrow>
        <ActionIcon
          variant="subtle"
          aria-label={`Editar dirección ${address.nombre}`}
          onClick={() => onEdit(address)}
        >
          <IconPencil size={18} />
        </ActionIcon>
      </Tooltip>
      {address.activo ? (
        <Tooltip label="Desactivar" withArrow>
          <ActionIcon
            variant="subtle"
            color="red"
            aria-label={`Desactivar dirección ${address.nombre}`}
            onClick={() => onDeactivate(address)}
          >
            <IconMapPinOff size={18} />
          </ActionIcon>
        </Tooltip>
      ) : null}
    </Group>
  );
}

function Name({ address }: { address: AddressDto }) {
  return (
    <Group gap={6} wrap="nowrap">
      <Text size="sm" fw={700}>
        {address.nombre}
      </Text>
      {address.activo ? null : (
        <Badge color="gray" variant="light" size="sm">
          Inactiva
        </Badge>
      )}
    </Group>
  );
}

function AddressesTable({ rows, ...actions }: Actions & { rows: AddressDto[] }) {
  const changes = actions.onEdit !== null;
  return (
    <Table verticalSpacing="sm" highlightOnHover aria-label="Direcciones de entrega del cliente">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Nombre</Table.Th>
          <Table.Th>Dirección</Table.Th>
          <Table.Th>Recibe</Table.Th>
          <Table.Th ta="right">Compradores</Table.Th>
          {changes ? (
            <Table.Th ta="right" w={96}>
              Acciones
            </Table.Th>
          ) : null}
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {rows.map((a) => (
          <Table.Tr key={a.id} data-testid={`direccion-${a.id}`} c={a.activo ? undefined : 'dimmed'}>
            <Table.Td>
              <Name address={a} />
            </Table.Td>
            <Table.Td>
              <Text size="sm">{line(a)}</Text>
            </Table.Td>
            <Table.Td>
              <Text size="sm">{who(a)}</Text>
            </Table.Td>
            <Table.Td ta="right">
              <Text size="sm">{defaultOf(a)}</Text>
              {choosableBy(a) ? (
                <Text size="xs" c="dimmed">
                  {choosableBy(a)}
                </Text>
              ) : null}
            </Table.Td>
            {changes ? (
              <Table.Td>
                <RowButtons address={a} {...actions} />
              </Table.Td>
            ) : null}
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/** Phones: one card per address. */
function AddressesCards({ rows, ...actions }: Actions & { rows: AddressDto[] }) {
  return (
    <Stack component="ul" gap="xs" p="sm" m={0} style={{ listStyle: 'none' }}>
      {rows.map((a) => (
        <Paper component="li" key={a.id} withBorder radius="md" p="sm" data-testid={`direccion-${a.id}`}>
          <Group justify="space-between" align="flex-start" gap="xs" wrap="nowrap">
            <Box miw={0}>
              <Name address={a} />
              <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                {line(a)}
              </Text>
            </Box>
            <RowButtons address={a} {...actions} />
          </Group>
          <Text size="xs" c="dimmed" mt={6}>
            {who(a)}
          </Text>
          <Text size="xs" c="dimmed">
            {buyers(a)}
          </Text>
        </Paper>
      ))}
    </Stack>
  );
}

interface ScreenProps {
  idCliente: number | null;
  nombre: string | null;
  /** What names the client: the distributor's select, or the own client's name. */
  picker: ReactNode;
}

function AddressesScreen({ idCliente, nombre, picker }: ScreenProps) {
  const scope = useAdminScope();
  const distributor = isDistributor(scope);
  const changes = mayChangeUsers(scope);
  const [page, setPage] = useState(1);
  const query = useAddresses(idCliente, page);
  const deactivate = useDeactivateAddress();
  const [editing, setEditing] = useState<{ opened: boolean; address: AddressDto | null }>({
    opened: false,
    address: null,
  });
  const rows = query.data?.direcciones ?? [];
  const onDeactivate = (a: AddressDto) =>
    confirmAction({
      title: `¿Desactivar la dirección ${a.nombre}?`,
      message:
        'Los compradores ya no podrán elegirla. Los pedidos ya hechos conservan su copia de la dirección. No se puede desactivar la dirección predeterminada de un usuario activo.',
      confirmLabel: 'Desactivar',
      danger: true,
      onConfirm: async () => {
        const res = await deactivate.mutateAsync(a.id);
        showSuccess(res.msg);
      },
    });
  const actions: Actions = changes
    ? { onEdit: (address) => setEditing({ opened: true, address }), onDeactivate }
    : { onEdit: null, onDeactivate: null };

  return (
    <Stack gap="lg">
      <PageHeader
        title="Direcciones de entrega"
        description={
          distributor
            ? 'La libreta de direcciones de cada cliente: a dónde se entregan sus pedidos, quién recibe y en qué horario.'
            : changes
              ? 'Las direcciones a las que se entregan los pedidos de tu empresa, quién recibe y en qué horario.'
              : 'Las direcciones de entrega de tu empresa. Tu distribuidor no te permite cambiarlas: solo puedes consultarlas.'
        }
      />
      <Paper withBorder radius="lg" shadow="xs" p={{ base: 'sm', sm: 'md' }} mt={-8}>
        <Group justify="space-between" align="flex-end" gap="md">
          <Box w={{ base: '100%', sm: 380 }}>{picker}</Box>
          {idCliente && changes ? (
            <Button
              w={{ base: '100%', xs: 'auto' }}
              leftSection={<IconPlus size={18} aria-hidden />}
              onClick={() => setEditing({ opened: true, address: null })}
            >
              Nueva dirección
            </Button>
          ) : null}
        </Group>
      </Paper>

      {idCliente === null ? (
        <ChooseClientFirst description="Selecciona un cliente en la lista de arriba para ver y administrar sus direcciones de entrega." />
      ) : (
        <ListPanel
          header={<Text fw={700}>{nombre ? `Direcciones de ${nombre}` : 'Direcciones del cliente'}</Text>}
          page={
            query.data
              ? { page, perPage: query.data.per_page, shown: rows.length, total: query.data.total }
              : undefined
          }
          status={rows.length === 0 ? null : undefined}
          noun={['dirección', 'direcciones']}
          query={query}
          loading={{ label: 'Cargando direcciones', rows: 3 }}
          errorTitle="No se pudieron cargar las direcciones"
          empty={
            <ListEmpty
              color="indigo"
              icon={<IconMapPin size={28} stroke={1.6} />}
              title={
                distributor ? 'Este cliente aún no tiene direcciones' : 'Tu empresa aún no tiene direcciones'
              }
              description="Mientras no haya, cada pedido se entrega en la dirección del perfil de su comprador."
            />
          }
          pager={{ label: 'Páginas de direcciones', onChange: setPage }}
        >
          <Box visibleFrom="lg">
            <Table.ScrollContainer minWidth={820} type="native">
              <AddressesTable rows={rows} {...actions} />
            </Table.ScrollContainer>
          </Box>
          <Box hiddenFrom="lg">
            <AddressesCards rows={rows} {...actions} />
          </Box>
        </ListPanel>
      )}

      {idCliente && changes ? (
        <AddressDialog
          opened={editing.opened}
          address={editing.address}
          idCliente={idCliente}
          onClose={() => setEditing((e) => ({ ...e, opened: false }))}
        />
      ) : null}
    </Stack>
  );
}
