/**
 * The clients (10 per page from the server, searchable), 'Agregar cliente', and per
 * row 'Editar', activate/deactivate after '¿Estás seguro?' and a menu to the client's Usuarios, Inventario
 * and Semanas de acceso, its «Inicio de sesión de la empresa» (client-sso-dialog.tsx) and its «Aprovisionamiento
 * (SCIM)» (client-scim-dialog.tsx). Phones get one
 * card per client.
 */
import '@mantine/core/styles/Avatar.css';
import '@mantine/core/styles/Table.css';
import {
  ActionIcon,
  Avatar,
  Box,
  Button,
  Card,
  Group,
  Menu,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Tooltip,
} from '@mantine/core';
import { CLIENTS_PER_PAGE } from '@portal/shared/limits';
import { MSG } from '@portal/shared/messages';
import { type ClientDto, ClientsQuery, ClientsSort } from '@portal/shared/schemas/clients';
import {
  IconBuildingSkyscraper,
  IconBuildingStore,
  IconCalendarWeek,
  IconDots,
  IconFileTypePdf,
  IconPackages,
  IconPencil,
  IconPlus,
  IconPower,
  IconUsers,
} from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { ActiveBadge } from '../../../components/ui/active-badge';
import { showSuccess } from '../../../components/ui/alerts';
import { confirmAction } from '../../../components/ui/confirm';
import { ListPanel } from '../../../components/ui/list-panel';
import { ListSearch } from '../../../components/ui/list-search';
import { ListEmpty } from '../../../components/ui/list-states';
import { PageHeader } from '../../../components/ui/page';
import { SortableTh } from '../../../components/ui/sortable-th';
import { CLIENT_SCREENS, withClient } from '../../../lib/chosen-client';
import { pageHeading } from '../../../lib/first-paint';
import { formatDateTime, formatMXN } from '../../../lib/format';
import { lazyValue } from '../../../lib/lazy-value';
import { useListParams, usePagedSearch } from '../../../lib/list-params';
import { fetchClientSummary, useClientsPage, useToggleClient } from './api';
import { ClientFormModal } from './client-form';
import { levelsLabel } from './client-form-values';
import { ClientScimHost, ScimItem } from './client-scim-dialog';
import { ClientSsoDialog } from './client-sso-dialog';

/** The list's parameters in the URL (`?page=&q=&orden=`). */
const ClientsListQuery = lazyValue(() => ClientsQuery.pick({ page: true, q: true, orden: true }));

const MODO_LABEL = { regular: 'Regular', categoria: 'Por categoría' } as const;

export function limiteLabel(limite: number): string {
  return limite === -1 ? 'Sin límite' : `${limite} al mes`;
}

function Logo({ client, size = 40 }: { client: ClientDto; size?: number }) {
  return (
    <Avatar
      src={client.imagen}
      alt={`Logotipo de ${client.nombre}`}
      size={size}
      radius="md"
      color="indigo"
      variant="light"
      styles={{ image: { objectFit: 'contain', background: 'white' } }}
      style={{ border: '1px solid var(--mantine-color-gray-3)' }}
    >
      {client.nombre.slice(0, 2).toUpperCase()}
    </Avatar>
  );
}

function Swatches({ client }: { client: ClientDto }) {
  return (
    <Box
      w={28}
      h={10}
      style={{ background: `linear-gradient(90deg, ${client.color}, ${client.color2})`, borderRadius: 4 }}
      title={`${client.color} → ${client.color2}`}
      aria-hidden
    />
  );
}

function Documents({ client }: { client: ClientDto }) {
  const docs = [client.calendario ? 'Calendario' : null, client.manual ? 'Manual' : null].filter(Boolean);
  if (docs.length === 0) return null;
  return (
    <Group gap={2} wrap="nowrap" c="dimmed">
      <IconFileTypePdf size={14} aria-hidden />
      <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
        {docs.join(' · ')}
      </Text>
    </Group>
  );
}

interface RowActions {
  onEdit: (client: ClientDto) => void;
  onSso: (client: ClientDto) => void;
  onToggle: (client: ClientDto) => void | Promise<void>;
}

