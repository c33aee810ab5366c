/**
 * 'Registros del sistema' — Fecha (dd/MM/yyyy HH:mm), Usuario, Evento (its Spanish label, the client and
 * the order it concerns), Descripción, Metadatos (collapsed; opened as a key/value table with 'Copiar
 * metadatos'); newest first, 15 per page from the server; filtered by event type, user (name, username or
 * id), client, order number and date range; 'Exportar CSV' downloads the filtered log. Filters and page
 * live in the URL. A client administrator (rol 5) reads its own client's entries only (the server fixes
 * the client): no client filter, no client beside each event, and an order's number without the link to the
 * distributor's order screen.
 */
import '@mantine/core/styles/Table.css';
import '@mantine/dates/styles.css';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Collapse,
  Group,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
} from '@mantine/core';
import { useDebouncedCallback, useMediaQuery } from '@mantine/hooks';
import { LOG_EVENT_LABELS, logEventLabel } from '@portal/shared/domain/log-events';
import { MSG } from '@portal/shared/messages';
import type { LogDto } from '@portal/shared/schemas/logs';
import { OrderNumberText } from '@portal/shared/schemas/orders';
import {
  IconAlertTriangle,
  IconChevronDown,
  IconChevronRight,
  IconCopy,
  IconDownload,
  IconFilterOff,
  IconListSearch,
} from '@tabler/icons-react';
import { useEffect, useId, useState } from 'react';
import { Link } from 'react-router';
import { showSuccess } from '../../../components/ui/alerts';
import { DateRangeField } from '../../../components/ui/date-range-field';
import { LoadingRows } from '../../../components/ui/list-states';
import { PageHeader } from '../../../components/ui/page';
import { Pager } from '../../../components/ui/pager';
import { PhoneFilters } from '../../../components/ui/phone-filters';
import { Refusal } from '../../../components/ui/refusal';
import { errorMessage } from '../../../lib/api';
import { formatCount, formatDateTime, formatOrderNumber } from '../../../lib/format';
import { useListParams } from '../../../lib/list-params';
import { ClientSelect } from '../clients/client-select';
import { isDistributor } from '../scope';
import { useAdminScope } from '../scope-context';
import { logExportUrl, useLogs, useLogTypes } from './api';
import { LOGS_URL_KEYS, LogsUrl, logFilters, metadataRows } from './log-params';

/** Event types by what they mean: failures red, sign-in blue, creations teal, changes indigo. */
function eventColor(type: string): string {
  if (/fallid|rechaz|error|bloque/.test(type)) return 'red';
  if (/desactiv|cancel|elimin|retirad/.test(type)) return 'orange';
  if (/login|sesion|logout|password|contrase|2fa/.test(type)) return 'blue';
  if (/importacion|export/.test(type)) return 'grape';
  if (/cread|alta|activad|aprobad/.test(type)) return 'teal';
  if (/modific|actualiz|edit/.test(type)) return 'indigo';
  return 'gray';
}

/** Copies the metadata; false when the browser refused (the cell then says so under its button). */
async function copyMetadata(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    showSuccess(MSG.metadataCopiada);
    return true;
  } catch {
    return false;
  }
}

/**
 * The metadata, collapsed: a toggle with its number of fields; opened, a key/value table and the
 * specification's 'Copy Metadata', which copies the raw metadata (JSON) and says 'Metadata copiada al portapapeles!'.
 */
