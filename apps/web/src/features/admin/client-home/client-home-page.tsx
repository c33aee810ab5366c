/**
 * «Mi empresa», a client administrator's home (rol 5, decision 0122): its client's name, what the
 * distributor lets it change (each allowed change with a link to its screen), the budget cap above which a budget waits for the distributor, its accounts
 * by role (active and inactive, each a link to the filtered users list) and its budget requests; with
 * `identidad`, its client's single sign-on and SCIM token in the distributor's own dialogs; its fiscal data
 * (fiscal-panel.tsx, changed with `fiscales`).
 */
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Group,
  List,
  Paper,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  ThemeIcon,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import {
  CLIENT_PERMISSION_NAMES,
  CLIENT_PERMISSIONS,
  type ClientPermission,
} from '@portal/shared/domain/client-admin';
import { CLIENT_ROLES, ROLE_NAMES } from '@portal/shared/domain/roles';
import type { ClientAdminHomeResponse, ClientDto } from '@portal/shared/schemas/clients';
import {
  IconAlertTriangle,
  IconBuildingSkyscraper,
  IconCheck,
  IconCoins,
  IconId,
  IconUsersGroup,
  IconX,
} from '@tabler/icons-react';
import { lazy, type ReactNode, Suspense, useState } from 'react';
import { Link } from 'react-router';
import { PageHeader } from '../../../components/ui/page';
import { errorMessage } from '../../../lib/api';
import { formatCount, formatMXN, plural } from '../../../lib/format';
import { OwnBudgetRequests } from '../budget-requests/budget-requests-panel';
import { clientScope, mayChangeBudgets, mayChangeFiscal, mayChangeIdentity } from '../scope';
import { useClientAdminHome } from './api';
import { FiscalPanel } from './fiscal-panel';
import { PanelTitle } from './panel-title';

// The distributor's own dialogs (clients screen), loaded when one is opened.
const ClientSsoDialog = lazy(() =>
  import('../clients/client-sso-dialog').then((m) => ({ default: m.ClientSsoDialog })),
);
const ClientScimDialog = lazy(() =>
  import('../clients/client-scim-dialog').then((m) => ({ default: m.ClientScimDialog })),
);

/** Where each change is made in the `/cliente` area (each link's text says where it goes). */
const SCREENS: Record<ClientPermission, { to: string; label: string }[]> = {
  usuarios: [
    { to: '/cliente/usuarios', label: 'Ir a Usuarios' },
    { to: '/cliente/sincronizar', label: 'Aplicar la lista de personal (CSV)' },
  ],
  presupuestos: [{ to: '/cliente/usuarios?rol=1', label: 'En Usuarios, al editar a cada usuario' }],
  asignaciones: [
    { to: '/cliente/usuarios?rol=1', label: 'En Usuarios, con «Productos asignados» de cada comprador' },
  ],
  semanas: [{ to: '/cliente/semanas', label: 'Ir a Semanas de acceso' }],
  reglas: [{ to: '/cliente/reglas', label: 'Ir a Reglas de aprobación' }],
  // On this page, «Inicio de sesión y aprovisionamiento».
  identidad: [],
  // On this page, «Datos fiscales».
  fiscales: [],
};

function Permissions({ permisos }: { permisos: readonly ClientPermission[] }) {
  return (
    <Paper withBorder radius="lg" p="md" shadow="xs" component="section" aria-labelledby="permisos">
      <Title order={2} fz="lg" id="permisos">
        Lo que tu distribuidor te permite
      </Title>
      <Text size="sm" c="dimmed" mb="sm">
        Para cambiarlo, pídelo a tu distribuidor.
      </Text>
      <List spacing="xs" listStyleType="none" p={0} data-testid="permisos-cliente">
        {CLIENT_PERMISSIONS.map((p) => {
          const allowed = permisos.includes(p);
          return (
            <List.Item
              key={p}
              icon={
                <ThemeIcon
                  size={22}
                  radius="xl"
                  variant="light"
                  color={allowed ? 'teal' : 'gray'}
                  aria-hidden
                >
                  {allowed ? <IconCheck size={14} /> : <IconX size={14} />}
                </ThemeIcon>
              }
            >
              <Text size="sm">
                <Text span fw={700} c={allowed ? 'teal.9' : 'gray.7'}>
                  {allowed ? 'Puedes' : 'No puedes'}
                </Text>{' '}
                administrar: {CLIENT_PERMISSION_NAMES[p]}
              </Text>
              {allowed && SCREENS[p].length > 0 ? (
                <Group gap="md" data-testid={`pantalla-${p}`}>
                  {SCREENS[p].map((screen) => (
                    <Anchor key={screen.to} component={Link} to={screen.to} size="xs" fw={600}>
                      {screen.label}
                    </Anchor>
                  ))}
                </Group>
              ) : null}
            </List.Item>
          );
        })}
      </List>
    </Paper>
  );
}

function BudgetCap({ tope, allowed, pending }: { tope: number | null; allowed: boolean; pending: number }) {
  return (
    <Paper withBorder radius="lg" p="md" shadow="xs" component="section" aria-labelledby="tope">
      <PanelTitle id="tope" title="Tope de presupuesto" color="yellow" icon={<IconCoins size={20} />} />
      <Text fz={28} fw={700} lh={1.2} style={{ fontVariantNumeric: 'tabular-nums' }} data-testid="tope">
        {tope === null ? 'Sin tope' : formatMXN(tope)}
      </Text>
      <Text size="sm" c="dimmed" mt={6}>
        {!allowed
          ? 'Los presupuestos y límites de compra los asigna tu distribuidor.'
          : tope === null
            ? 'Los presupuestos mensuales que asignes se aplican al momento.'
            : 'Un presupuesto mensual mayor que el tope queda pendiente hasta que tu distribuidor lo apruebe; mientras, el usuario conserva el que tenía.'}
      </Text>
      {tope !== null || pending > 0 ? (
        <Group
          justify="space-between"
          mt="md"
          pt="sm"
          style={{ borderTop: '1px solid var(--mantine-color-gray-3)' }}
          data-testid="pendientes"
        >
          <Text size="sm" fw={500}>
            Esperando a tu distribuidor
          </Text>
          <Badge variant="light" color={pending > 0 ? 'yellow' : 'gray'} size="lg">
            {pending === 1 ? '1 presupuesto' : `${formatCount(pending)} presupuestos`}
          </Badge>
        </Group>
      ) : null}
    </Paper>
  );
}

