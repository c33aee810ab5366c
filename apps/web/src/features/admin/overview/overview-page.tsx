/**
 * The administrator's home: active clients and users, this month's
 * orders by status, imports running or failed, the budgets asked above a client's cap waiting for a
 * decision (decision 0122), the clients with budget top-ups waiting (decision 0123; only while some wait),
 * and quick links to the five sections.
 */
import '@mantine/core/styles/Grid.css';
import '@mantine/core/styles/Progress.css';
import {
  Alert,
  Anchor,
  Box,
  Card,
  Grid,
  Group,
  Paper,
  Progress,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  ThemeIcon,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import type { AdminOverview } from '@portal/shared/schemas/overview';
import {
  IconAlertTriangle,
  IconBuildingStore,
  IconCalendarWeek,
  IconChevronRight,
  IconFileImport,
  IconListDetails,
  IconPackages,
  IconReceipt,
  IconUsers,
} from '@tabler/icons-react';
import type { ComponentType, ReactNode } from 'react';
import { Link } from 'react-router';
import { PageHeader } from '../../../components/ui/page';
import { errorMessage } from '../../../lib/api';
import { CLIENT_SCREENS, withClient } from '../../../lib/chosen-client';
import { formatCount, plural } from '../../../lib/format';
import { useSession } from '../../../lib/session';
import { PendingBudgetsCard } from '../budget-requests/budget-requests-panel';
import { WithUnsentAccessBanner } from '../users/unsent-access-banner';
import { useAdminOverview } from './api';

type TablerIcon = ComponentType<{ size?: number; stroke?: number }>;

const SECTIONS: { to: string; title: string; text: string; Icon: TablerIcon; color: string }[] = [
  {
    to: '/administrador/clientes',
    title: 'Clientes',
    text: 'Empresas, marca, presupuesto y límites.',
    Icon: IconBuildingStore,
    color: 'indigo',
  },
  {
    to: '/administrador/semanas',
    title: 'Semanas de acceso',
    text: 'Los periodos en que cada cliente compra.',
    Icon: IconCalendarWeek,
    color: 'teal',
  },
  {
    to: '/administrador/inventario',
    title: 'Inventario',
    text: 'Productos, categorías e íconos por cliente.',
    Icon: IconPackages,
    color: 'grape',
  },
  {
    to: '/administrador/usuarios',
    title: 'Usuarios',
    text: 'Cuentas, roles, presupuestos y asignaciones.',
    Icon: IconUsers,
    color: 'orange',
  },
  {
    to: '/administrador/logs',
    title: 'Registros del sistema',
    text: 'Registro de eventos del portal.',
    Icon: IconListDetails,
    color: 'gray',
  },
];

/** Colours: pendiente warning, espera info, aprobado success, cancelado danger. */
const STATUSES = [
  { key: 'pendiente', label: 'Pendiente', color: 'yellow' },
  { key: 'espera', label: 'Espera', color: 'cyan' },
  { key: 'aprobado', label: 'Aprobado', color: 'green' },
  { key: 'cancelado', label: 'Cancelado', color: 'red' },
] as const;

function monthName(mes: string): string {
  const text = new Intl.DateTimeFormat('es-MX', { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(
    new Date(`${mes}-01T12:00:00Z`),
  );
  return text.charAt(0).toUpperCase() + text.slice(1);
}

interface StatProps {
  label: string;
  value: ReactNode;
  hint: ReactNode;
  Icon: TablerIcon;
  color: string;
  to?: string;
}

function Stat({ label, value, hint, Icon, color, to }: StatProps) {
  return (
    <Paper withBorder radius="lg" p="md" shadow="xs" component="section" aria-label={label}>
      <Group justify="space-between" align="flex-start" wrap="nowrap">
        <Box miw={0}>
          <Text size="sm" c="dimmed" fw={500}>
            {label}
          </Text>
          <Text fz={32} fw={700} lh={1.2} data-testid={`resumen-${label}`}>
            {value}
          </Text>
        </Box>
        <ThemeIcon size={44} radius="md" variant="light" color={color} aria-hidden>
          <Icon size={24} stroke={1.7} />
        </ThemeIcon>
      </Group>
      <Group justify="space-between" mt={6} gap="xs">
        <Text size="xs" c="dimmed">
          {hint}
        </Text>
        {to ? (
          <Anchor component={Link} to={to} size="xs" fw={600}>
            Ver <VisuallyHidden>{label.toLowerCase()}</VisuallyHidden>
          </Anchor>
        ) : null}
      </Group>
    </Paper>
  );
}

function OrdersCard({ data }: { data: AdminOverview }) {
  const p = data.pedidos_mes;
  return (
    <Paper withBorder radius="lg" p="md" shadow="xs" component="section" aria-labelledby="pedidos-mes">
      <Group justify="space-between" mb="sm" wrap="wrap" gap="xs">
        <Title order={2} fz="lg" id="pedidos-mes">
          Pedidos de {monthName(data.mes).toLowerCase()}
        </Title>
        <Text size="sm" c="dimmed">
          {plural(p.total, 'pedido', 'pedidos')}
        </Text>
      </Group>
      <Progress.Root size={14} radius="xl" aria-hidden>
        {p.total === 0 ? (
          <Progress.Section value={100} color="gray.2" />
        ) : (
          STATUSES.map((s) =>
            p[s.key] > 0 ? (
              <Progress.Section key={s.key} value={(p[s.key] / p.total) * 100} color={s.color} />
            ) : null,
          )
        )}
      </Progress.Root>
      <SimpleGrid
        cols={{ base: 2, sm: 4 }}
        spacing="sm"
        mt="md"
        component="ul"
        style={{ listStyle: 'none', padding: 0, margin: 0 }}
      >
        {STATUSES.map((s) => (
          <Box
            component="li"
            key={s.key}
            p="sm"
            style={{
              borderRadius: 'var(--mantine-radius-md)',
              borderLeft: `4px solid var(--mantine-color-${s.color}-6)`,
              background: `var(--mantine-color-${s.color}-0)`,
            }}
            data-testid={`pedidos-${s.key}`}
          >
            <Text size="xs" fw={600} c={`var(--mantine-color-${s.color}-light-color)`}>
              {s.label}
            </Text>
            <Text fz={24} fw={700} lh={1.2}>
              {formatCount(p[s.key])}
            </Text>
          </Box>
        ))}
      </SimpleGrid>
      {p.total === 0 ? (
        <Text size="sm" c="dimmed" mt="sm">
          Aún no hay pedidos este mes.
        </Text>
      ) : null}
    </Paper>
  );
}

function ImportsCard({ data }: { data: AdminOverview }) {
  const { en_proceso, fallidas_7_dias } = data.importaciones;
  return (
    <Paper
      withBorder
      radius="lg"
      p="md"
      shadow="xs"
      component="section"
      aria-labelledby="importaciones-resumen"
      h="100%"
    >
      <Group gap="sm" mb="sm" wrap="nowrap">
        <ThemeIcon variant="light" color="grape" radius="md" size="lg" aria-hidden>
          <IconFileImport size={20} />
        </ThemeIcon>
        <Title order={2} fz="lg" id="importaciones-resumen">
          Importaciones
        </Title>
      </Group>
      <SimpleGrid cols={2} spacing="sm">
        <Box>
          <Text size="xs" c="dimmed" fw={500}>
            En proceso
          </Text>
          <Text
            fz={24}
            fw={700}
            c={en_proceso > 0 ? 'blue.8' : undefined}
            data-testid="importaciones-en-proceso"
          >
            {formatCount(en_proceso)}
          </Text>
        </Box>
        <Box>
          <Text size="xs" c="dimmed" fw={500}>
            Fallidas (7 días)
          </Text>
          <Text
            fz={24}
            fw={700}
            c={fallidas_7_dias > 0 ? 'red' : undefined}
            data-testid="importaciones-fallidas"
          >
            {formatCount(fallidas_7_dias)}
          </Text>
        </Box>
      </SimpleGrid>
      {fallidas_7_dias > 0 ? (
        <Alert mt="sm" color="red" variant="light" icon={<IconAlertTriangle size={16} />} p="xs">
          <Text size="xs">
            Revisa el historial en «Cargar productos» (Inventario) o «Importación por archivo» (Usuarios).
          </Text>
        </Alert>
      ) : (
        <Text size="xs" c="dimmed" mt="sm">
          {en_proceso > 0 ? 'Te avisaremos cuando terminen.' : 'Ninguna importación pendiente.'}
        </Text>
      )}
    </Paper>
  );
}

/** The budget top-ups waiting (decision 0123), by client: each opens that client's «Ampliaciones». */
function PendingTopupsCard({ topups }: { topups: AdminOverview['ampliaciones_pendientes'] }) {
  const named = topups.clientes.reduce((sum, c) => sum + c.pendientes, 0);
  return (
    <Paper
      withBorder
      radius="lg"
      p="md"
      shadow="xs"
      component="section"
      aria-labelledby="ampliaciones-resumen"
    >
      <Stack gap={2} mb="sm">
        <Title order={2} fz="lg" id="ampliaciones-resumen">
          Ampliaciones por decidir
        </Title>
        <Text size="sm" c="dimmed">
          Solicitudes de más presupuesto que nadie ha decidido todavía. Suelen decidirlas el responsable del
          área, un super autorizador o el administrador del cliente; también puedes decidirlas tú.
        </Text>
      </Stack>
      <Stack component="ul" gap={0} m={0} p={0} style={{ listStyle: 'none' }}>
        {topups.clientes.map((c) => (
          <Group
            component="li"
            key={c.id}
            justify="space-between"
            wrap="nowrap"
            gap="sm"
            py="xs"
            style={{ borderTop: '1px solid var(--mantine-color-gray-2)' }}
            data-testid={`ampliaciones-cliente-${c.id}`}
          >
            <Box miw={0}>
              <Text fw={600} truncate>
                {c.nombre}
              </Text>
              <Text size="xs" c="dimmed">
                {c.pendientes === 1
                  ? '1 solicitud pendiente'
                  : `${formatCount(c.pendientes)} solicitudes pendientes`}
              </Text>
            </Box>
            <Anchor
              component={Link}
              to={withClient(CLIENT_SCREENS.ampliaciones, c.id)}
              size="sm"
              fw={600}
              style={{ flexShrink: 0 }}
            >
              Ver <VisuallyHidden>las ampliaciones de {c.nombre}</VisuallyHidden>
            </Anchor>
          </Group>
        ))}
      </Stack>
      {topups.total > named ? (
        <Text size="xs" c="dimmed" mt="xs">
          Y {formatCount(topups.total - named)} más de otros clientes: elige el cliente en «Ampliaciones».
        </Text>
      ) : null}
    </Paper>
  );
}

export function OverviewPage() {
  const { user } = useSession();
  const { data, isLoading, isError, error } = useAdminOverview();

  return (
    <Stack gap="lg">
      <PageHeader title={`Hola, ${user.nombre}`} description="Así va el portal hoy." />
      <WithUnsentAccessBanner>
        <Box mt={-16}>
          {isLoading ? (
            <SimpleGrid cols={{ base: 1, xs: 2, lg: 3 }} spacing="md">
              {[0, 1, 2].map((k) => (
                <Skeleton key={k} h={116} radius="lg" />
              ))}
            </SimpleGrid>
          ) : isError || !data ? (
            <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} />} role="alert">
              {errorMessage(error, 'No se pudo cargar el resumen.')}
            </Alert>
          ) : (
            <Stack gap="md">
              <SimpleGrid cols={{ base: 1, xs: 2, lg: 3 }} spacing="md">
                <Stat
                  label="Clientes activos"
                  value={formatCount(data.clientes_activos)}
                  hint="Empresas con acceso al portal"
                  Icon={IconBuildingStore}
                  color="indigo"
                  to="/administrador/clientes"
                />
                <Stat
                  label="Usuarios activos"
                  value={formatCount(data.usuarios_activos)}
                  hint="Compradores y autorizadores"
                  Icon={IconUsers}
                  color="orange"
                  to="/administrador/usuarios"
                />
                <Stat
                  label="Pedidos por autorizar"
                  value={formatCount(data.pedidos_mes.pendiente + data.pedidos_mes.espera)}
                  hint={`Pendientes y en espera · ${monthName(data.mes)}`}
                  Icon={IconReceipt}
                  color="yellow"
                  to={`/administrador/pedidos?estatus=por_autorizar&mes=${data.mes}`}
                />
              </SimpleGrid>
              <Grid gap="md">
                <Grid.Col span={{ base: 12, md: 8 }}>
                  <OrdersCard data={data} />
                </Grid.Col>
                <Grid.Col span={{ base: 12, md: 4 }}>
                  <ImportsCard data={data} />
                </Grid.Col>
              </Grid>
            </Stack>
          )}
        </Box>

        <PendingBudgetsCard />

        {data && data.ampliaciones_pendientes.total > 0 ? (
          <PendingTopupsCard topups={data.ampliaciones_pendientes} />
        ) : null}

        <Stack gap="sm" component="section" aria-labelledby="accesos-rapidos">
          <Title order={2} fz="lg" id="accesos-rapidos">
            Accesos rápidos
          </Title>
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md">
            {SECTIONS.map(({ to, title, text, Icon, color }) => (
              <Card key={to} component={Link} to={to} withBorder radius="lg" padding="md" shadow="xs">
                <Group wrap="nowrap" align="center">
                  <ThemeIcon size={40} radius="md" variant="light" color={color} aria-hidden>
                    <Icon size={22} stroke={1.7} />
                  </ThemeIcon>
                  <Box style={{ flex: 1, minWidth: 0 }}>
                    <Text fw={700}>{title}</Text>
                    <Text size="sm" c="dimmed">
                      {text}
                    </Text>
                  </Box>
                  <IconChevronRight size={18} color="var(--mantine-color-gray-5)" aria-hidden />
                </Group>
              </Card>
            ))}
          </SimpleGrid>
        </Stack>
      </WithUnsentAccessBanner>
    </Stack>
  );
}