/** A client's own screens, with the client chosen (decision 0062). */
function ClientScreenItems({ client }: { client: ClientDto }) {
  return (
    <>
      <Menu.Item
        component={Link}
        to={withClient(CLIENT_SCREENS.usuarios, client.id)}
        leftSection={<IconUsers size={16} />}
      >
        Usuarios
      </Menu.Item>
      <Menu.Item
        component={Link}
        to={withClient(CLIENT_SCREENS.inventario, client.id)}
        leftSection={<IconPackages size={16} />}
      >
        Inventario
      </Menu.Item>
      <Menu.Item
        component={Link}
        to={withClient(CLIENT_SCREENS.semanas, client.id)}
        leftSection={<IconCalendarWeek size={16} />}
      >
        Semanas de acceso
      </Menu.Item>
    </>
  );
}

/** The client's single sign-on, in a dialog. */
function SsoItem({ client, onSso }: { client: ClientDto; onSso: RowActions['onSso'] }) {
  return (
    <Menu.Item leftSection={<IconBuildingSkyscraper size={16} />} onClick={() => onSso(client)}>
      Inicio de sesión de la empresa
    </Menu.Item>
  );
}

function Actions({ client, onEdit, onSso, onToggle }: RowActions & { client: ClientDto }) {
  return (
    <Group gap={4} justify="flex-end" wrap="nowrap">
      <Menu position="bottom-end" withinPortal>
        <Menu.Target>
          <ActionIcon variant="subtle" color="gray" aria-label={`Pantallas de ${client.nombre}`}>
            <IconDots size={18} />
          </ActionIcon>
        </Menu.Target>
        <Menu.Dropdown>
          <ClientScreenItems client={client} />
          <Menu.Divider />
          <SsoItem client={client} onSso={onSso} />
          <ScimItem client={client} />
        </Menu.Dropdown>
      </Menu>
      <Tooltip label="Editar" withArrow>
        <ActionIcon variant="subtle" aria-label={`Editar ${client.nombre}`} onClick={() => onEdit(client)}>
          <IconPencil size={18} />
        </ActionIcon>
      </Tooltip>
      <Tooltip label={client.activo ? 'Desactivar' : 'Activar'} withArrow>
        <ActionIcon
          variant="subtle"
          color={client.activo ? 'red' : 'teal'}
          aria-label={`${client.activo ? 'Desactivar' : 'Activar'} ${client.nombre}`}
          onClick={() => void onToggle(client)}
        >
          <IconPower size={18} />
        </ActionIcon>
      </Tooltip>
    </Group>
  );
}

/** Both timestamps in one cell (dd/MM/yyyy HH:mm), labelled. */
export function Dates({ created, updated }: { created: string; updated: string }) {
  return (
    <Stack gap={0} style={{ whiteSpace: 'nowrap', fontVariantNumeric: 'tabular-nums' }}>
      <Text size="xs">
        <Text span size="xs" c="dimmed">
          Creado{' '}
        </Text>
        {formatDateTime(created)}
      </Text>
      <Text size="xs">
        <Text span size="xs" c="dimmed">
          Actualizado{' '}
        </Text>
        {formatDateTime(updated)}
      </Text>
    </Stack>
  );
}

interface Sorting {
  orden: ClientsSort;
  onSort: (next: ClientsSort) => void;
}

/** The sorts in words, for the select that replaces the column headers on narrow screens. */
const SORT_LABELS: Record<ClientsSort, string> = {
  nombre_asc: 'Nombre (A–Z)',
  nombre_desc: 'Nombre (Z–A)',
  creado_desc: 'Más recientes',
  creado_asc: 'Más antiguos',
};