/**
 * «Inicio de sesión y aprovisionamiento» (`identidad`): the client's identity provider — its people's sign-in
 * with the company's account and the SCIM token that creates, changes and deactivates them — in the same
 * dialogs the distributor opens from its clients list.
 */
function Identity({ client }: { client: ClientDto }) {
  const [open, setOpen] = useState<'sso' | 'scim' | null>(null);
  const close = () => setOpen(null);
  return (
    <Paper withBorder radius="lg" p="md" shadow="xs" component="section" aria-labelledby="identidad">
      <PanelTitle
        id="identidad"
        title="Inicio de sesión y aprovisionamiento"
        color="indigo"
        icon={<IconId size={20} />}
      />
      <Text size="sm" c="dimmed" mt={4} mb="md">
        Tu gente puede entrar con la cuenta de la empresa (Microsoft Entra ID, Google Workspace, Okta…), y tu
        proveedor de identidad puede dar de alta, modificar y dar de baja a sus usuarios. Los administradores
        de tu empresa siguen entrando con su usuario, su contraseña y su código.
      </Text>
      <Group gap="sm">
        <Button
          variant="light"
          leftSection={<IconBuildingSkyscraper size={18} aria-hidden />}
          onClick={() => setOpen('sso')}
        >
          Inicio de sesión de la empresa
        </Button>
        <Button
          variant="light"
          leftSection={<IconUsersGroup size={18} aria-hidden />}
          onClick={() => setOpen('scim')}
        >
          Aprovisionamiento (SCIM)
        </Button>
      </Group>
      {open !== null ? (
        <Suspense fallback={null}>
          {open === 'sso' ? (
            <ClientSsoDialog opened client={client} onClose={close} />
          ) : (
            <ClientScimDialog opened client={client} onClose={close} />
          )}
        </Suspense>
      ) : null}
    </Paper>
  );
}

function Accounts({ data }: { data: ClientAdminHomeResponse }) {
  return (
    <Stack gap="sm" component="section" aria-labelledby="cuentas">
      <Title order={2} fz="lg" id="cuentas">
        Cuentas de tu empresa
      </Title>
      <SimpleGrid cols={{ base: 2, md: 4 }} spacing="sm">
        {CLIENT_ROLES.map((rol) => {
          const row = data.usuarios_por_rol.find((r) => r.rol === rol);
          const activos = row?.activos ?? 0;
          const inactivos = row?.inactivos ?? 0;
          return (
            <Paper
              key={rol}
              withBorder
              radius="md"
              p="sm"
              shadow="xs"
              role="group"
              aria-label={ROLE_NAMES[rol]}
              data-testid={`cuentas-rol-${rol}`}
            >
              <Text size="sm" fw={600}>
                {ROLE_NAMES[rol]}
              </Text>
              <Text fz={26} fw={700} lh={1.2}>
                {formatCount(activos)}
                <Text span size="sm" fw={500} c="dimmed">
                  {' '}
                  {activos === 1 ? 'activa' : 'activas'}
                </Text>
              </Text>
              <Group justify="space-between" gap={4} mt={2}>
                <Text size="xs" c="dimmed">
                  {plural(inactivos, 'inactiva', 'inactivas')}
                </Text>
                <Anchor component={Link} to={`/cliente/usuarios?rol=${rol}`} size="xs" fw={600}>
                  Ver <VisuallyHidden>{ROLE_NAMES[rol]}</VisuallyHidden>
                </Anchor>
              </Group>
            </Paper>
          );
        })}
      </SimpleGrid>
    </Stack>
  );
}

/** «Mi empresa»; `actions`: what the area puts beside its title (its reports). */
export function ClientHomePage({ actions }: { actions?: ReactNode }) {
  const home = useClientAdminHome();
  const data = home.data;
  return (
    <Stack gap="lg">
      <PageHeader
        title="Mi empresa"
        description={data ? data.cliente.nombre : 'Tu empresa en el portal'}
        actions={actions}
      />
      {home.isPending ? (
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md" mt={-16}>
          <Skeleton h={260} radius="lg" />
          <Skeleton h={260} radius="lg" />
        </SimpleGrid>
      ) : home.isError || !data ? (
        <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} />} role="alert">
          {errorMessage(home.error, 'No se pudieron cargar los datos de tu empresa.')}
        </Alert>
      ) : (
        <>
          <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md" mt={-16}>
            <Permissions permisos={data.cliente.permisos_cliente} />
            <BudgetCap
              tope={data.cliente.tope_presupuesto}
              allowed={mayChangeBudgets(clientScope(data.cliente))}
              pending={data.solicitudes_pendientes}
            />
          </SimpleGrid>
          {mayChangeIdentity(clientScope(data.cliente)) ? <Identity client={data.cliente} /> : null}
          <FiscalPanel client={data.cliente} editable={mayChangeFiscal(clientScope(data.cliente))} />
          <Accounts data={data} />
          <OwnBudgetRequests />
        </>
      )}
    </Stack>
  );
}
