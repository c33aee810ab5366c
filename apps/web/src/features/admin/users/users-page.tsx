/**
 * Pick a client (kept in `?cliente=`; a client administrator's own client is fixed, scope.ts); then
 * 'Agregar nuevo usuario', the import button and the client's users (10 per page from the server,
 * searchable; administrators never listed), filtered by role (`?rol=`) and status (`?estatus=`) and sorted
 * on the server by name, username or last sign-in (`?orden=`, decision 0067). Per row: reset password,
 * reset two-factor sign-in (when active), edit (drawer, `?editar={id}`), activate/deactivate and, for rol 1,
 * the link to the user's products. The checkboxes select users across pages: 'Asignar productos…' assigns
 * products to the checked rol-1 users (bulk-assign-dialog.tsx), 'Desactivar' deactivates the checked users
 * after a confirmation that gives the server's count of the sessions that end. A client administrator
 * (rol 5) sees the same list of its own client without what only the distributor has (the client picker,
 * imports, two-factor resets, the unsent-access banner, delegations); without its client's permission
 * `usuarios` the list is read-only, and the rows of client administrators are never its to change. With
 * `asignaciones` it has the buyers' products (the row's link and 'Asignar productos…'), in its own area.
 */
import '@mantine/core/styles/Table.css';
import {
  ActionIcon,
  Anchor,
  Badge,
  Box,
  Button,
  Card,
  Checkbox,
  Group,
  Menu,
  Paper,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Tooltip,
} from '@mantine/core';
import { isRol, ROLE_NAMES, ROLES } from '@portal/shared/domain/roles';
import { USERS_PER_PAGE } from '@portal/shared/limits';
import { MSG } from '@portal/shared/messages';
import type { ClientDto } from '@portal/shared/schemas/clients';
import type { UserDto, UsersSort } from '@portal/shared/schemas/users';
import {
  IconDots,
  IconKey,
  IconMapPin,
  IconPackages,
  IconPencil,
  IconPower,
  IconShieldCheck,
  IconShieldOff,
  IconUserPlus,
} from '@tabler/icons-react';
import { Fragment, type ReactNode, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { ActiveBadge } from '../../../components/ui/active-badge';
import { showSuccess } from '../../../components/ui/alerts';
import { ChooseClientFirst } from '../../../components/ui/choose-client';
import { confirmAction } from '../../../components/ui/confirm';
import { ListPanel } from '../../../components/ui/list-panel';
import { PageHeader } from '../../../components/ui/page';
import { SortableTh } from '../../../components/ui/sortable-th';
import { formatDate, formatDateTime, formatMXN } from '../../../lib/format';
import { useListParams, usePagedSearch } from '../../../lib/list-params';
import { type RowSelection, useRowSelection } from '../../../lib/row-selection';
import { levelsLabel } from '../clients/client-form-values';
import { ClientSelect, useAllClients, useSelectedClient } from '../clients/client-select';
import {
  type AdminScope,
  areaPath,
  isDistributor,
  mayAssign,
  mayAssignTo,
  mayChangeUsers,
  mayManage,
  maySelect,
  userProductsPath,
} from '../scope';
import { useAdminScope } from '../scope-context';
import { useResetPassword, useResetTwoFactor, useToggleUser, useUsersPage } from './api';
import { BulkAssignDialog } from './bulk-assign-dialog';
import { WithUnsentAccessBanner } from './unsent-access-banner';
import type { DelegationPanelSlot } from './user-delegation';
import { UserFormDrawer } from './user-form-drawer';
import { UsersBulkBar, UsersEmpty, UsersFilterBar, UsersListQuery } from './users-list-tools';

const ROL_COLOR: Record<number, string> = { 1: 'blue', 2: 'grape', 3: 'violet', 5: 'orange' };

/** The role's name, whole: a long one («Administrador de cliente») takes two lines rather than widen the column. */
function RolBadge({ rol }: { rol: number }) {
  return (
    <Badge
      variant="light"
      color={ROL_COLOR[rol] ?? 'gray'}
      radius="sm"
      h="auto"
      py={2}
      maw="100%"
      styles={{ label: { whiteSpace: 'normal', overflow: 'visible' } }}
    >
      {isRol(rol) ? ROLE_NAMES[rol] : `Rol ${rol}`}
    </Badge>
  );
}

/** Two-factor sign-in is active for the user. */
function TwoFactorBadge() {
  return (
    <Badge
      variant="light"
      color="indigo"
      radius="sm"
      leftSection={<IconShieldCheck size={12} aria-hidden />}
      style={{ minWidth: 'max-content' }}
    >
      Dos pasos
    </Badge>
  );
}

interface RowActions {
  /** What the signed-in administrator may do (scope.ts). */
  scope: AdminScope;
  onReset: (user: UserDto) => void;
  onResetTwoFactor: (user: UserDto) => void;
  onEdit: (user: UserDto) => void;
  onToggle: (user: UserDto) => void;
}

/** The checked users (kept across pages, by id): 'Asignar productos…' takes the rol-1 ones, 'Desactivar' all. */
type Selection = RowSelection<UserDto>;

function SelectCheckbox({
  user,
  selection,
  scope,
}: {
  user: UserDto;
  selection: Selection;
  scope: AdminScope;
}) {
  if (!maySelect(scope, user)) return null;
  return (
    <Checkbox
      aria-label={`Seleccionar a ${user.usuario}`}
      checked={selection.has(user.id)}
      onChange={(e) => selection.toggle(user, e.currentTarget.checked)}
    />
  );
}

function PageCheckbox({
  rows,
  selection,
  scope,
}: {
  rows: UserDto[];
  selection: Selection;
  scope: AdminScope;
}) {
  const selectable = rows.filter((u) => maySelect(scope, u));
  return (
    <Checkbox
      aria-label="Seleccionar los usuarios de esta página"
      {...selection.page(selectable)}
      disabled={selectable.length === 0}
    />
  );
}

/** "dd/MM/yyyy HH:mm" of the last sign-in, or "Nunca". */
function LastAccess({ user, size = 'sm' }: { user: UserDto; size?: 'sm' | 'xs' }) {
  return user.ultimo_acceso ? (
    <Text size={size} style={{ fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' }}>
      {formatDateTime(user.ultimo_acceso)}
    </Text>
  ) : (
    <Text size={size} c="dimmed">
      Nunca
    </Text>
  );
}

interface Sorting {
  orden: UsersSort;
  onSort: (next: UsersSort) => void;
}

function Actions({
  user,
  scope,
  onReset,
  onResetTwoFactor,
  onEdit,
  onToggle,
}: RowActions & { user: UserDto }) {
  const manages = mayManage(scope, user);
  const products = mayAssignTo(scope, user);
  if (!manages && !products) return null;
  const distributor = isDistributor(scope);
  const productsLink = (
    <Tooltip label="Productos asignados" withArrow>
      <ActionIcon
        component={Link}
        to={userProductsPath(scope, user)}
        variant="subtle"
        color="teal"
        aria-label={`Productos de ${user.usuario}`}
      >
        <IconPackages size={18} />
      </ActionIcon>
    </Tooltip>
  );
  if (!manages) return <Group justify="flex-end">{productsLink}</Group>;
  return (
    <Group gap={2} justify="flex-end" wrap="nowrap">
      <Tooltip label="Restablecer contraseña" withArrow>
        <ActionIcon
          variant="subtle"
          color="gray"
          aria-label={`Restablecer contraseña de ${user.usuario}`}
          onClick={() => onReset(user)}
        >
          <IconKey size={18} />
        </ActionIcon>
      </Tooltip>
      <Tooltip label="Editar" withArrow>
        <ActionIcon variant="subtle" aria-label={`Editar ${user.usuario}`} onClick={() => onEdit(user)}>
          <IconPencil size={18} />
        </ActionIcon>
      </Tooltip>
      <Tooltip label={user.activo ? 'Desactivar' : 'Activar'} withArrow>
        <ActionIcon
          variant="subtle"
          color={user.activo ? 'red' : 'teal'}
          aria-label={`${user.activo ? 'Desactivar' : 'Activar'} ${user.usuario}`}
          onClick={() => onToggle(user)}
        >
          <IconPower size={18} />
        </ActionIcon>
      </Tooltip>
      {/* The last place: rol 1's products, or the reset of an active second step (never rol 1's). */}
      {distributor && user.dos_pasos ? (
        <Tooltip label="Restablecer verificación en dos pasos" withArrow>
          <ActionIcon
            variant="subtle"
            color="gray"
            aria-label={`Restablecer verificación en dos pasos de ${user.usuario}`}
            onClick={() => onResetTwoFactor(user)}
          >
            <IconShieldOff size={18} />
          </ActionIcon>
        </Tooltip>
      ) : products ? (
        productsLink
      ) : distributor || mayAssign(scope) ? (
        <Box w={28} aria-hidden />
      ) : null}
    </Group>
  );
}

function UsersTable({
  rows,
  selection,
  orden,
  onSort,
  ...actions
}: RowActions & Sorting & { rows: UserDto[]; selection: Selection }) {
  // Read-only (a client administrator without `usuarios` nor `asignaciones`): no checkboxes, no actions.
  const changes = mayChangeUsers(actions.scope) || mayAssign(actions.scope);
  return (
    <Table.ScrollContainer minWidth={960} type="native">
      <Table verticalSpacing="sm" horizontalSpacing="xs" highlightOnHover striped="even">
        <Table.Thead>
          <Table.Tr>
            {changes ? (
              <Table.Th ps="md" w={44}>
                <PageCheckbox rows={rows} selection={selection} scope={actions.scope} />
              </Table.Th>
            ) : null}
            <SortableTh field="nombre" sort={orden} onSort={onSort}>
              Nombre
            </SortableTh>
            <SortableTh field="usuario" sort={orden} onSort={onSort}>
              Usuario y rol
            </SortableTh>
            <Table.Th>Semanas</Table.Th>
            <Table.Th ta="right">Presupuesto</Table.Th>
            <Table.Th>Estado</Table.Th>
            <SortableTh field="ultimo_acceso" sort={orden} onSort={onSort} firstDirection="desc">
              Último acceso
            </SortableTh>
            {changes ? (
              <Table.Th ta="right" pe="md">
                Acciones
              </Table.Th>
            ) : null}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((u) => (
            <Table.Tr key={u.id} data-testid={`usuario-${u.usuario}`}>
              {changes ? (
                <Table.Td ps="md">
                  <SelectCheckbox user={u} selection={selection} scope={actions.scope} />
                </Table.Td>
              ) : null}
              <Table.Td maw={240}>
                <Text size="sm" fw={600} truncate>
                  {u.nombre}
                </Text>
                <Text size="xs" c="dimmed" truncate>
                  {u.user_id || 'Sin correo'}
                </Text>
              </Table.Td>
              <Table.Td maw={200}>
                <Text size="sm" truncate mb={4}>
                  {u.usuario}
                </Text>
                <RolBadge rol={u.rol} />
              </Table.Td>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>
                <Text size="xs">
                  <Text span size="xs" c="dimmed">
                    Referencia{' '}
                  </Text>
                  {u.active_week}
                </Text>
                <Text size="xs">
                  <Text span size="xs" c="dimmed">
                    Entrega{' '}
                  </Text>
                  {u.entrega_week}
                </Text>
              </Table.Td>
              <Table.Td ta="right" style={{ whiteSpace: 'nowrap', fontVariantNumeric: 'tabular-nums' }}>
                {u.rol === ROLES.usuario ? (
                  <>
                    <Text size="sm">{formatMXN(u.presupuesto_default)}</Text>
                    <Text size="xs" c="dimmed">
                      {u.limite_de_compras === -1
                        ? 'Sin límite de compras'
                        : `Límite: ${u.limite_de_compras} al mes`}
                    </Text>
                  </>
                ) : (
                  <Text size="sm" c="dimmed">
                    N/A
                  </Text>
                )}
              </Table.Td>
              <Table.Td>
                <Stack gap={4} align="flex-start">
                  <ActiveBadge activo={u.activo} />
                  {u.dos_pasos ? <TwoFactorBadge /> : null}
                </Stack>
              </Table.Td>
              <Table.Td>
                <LastAccess user={u} />
                <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
                  Creado {formatDate(u.created_at)}
                </Text>
              </Table.Td>
              {changes ? (
                <Table.Td pe="md">
                  <Actions user={u} {...actions} />
                </Table.Td>
              ) : null}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** A card's menu: what the scope may do with this user (nothing: no menu). */
function CardMenu({
  user: u,
  scope,
  onReset,
  onResetTwoFactor,
  onEdit,
  onToggle,
}: RowActions & { user: UserDto }) {
  const manages = mayManage(scope, u);
  const products = mayAssignTo(scope, u);
  if (!manages && !products) return null;
  const distributor = isDistributor(scope);
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <ActionIcon variant="subtle" color="gray" aria-label={`Acciones de ${u.usuario}`}>
          <IconDots size={18} />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        {manages ? (
          <>
            <Menu.Item leftSection={<IconPencil size={16} />} onClick={() => onEdit(u)}>
              Editar
            </Menu.Item>
            <Menu.Item leftSection={<IconKey size={16} />} onClick={() => onReset(u)}>
              Restablecer contraseña
            </Menu.Item>
          </>
        ) : null}
        {distributor && u.dos_pasos ? (
          <Menu.Item leftSection={<IconShieldOff size={16} />} onClick={() => onResetTwoFactor(u)}>
            Restablecer verificación en dos pasos
          </Menu.Item>
        ) : null}
        {products ? (
          <Menu.Item
            component={Link}
            to={userProductsPath(scope, u)}
            leftSection={<IconPackages size={16} />}
          >
            Productos asignados
          </Menu.Item>
        ) : null}
        {manages ? (
          <Menu.Item
            leftSection={<IconPower size={16} />}
            color={u.activo ? 'red' : 'teal'}
            onClick={() => onToggle(u)}
          >
            {u.activo ? 'Desactivar' : 'Activar'}
          </Menu.Item>
        ) : null}
      </Menu.Dropdown>
    </Menu>
  );
}

function UsersCards({ rows, selection, ...actions }: RowActions & { rows: UserDto[]; selection: Selection }) {
  return (
    <SimpleGrid
      cols={{ base: 1, sm: 2 }}
      spacing="sm"
      p="sm"
      component="ul"
      m={0}
      style={{ listStyle: 'none' }}
    >
      {rows.map((u) => (
        <Card
          key={u.id}
          withBorder
          radius="md"
          padding="md"
          component="li"
          data-testid={`usuario-${u.usuario}`}
        >
          <Group justify="space-between" wrap="nowrap" align="flex-start">
            <Group gap="sm" wrap="nowrap" align="flex-start" miw={0}>
              <SelectCheckbox user={u} selection={selection} scope={actions.scope} />
              <Box miw={0}>
                <Text fw={700} truncate>
                  {u.nombre}
                </Text>
                <Text size="sm" c="dimmed" truncate>
                  {u.usuario} · {u.user_id || 'Sin correo'}
                </Text>
              </Box>
            </Group>
            <CardMenu user={u} {...actions} />
          </Group>
          <Group gap={6} mt="xs">
            <RolBadge rol={u.rol} />
            <ActiveBadge activo={u.activo} />
            {u.dos_pasos ? <TwoFactorBadge /> : null}
          </Group>
          <SimpleGrid cols={2} spacing="xs" mt="sm">
            <div>
              <Text size="xs" c="dimmed">
                Presupuesto
              </Text>
              <Text size="sm" fw={500}>
                {u.rol === ROLES.usuario ? formatMXN(u.presupuesto_default) : 'N/A'}
              </Text>
            </div>
            <div>
              <Text size="xs" c="dimmed">
                Semanas
              </Text>
              <Text size="sm" fw={500}>
                Referencia {u.active_week} · Entrega {u.entrega_week}
              </Text>
            </div>
          </SimpleGrid>
          <Group gap={4} mt="xs" wrap="nowrap">
            <Text size="xs" c="dimmed">
              Último acceso:
            </Text>
            <LastAccess user={u} size="xs" />
          </Group>
          <Text size="xs" c="dimmed">
            Creado {formatDateTime(u.created_at)} · Actualizado {formatDateTime(u.updated_at)}
          </Text>
        </Card>
      ))}
    </SimpleGrid>
  );
}

function ClientFacts({ client }: { client: ClientDto }) {
  return (
    <Group gap="xs">
      <Badge variant="light" color={client.activo ? 'teal' : 'gray'}>
        {client.activo ? 'Cliente activo' : 'Cliente inactivo'}
      </Badge>
      <Badge variant="light" color="indigo">
        {client.modo_presupuesto === 'categoria' ? 'Presupuesto por categoría' : 'Presupuesto regular'}
      </Badge>
      <Badge variant="light" color="gray">
        {levelsLabel(client.cantidad_autorizadores)}
      </Badge>
    </Group>
  );
}

interface UsersPageProps {
  /** 'Importación por archivo' for the chosen client (another module owns it). */
  importButton?: (idCliente: number) => ReactNode;
  /** An authorizer's "Fuera de oficina" in the user drawer (another feature owns it). */
  delegationPanel?: DelegationPanelSlot;
}

/** Confirm, then reset a password or the two-factor sign-in, or activate or deactivate one user. */
function useUserRowActions(): Omit<RowActions, 'onEdit' | 'scope'> {
  const toggle = useToggleUser();
  const reset = useResetPassword();
  const resetTwoFactor = useResetTwoFactor();
  const onToggle = (user: UserDto) =>
    confirmAction({
      message: user.activo
        ? `Se desactivará a ${user.nombre} (${user.usuario}): no podrá iniciar sesión y se cerrarán sus sesiones abiertas.`
        : `Se activará a ${user.nombre} (${user.usuario}) y podrá volver a iniciar sesión.`,
      confirmLabel: user.activo ? 'Desactivar' : 'Activar',
      danger: user.activo,
      onConfirm: async () => {
        await toggle.mutateAsync(user);
        showSuccess(MSG.modificadoCorrectamente);
      },
    });
  const onReset = (user: UserDto) =>
    confirmAction({
      message: (
        <Text>
          Se generará una contraseña temporal para <b>{user.usuario}</b> y se enviará a{' '}
          <b>{user.user_id || 'su correo'}</b>. Deberá cambiarla al iniciar sesión.
        </Text>
      ),
      confirmLabel: 'Restablecer contraseña',
      onConfirm: async () => {
        const res = await reset.mutateAsync(user.id);
        showSuccess('Contraseña restablecida', res.msg);
      },
    });
  const onResetTwoFactor = (user: UserDto) =>
    confirmAction({
      message: (
        <Text>
          Se desactivará la verificación en dos pasos de <b>{user.nombre}</b> ({user.usuario}): podrá entrar
          solo con su contraseña, se cerrarán sus sesiones abiertas y se le avisará por correo. Podrá volver a
          activarla desde Seguridad.
        </Text>
      ),
      confirmLabel: 'Restablecer',
      danger: true,
      onConfirm: async () => {
        const res = await resetTwoFactor.mutateAsync(user.id);
        showSuccess('Verificación en dos pasos restablecida', res.msg);
      },
    });
  return { onToggle, onReset, onResetTwoFactor };
}

/**
 * The user drawer: `?editar={id}` (a step the back button closes) or a new user. While it closes it keeps
 * showing the user it had (not an empty 'new user' form).
 */
function useUserDrawer() {
  const [params, setParams] = useSearchParams();
  const editRaw = params.get('editar');
  const editId = editRaw && /^\d{1,10}$/.test(editRaw) && Number(editRaw) > 0 ? Number(editRaw) : null;
  const [creating, setCreating] = useState(false);
  const lastEdit = useRef<number | null>(null);
  if (creating) lastEdit.current = null;
  else if (editId) lastEdit.current = editId;
  const setEdit = (id: number | null) =>
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        if (id) next.set('editar', String(id));
        else next.delete('editar');
        return next;
      },
      { replace: !id },
    );
  return {
    opened: creating || editId !== null,
    userId: creating ? null : (editId ?? lastEdit.current),
    create: () => setCreating(true),
    edit: (user: UserDto) => setEdit(user.id),
    close: () => {
      setCreating(false);
      setEdit(null);
    },
  };
}

/** 'Agregar nuevo usuario' (when the scope may create accounts) and the import button. */
function CreateButtons({
  idCliente,
  client,
  onCreate,
  importButton,
}: {
  idCliente: number;
  client: ClientDto | null;
  onCreate: () => void;
  importButton?: (idCliente: number) => ReactNode;
}) {
  const scope = useAdminScope();
  if (!mayChangeUsers(scope)) return null;
  return (
    <Group gap="sm" w={{ base: '100%', sm: 'auto' }} style={{ alignSelf: 'flex-end' }}>
      <Button leftSection={<IconUserPlus size={18} aria-hidden />} onClick={onCreate} disabled={!client}>
        Agregar nuevo usuario
      </Button>
      {importButton ? importButton(idCliente) : null}
    </Group>
  );
}

/**
 * The client's bar: the distributor's select of the client, or a client administrator's own client by
 * name (it has no other); the client's facts, 'Agregar nuevo usuario' and the import button.
 */
function ClientBar({
  picker,
  idCliente,
  client,
  onCreate,
  importButton,
}: {
  picker: ReactNode;
  idCliente: number | null;
  client: ClientDto | null;
  onCreate: () => void;
  importButton?: (idCliente: number) => ReactNode;
}) {
  return (
    <Paper withBorder radius="lg" shadow="xs" p={{ base: 'sm', sm: 'md' }} mt={-8}>
      <Group justify="space-between" align="flex-end" gap="md">
        <Stack gap={8} w={{ base: '100%', sm: 380 }}>
          {picker}
          {client ? <ClientFacts client={client} /> : null}
        </Stack>
        {idCliente ? (
          <CreateButtons
            idCliente={idCliente}
            client={client}
            onCreate={onCreate}
            importButton={importButton}
          />
        ) : null}
      </Group>
    </Paper>
  );
}

/** The client a users screen works on: the one chosen (the distributor), or the scope's own. */
interface UsersClient {
  idCliente: number | null;
  client: ClientDto | null;
  /** Where the drawer finds an edited user's client. */
  clients: ClientDto[];
  /** What names the client in the bar: the select, or the own client's name. */
  picker: ReactNode;
  /** Below the list: the clients could not be read. */
  problem: ReactNode;
}

export function UsersPage(props: UsersPageProps) {
  const scope = useAdminScope();
  if (scope.client) {
    const own = scope.client;
    return (
      <UsersScreen
        {...props}
        users={{
          idCliente: own.id,
          client: own,
          clients: [own],
          picker: (
            <Text fw={700} size="lg">
              {own.nombre}
            </Text>
          ),
          problem: null,
        }}
      />
    );
  }
  return <AnyClientUsers {...props} />;
}

/** The distributor's screen: the client chosen in `?cliente=`, with the unsent-access banner above. */
function AnyClientUsers(props: UsersPageProps) {
  const [idCliente, setCliente] = useSelectedClient();
  const clients = useAllClients();
  return (
    <UsersScreen
      {...props}
      users={{
        idCliente,
        client: clients.data?.clientes.find((c) => c.id === idCliente) ?? null,
        clients: clients.data?.clientes ?? [],
        picker: <ClientSelect value={idCliente} onChange={(id) => setCliente(id)} />,
        problem: clients.isError ? (
          <Text size="sm" c="red">
            No se pudo cargar la lista de clientes.{' '}
            <Anchor component="button" type="button" onClick={() => void clients.refetch()}>
              Reintentar
            </Anchor>
          </Text>
        ) : null,
      }}
    />
  );
}

function UsersScreen({ importButton, delegationPanel, users }: UsersPageProps & { users: UsersClient }) {
  const scope = useAdminScope();
  const distributor = isDistributor(scope);
  const { idCliente, client } = users;
  const list = useListParams(UsersListQuery);
  const { page, q, debouncedQ, setPage, setQ } = usePagedSearch(list);
  const { rol, estatus, orden } = list.values;
  const query = useUsersPage(idCliente, page, debouncedQ, {
    rol: rol ?? null,
    estatus: estatus ?? null,
    orden,
  });
  const drawer = useUserDrawer();
  // A selection belongs to one client.
  const selection = useRowSelection<UserDto>(idCliente);
  const [assigning, setAssigning] = useState(false);
  const rowActions: RowActions = { ...useUserRowActions(), onEdit: drawer.edit, scope };
  const data = query.data;
  const rows = data?.usuarios ?? [];
  const perPage = data?.per_page || USERS_PER_PAGE;
  // The unsent-access banner reads every client's welcome e-mails: the distributor's alone.
  const Frame = distributor ? WithUnsentAccessBanner : Fragment;

  return (
    <Stack gap="lg">
      <PageHeader
        title="Usuarios"
        actions={
          idCliente ? (
            <Button
              component={Link}
              to={`${areaPath(scope)}/direcciones${distributor ? `?cliente=${idCliente}` : ''}`}
              variant="light"
              leftSection={<IconMapPin size={18} aria-hidden />}
            >
              Direcciones de entrega
            </Button>
          ) : null
        }
        description={
          distributor
            ? 'Las cuentas de cada cliente: roles, presupuestos, semanas y productos asignados.'
            : mayChangeUsers(scope)
              ? mayAssign(scope)
                ? 'Las cuentas de tu empresa: roles, presupuestos, semanas y productos asignados.'
                : 'Las cuentas de tu empresa: roles, presupuestos y semanas.'
              : mayAssign(scope)
                ? 'Las cuentas de tu empresa. Tu distribuidor no te permite cambiarlas: solo asignar productos a los usuarios.'
                : 'Las cuentas de tu empresa. Tu distribuidor no te permite cambiarlas: solo puedes consultarlas.'
        }
      />
      <Frame>
        <ClientBar
          picker={users.picker}
          idCliente={idCliente}
          client={client}
          onCreate={drawer.create}
          importButton={importButton}
        />

        {idCliente === null ? (
          <ChooseClientFirst description="Selecciona un cliente en la lista de arriba para ver, agregar o importar sus usuarios." />
        ) : (
          <ListPanel
            header={
              <Stack gap="sm">
                <UsersFilterBar list={list} q={q} setQ={setQ} />
                {mayChangeUsers(scope) || mayAssign(scope) ? (
                  <UsersBulkBar
                    selection={selection}
                    onAssign={mayAssign(scope) ? () => setAssigning(true) : undefined}
                    manages={mayChangeUsers(scope)}
                  />
                ) : null}
              </Stack>
            }
            page={data ? { page, perPage, shown: rows.length, total: data.total } : undefined}
            noun={['usuario', 'usuarios']}
            query={query}
            loading={{ label: 'Cargando usuarios' }}
            errorTitle="No se pudieron cargar los usuarios"
            empty={
              <UsersEmpty
                debouncedQ={debouncedQ}
                filtered={Boolean(rol || estatus)}
                creates={mayChangeUsers(scope)}
                imports={distributor}
              />
            }
            pager={{ label: 'Páginas de usuarios', onChange: setPage }}
          >
            <Box visibleFrom="lg">
              <UsersTable
                rows={rows}
                selection={selection}
                orden={orden}
                onSort={(next) => list.set({ orden: next })}
                {...rowActions}
              />
            </Box>
            <Box hiddenFrom="lg">
              <UsersCards rows={rows} selection={selection} {...rowActions} />
            </Box>
          </ListPanel>
        )}

        {users.problem}

        {idCliente && mayAssign(scope) ? (
          <BulkAssignDialog
            opened={assigning}
            onClose={() => setAssigning(false)}
            idCliente={idCliente}
            defaultLimit={client?.limite_por_defecto ?? 1}
            // The selection stays after an assignment: the next one needs no re-selecting.
            users={[...selection.selected.values()]
              .filter((u) => u.rol === ROLES.usuario)
              .map((u) => ({ id: u.id, usuario: u.usuario }))}
          />
        ) : null}

        <UserFormDrawer
          // Read-only: no drawer (an address with `?editar=` opens nothing).
          opened={drawer.opened && mayChangeUsers(scope)}
          client={client}
          clients={users.clients}
          userId={drawer.userId}
          delegationPanel={distributor ? delegationPanel : undefined}
          onClose={drawer.close}
        />
      </Frame>
    </Stack>
  );
}