function MetadataCell({ log }: { log: LogDto }) {
  const [open, setOpen] = useState(false);
  const [copyFailed, setCopyFailed] = useState(false);
  const panelId = useId();
  const rows = metadataRows(log.metadata);
  if (rows.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        Sin metadatos
      </Text>
    );
  }
  return (
    <Stack gap={6}>
      <Group gap={0}>
        <Button
          size="compact-sm"
          variant="subtle"
          leftSection={open ? <IconChevronDown size={14} /> : <IconChevronRight size={14} />}
          aria-expanded={open}
          aria-controls={panelId}
          onClick={() => setOpen((o) => !o)}
        >
          {open ? 'Ocultar metadatos' : `Ver metadatos (${rows.length})`}
        </Button>
      </Group>
      <Collapse expanded={open} id={panelId}>
        {open ? (
          <Stack gap={6}>
            <Table
              withTableBorder
              withColumnBorders
              fz="xs"
              verticalSpacing={4}
              horizontalSpacing="xs"
              aria-label={`Metadatos del registro ${log.id}`}
            >
              <Table.Tbody>
                {rows.map((r) => (
                  <Table.Tr key={r.key}>
                    <Table.Th scope="row" w="38%" fw={600} style={{ overflowWrap: 'anywhere' }}>
                      {r.key}
                    </Table.Th>
                    <Table.Td
                      style={{ overflowWrap: 'anywhere', fontFamily: 'var(--mantine-font-family-monospace)' }}
                    >
                      {r.value}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
            <Group>
              <Button
                size="compact-xs"
                variant="light"
                leftSection={<IconCopy size={12} />}
                onClick={() =>
                  void copyMetadata(JSON.stringify(log.metadata, null, 2)).then((ok) => setCopyFailed(!ok))
                }
              >
                {/* The specification's own (English) label, read as English (decision 0098). */}
                <span lang="en">Copy Metadata</span>
              </Button>
            </Group>
            <Refusal
              error={copyFailed ? MSG.copiaFallida : null}
              onClose={() => setCopyFailed(false)}
              p="xs"
            />
          </Stack>
        ) : null}
      </Collapse>
    </Stack>
  );
}

function EventCell({ log }: { log: LogDto }) {
  // Every entry a client administrator reads is of its own client; the order screen is the distributor's.
  const distributor = isDistributor(useAdminScope());
  return (
    <Stack gap={4} align="flex-start">
      <Badge
        variant="light"
        color={eventColor(log.event_type)}
        radius="sm"
        title={log.event_type}
        style={{ textTransform: 'none', maxWidth: '100%', height: 'auto', whiteSpace: 'normal' }}
        // A long label («Presupuesto por encima del tope solicitado») takes two lines, never cut.
        styles={{ label: { whiteSpace: 'normal', overflow: 'visible' } }}
      >
        {logEventLabel(log.event_type)}
      </Badge>
      {log.cliente && distributor ? (
        <Text size="xs" c="dimmed">
          {log.cliente}
        </Text>
      ) : null}
      {!log.id_pedido ? null : distributor ? (
        <Anchor component={Link} to={`/administrador/pedidos/${log.id_pedido}`} size="xs" fw={600}>
          Pedido {formatOrderNumber(log.id_pedido)}
        </Anchor>
      ) : (
        <Text size="xs" fw={600}>
          Pedido {formatOrderNumber(log.id_pedido)}
        </Text>
      )}
    </Stack>
  );
}

function UserCell({ log }: { log: LogDto }) {
  if (log.user_id === null) {
    return (
      <Text size="sm" c="dimmed">
        N/A
      </Text>
    );
  }
  return (
    <Stack gap={0}>
      <Text size="sm" fw={500}>
        {log.nombre ?? `Usuario ${log.user_id}`}
      </Text>
      <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
        {log.usuario ? `${log.usuario} · ` : ''}ID {log.user_id}
      </Text>
    </Stack>
  );
}

/** One record as a card: phones read the list top to bottom instead of scrolling a wide table. */
function LogCard({ log }: { log: LogDto }) {
  return (
    <Paper component="li" withBorder radius="md" p="sm" data-testid="log-card">
      <Stack gap={6}>
        <Group justify="space-between" gap="xs" wrap="nowrap" align="flex-start">
          <EventCell log={log} />
          <Text size="xs" c="dimmed">
            #{log.id}
          </Text>
        </Group>
        <Text size="sm">{log.description}</Text>
        <Text size="xs" c="dimmed">
          {formatDateTime(log.created_at)} ·{' '}
          {log.user_id === null
            ? 'Sin usuario'
            : `${log.nombre ?? ''} (${log.usuario ?? `ID ${log.user_id}`})`}
        </Text>
        <MetadataCell log={log} />
      </Stack>
    </Paper>
  );
}

/** A text filter that reaches the URL after a pause, and only when the server would accept it. */
function useTextFilter(value: string, push: (v: string) => void, valid: (v: string) => boolean) {
  const [text, setText] = useState(value);
  const debounced = useDebouncedCallback(push, 350);
  useEffect(() => setText(value), [value]);
  const onChange = (v: string) => {
    setText(v);
    if (v.trim() === '' || valid(v.trim())) debounced(v.trim());
  };
  return { text, setText, onChange, invalid: text.trim() !== '' && !valid(text.trim()) };
}

export function LogsPage() {
  const phone = useMediaQuery('(max-width: 36em)') ?? false;
  const list = useListParams(LogsUrl, LOGS_URL_KEYS);
  const distributor = isDistributor(useAdminScope());
  // A client administrator's entries are of its own client: no other client is asked for.
  const filters = { ...logFilters(list.values), ...(distributor ? {} : { id_cliente: null }) };
  const setFilters = list.set;
  const { data, isLoading, isError, error, isFetching } = useLogs(filters);
  const types = useLogTypes();
  const user = useTextFilter(
    list.text('usuario'),
    (v) => setFilters({ usuario: v }),
    (v) => /^\d+$/.test(v) || v.length >= 2,
  );
  const order = useTextFilter(
    list.text('pedido'),
    (v) => setFilters({ pedido: v }),
    (v) => OrderNumberText.safeParse(v).success,
  );

  const logs = data?.logs ?? [];
  const total = data?.total ?? 0;
  const pages = data ? Math.max(1, Math.ceil(total / data.per_page)) : 1;
  const filtered = Boolean(
    filters.event_type ||
      filters.user_id ||
      filters.usuario ||
      filters.id_cliente ||
      filters.pedido ||
      filters.desde ||
      filters.hasta,
  );
  // Every labelled type, and any older one the log still holds, by their Spanish label.
  const typeOptions = [...new Set([...Object.keys(LOG_EVENT_LABELS), ...(types.data ?? [])])]
    .map((t) => ({ value: t, label: logEventLabel(t) }))
    .sort((a, b) => a.label.localeCompare(b.label, 'es'));

  return (
    <Stack gap={0}>
      <PageHeader
        title="Registros del sistema"
        description={
          distributor
            ? 'Los eventos del portal, del más reciente al más antiguo.'
            : 'Los eventos de tu empresa en el portal, del más reciente al más antiguo.'
        }
        actions={
          <Button
            component="a"
            href={logExportUrl(filters)}
            download="registros.csv"
            variant="light"
            leftSection={<IconDownload size={16} />}
          >
            Exportar CSV
          </Button>
        }
      />
      <Paper withBorder radius="lg" p="md" shadow="xs" mb="lg" component="section" aria-label="Filtros">
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="sm" style={{ alignItems: 'start' }}>
          <Select
            label="Tipo de evento"
            placeholder="Todos los eventos"
            data={typeOptions}
            value={filters.event_type}
            onChange={(v) => setFilters({ event_type: v })}
            searchable
            clearable
            nothingFoundMessage="Sin coincidencias"
          />
          <TextInput
            label="Usuario"
            placeholder="Nombre, usuario o ID"
            value={user.text}
            error={user.invalid ? 'Escribe al menos 2 caracteres o el número de ID.' : undefined}
            onChange={(e) => user.onChange(e.currentTarget.value)}
          />
          {/* On phones the client, order, period and 'Limpiar filtros' fold behind one button (issue 37). */}
          <PhoneFilters
            inGrid
            active={
              Number(!!filters.id_cliente) +
              Number(!!filters.pedido) +
              Number(!!(filters.desde || filters.hasta))
            }
          >
            {distributor ? (
              <ClientSelect
                value={filters.id_cliente}
                placeholder="Todos los clientes"
                onChange={(id) => setFilters({ id_cliente: id })}
              />
            ) : null}
            <TextInput
              label="Pedido"
              placeholder="#00012"
              value={order.text}
              error={order.invalid ? MSG.numeroPedidoInvalido : undefined}
              onChange={(e) => order.onChange(e.currentTarget.value)}
            />
            <DateRangeField
              label="Periodo"
              desde={filters.desde}
              hasta={filters.hasta}
              onChange={(desde, hasta) => setFilters({ desde, hasta })}
            />
            <Button
              variant="default"
              mt={{ base: 0, sm: 25 }}
              leftSection={<IconFilterOff size={16} />}
              disabled={!filtered}
              onClick={() => {
                user.setText('');
                order.setText('');
                setFilters({
                  event_type: null,
                  usuario: null,
                  id_cliente: null,
                  pedido: null,
                  desde: null,
                  hasta: null,
                });
              }}
            >
              Limpiar filtros
            </Button>
          </PhoneFilters>
        </SimpleGrid>
      </Paper>

      <Paper withBorder radius="lg" shadow="xs" p={{ base: 'xs', sm: 'md' }}>
        <Group justify="space-between" px="xs" pb="xs">
          <Text size="sm" c="dimmed" aria-live="polite">
            {data
              ? data.total_limitado
                ? `Más de ${formatCount(total)} registros (todos en «Exportar CSV»)`
                : `${formatCount(total)} ${total === 1 ? 'registro' : 'registros'}`
              : ''}
          </Text>
        </Group>
        {isLoading ? (
          <LoadingRows label="Cargando registros" rows={4} height={56} p={0} />
        ) : isError ? (
          <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} />} role="alert">
            {errorMessage(error, 'No se pudieron cargar los registros.')}
          </Alert>
        ) : logs.length === 0 ? (
          <Stack align="center" gap={4} py="xl" c="dimmed">
            <IconListSearch size={32} stroke={1.5} aria-hidden />
            <Text fw={600}>
              {filtered ? 'Ningún registro coincide con los filtros' : 'Aún no hay registros'}
            </Text>
          </Stack>
        ) : phone ? (
          <Stack
            component="ul"
            gap="xs"
            aria-label="Registros del sistema"
            style={{ listStyle: 'none', padding: 0, margin: 0, opacity: isFetching ? 0.7 : 1 }}
          >
            {logs.map((log) => (
              <LogCard key={log.id} log={log} />
            ))}
          </Stack>
        ) : (
          <Table.ScrollContainer minWidth={960} style={{ opacity: isFetching ? 0.7 : 1 }}>
            <Table
              verticalSpacing="sm"
              striped
              aria-label="Registros del sistema"
              styles={{ td: { verticalAlign: 'top' } }}
            >
              <Table.Thead>
                <Table.Tr>
                  <Table.Th w={150}>Fecha</Table.Th>
                  <Table.Th w={190}>Usuario</Table.Th>
                  <Table.Th w={210}>Evento</Table.Th>
                  <Table.Th>Descripción</Table.Th>
                  <Table.Th w={330}>Metadatos</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {logs.map((log) => (
                  <Table.Tr key={log.id} data-testid="log-row">
                    <Table.Td>
                      <Text size="sm">{formatDateTime(log.created_at)}</Text>
                      <Text size="xs" c="dimmed">
                        #{log.id}
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      <UserCell log={log} />
                    </Table.Td>
                    <Table.Td>
                      <EventCell log={log} />
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm">{log.description}</Text>
                    </Table.Td>
                    <Table.Td maw={330}>
                      <MetadataCell log={log} />
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
        <Pager
          label="Páginas de registros"
          mt="lg"
          total={pages}
          value={filters.page}
          onChange={(page) => list.set({ page })}
        />
      </Paper>
    </Stack>
  );
}