function ClientsTable({ rows, orden, onSort, ...actions }: RowActions & Sorting & { rows: ClientDto[] }) {
  return (
    <Table.ScrollContainer minWidth={940} type="native">
      <Table verticalSpacing="sm" horizontalSpacing="sm" highlightOnHover striped="even">
        <Table.Thead>
          <Table.Tr>
            <SortableTh field="nombre" sort={orden} onSort={onSort}>
              Cliente
            </SortableTh>
            <Table.Th ta="right">Presupuesto</Table.Th>
            <Table.Th ta="center">Niveles de autorización</Table.Th>
            <Table.Th>Límite de compras</Table.Th>
            <Table.Th>Estado</Table.Th>
            <SortableTh field="creado" sort={orden} onSort={onSort} firstDirection="desc">
              Fechas
            </SortableTh>
            <Table.Th ta="right">Acciones</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((c) => (
            <Table.Tr key={c.id} data-testid={`cliente-${c.id}`}>
              <Table.Td maw={300}>
                <Group gap="sm" wrap="nowrap">
                  <Logo client={c} />
                  <Box miw={0}>
                    <Text fw={600} size="sm" truncate>
                      {c.nombre}
                    </Text>
                    <Group gap={8} mt={4} wrap="nowrap">
                      <Swatches client={c} />
                      <Documents client={c} />
                    </Group>
                  </Box>
                </Group>
              </Table.Td>
              <Table.Td ta="right" style={{ whiteSpace: 'nowrap', fontVariantNumeric: 'tabular-nums' }}>
                <Text size="sm">{formatMXN(c.presupuesto_default)}</Text>
                <Text size="xs" c="dimmed">
                  Modo {MODO_LABEL[c.modo_presupuesto].toLowerCase()}
                </Text>
              </Table.Td>
              <Table.Td ta="center">{c.cantidad_autorizadores}</Table.Td>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>{limiteLabel(c.limite_de_compras)}</Table.Td>
              <Table.Td>
                <ActiveBadge activo={c.activo} />
              </Table.Td>
              <Table.Td>
                <Dates created={c.created_at} updated={c.updated_at} />
              </Table.Td>
              <Table.Td>
                <Actions client={c} {...actions} />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

function Fact({ label, value }: { label: string; value: React.ReactNode }) {
  return (
    <div>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm" fw={500}>
        {value}
      </Text>
    </div>
  );
}

function ClientsCards({ rows, onEdit, onSso, onToggle }: RowActions & { rows: ClientDto[] }) {
  return (
    <SimpleGrid
      cols={{ base: 1, sm: 2 }}
      spacing="sm"
      p="sm"
      component="ul"
      m={0}
      style={{ listStyle: 'none' }}
    >
      {rows.map((c) => (
        <Card key={c.id} withBorder radius="md" padding="md" component="li" data-testid={`cliente-${c.id}`}>
          <Group justify="space-between" wrap="nowrap" align="flex-start">
            <Group gap="sm" wrap="nowrap" miw={0}>
              <Logo client={c} size={44} />
              <Box miw={0}>
                <Text fw={700} truncate>
                  {c.nombre}
                </Text>
                <Group gap={6} mt={2}>
                  <ActiveBadge activo={c.activo} />
                  <Swatches client={c} />
                </Group>
              </Box>
            </Group>
            <Menu position="bottom-end" withinPortal>
              <Menu.Target>
                <ActionIcon variant="subtle" color="gray" aria-label={`Acciones de ${c.nombre}`}>
                  <IconDots size={18} />
                </ActionIcon>
              </Menu.Target>
              <Menu.Dropdown>
                <ClientScreenItems client={c} />
                <Menu.Divider />
                <Menu.Item leftSection={<IconPencil size={16} />} onClick={() => onEdit(c)}>
                  Editar
                </Menu.Item>
                <SsoItem client={c} onSso={onSso} />
                <ScimItem client={c} />
                <Menu.Item
                  leftSection={<IconPower size={16} />}
                  color={c.activo ? 'red' : 'teal'}
                  onClick={() => void onToggle(c)}
                >
                  {c.activo ? 'Desactivar' : 'Activar'}
                </Menu.Item>
              </Menu.Dropdown>
            </Menu>
          </Group>
          <SimpleGrid cols={2} spacing="xs" verticalSpacing="xs" mt="sm">
            <Fact label="Presupuesto" value={formatMXN(c.presupuesto_default)} />
            <Fact label="Límite de compras" value={limiteLabel(c.limite_de_compras)} />
            <Fact label="Modo de presupuesto" value={MODO_LABEL[c.modo_presupuesto]} />
            <Fact label="Autorización" value={levelsLabel(c.cantidad_autorizadores)} />
          </SimpleGrid>
          <Text size="xs" c="dimmed" mt="xs">
            Creado {formatDateTime(c.created_at)} · Actualizado {formatDateTime(c.updated_at)}
          </Text>
        </Card>
      ))}
    </SimpleGrid>
  );
}

export function ClientsPage() {
  const list = useListParams(ClientsListQuery);
  const { page, q, debouncedQ, setPage, setQ } = usePagedSearch(list);
  const orden = list.values.orden;
  const setOrden = (next: ClientsSort) => list.set({ orden: next });
  const query = useClientsPage(page, debouncedQ, orden);
  const toggle = useToggleClient();
  const [form, setForm] = useState<{ opened: boolean; client: ClientDto | null }>({
    opened: false,
    client: null,
  });

  const [sso, setSso] = useState<{ opened: boolean; client: ClientDto | null }>({
    opened: false,
    client: null,
  });

  const onEdit = (client: ClientDto) => setForm({ opened: true, client });
  const onSso = (client: ClientDto) => setSso({ opened: true, client });
  const onToggle = async (client: ClientDto) => {
    // Deactivating says how many users lose access and how many sessions end (the server counts them);
    // without the counts (the request failed) it still says what happens.
    const summary = client.activo ? await fetchClientSummary(client.id).catch(() => null) : null;
    confirmAction({
      message: !client.activo
        ? `Se activará ${client.nombre} y sus usuarios activos podrán volver a entrar.`
        : summary
          ? MSG.clienteDesactivarConsecuencia(
              client.nombre,
              summary.usuarios_activos,
              summary.usuarios_con_sesion,
            )
          : MSG.clienteDesactivarSinConteo(client.nombre),
      confirmLabel: client.activo ? 'Desactivar' : 'Activar',
      danger: client.activo,
      onConfirm: async () => {
        await toggle.mutateAsync(client);
        showSuccess(MSG.modificadoCorrectamente);
      },
    });
  };

  const data = query.data;

  return (
    <Stack gap={0}>
      <PageHeader
        {...pageHeading('clientes')}
        actions={
          <Button
            leftSection={<IconPlus size={18} aria-hidden />}
            onClick={() => setForm({ opened: true, client: null })}
          >
            Agregar cliente
          </Button>
        }
      />
      <ListPanel
        header={
          <Group align="flex-end" gap="sm">
            <ListSearch label="Buscar cliente" placeholder="Nombre del cliente" value={q} onChange={setQ} />
            <Box hiddenFrom="lg" w={{ base: '100%', xs: 220 }}>
              <Select
                label="Ordenar por"
                data={ClientsSort.values.map((value) => ({ value, label: SORT_LABELS[value] }))}
                value={orden}
                onChange={(v) => setOrden(ClientsSort.read(v))}
                allowDeselect={false}
              />
            </Box>
          </Group>
        }
        page={
          data
            ? {
                page,
                perPage: data.per_page || CLIENTS_PER_PAGE,
                shown: data.clientes.length,
                total: data.total,
              }
            : undefined
        }
        noun={['cliente', 'clientes']}
        query={query}
        loading={{ label: 'Cargando clientes' }}
        errorTitle="No se pudieron cargar los clientes"
        empty={
          <ListEmpty
            icon={<IconBuildingStore size={28} stroke={1.6} />}
            title={debouncedQ ? 'No encontramos clientes' : 'Aún no hay clientes'}
            description={
              debouncedQ
                ? `Ningún cliente coincide con “${debouncedQ}”.`
                : 'Agrega el primer cliente para empezar a dar de alta usuarios e inventario.'
            }
          />
        }
        pager={{ label: 'Páginas de clientes', onChange: setPage }}
      >
        {data ? (
          <>
            <Box visibleFrom="lg">
              <ClientsTable
                rows={data.clientes}
                orden={orden}
                onSort={setOrden}
                onEdit={onEdit}
                onSso={onSso}
                onToggle={onToggle}
              />
            </Box>
            <Box hiddenFrom="lg">
              <ClientsCards rows={data.clientes} onEdit={onEdit} onSso={onSso} onToggle={onToggle} />
            </Box>
          </>
        ) : null}
      </ListPanel>
      <ClientFormModal
        opened={form.opened}
        client={form.client}
        onClose={() => setForm((f) => ({ ...f, opened: false }))}
      />
      <ClientSsoDialog
        opened={sso.opened}
        client={sso.client}
        onClose={() => setSso((s) => ({ ...s, opened: false }))}
      />
      <ClientScimHost />
    </Stack>
  );
}
