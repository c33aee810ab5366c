/**
 * 'Registros del sistema' — #, ID de usuario (N/A when missing), Tipo de evento,
 * Descripción, Metadatos (formatted JSON with 'Copy Metadata'); newest first, 15 per page from the server;
 * filtered by event type, user id and date range. Filters and page live in the URL.
 */
import '@mantine/dates/styles.css';
import {
  Alert,
  Badge,
  Button,
  Code,
  Group,
  Paper,
  ScrollArea,
  Select,
  SimpleGrid,
  Skeleton,
  Stack,
  Table,
  Text,
  TextInput,
} from '@mantine/core';
import { useDebouncedCallback, useMediaQuery } from '@mantine/hooks';
import { MSG } from '@portal/shared/messages';
import type { LogDto } from '@portal/shared/schemas/logs';
import {
  IconAlertTriangle,
  IconCalendar,
  IconCopy,
  IconFilterOff,
  IconListSearch,
} from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { showError, showSuccess } from '../../../components/ui/alerts';
import { DateRangeField } from '../../../components/ui/date-range-field';
import { PageHeader } from '../../../components/ui/page';
import { Pager } from '../../../components/ui/pager';
import { errorMessage } from '../../../lib/api';
import { formatDateTime } from '../../../lib/format';
import type { LogFilters } from '../api/keys';
import { useLogs, useLogTypes } from './api';

const ISO = /^\d{4}-\d{2}-\d{2}$/;

function useLogParams() {
  const [params, setParams] = useSearchParams();
  const date = (k: string) => {
    const v = params.get(k);
    return v && ISO.test(v) ? v : null;
  };
  const userId = Number(params.get('usuario'));
  const filters: LogFilters = {
    page: Math.max(1, Math.floor(Number(params.get('page')) || 1)),
    event_type: params.get('tipo') || null,
    user_id: Number.isInteger(userId) && userId > 0 ? userId : null,
    desde: date('desde'),
    hasta: date('hasta'),
  };
  const update = (changes: Record<string, string | null>, keepPage = false) =>
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        for (const [k, v] of Object.entries(changes)) {
          if (v) next.set(k, v);
          else next.delete(k);
        }
        if (!keepPage) next.delete('page');
        return next;
      },
      { replace: true },
    );
  return { filters, update };
}

/** Event types by what they mean: failures red, sign-in blue, creations teal, changes indigo. */
function eventColor(type: string): string {
  if (/fallid|rechaz|error|bloque/.test(type)) return 'red';
  if (/desactiv|cancel|elimin/.test(type)) return 'orange';
  if (/login|sesion|logout|password|contrase/.test(type)) return 'blue';
  if (/importacion/.test(type)) return 'grape';
  if (/cread|alta|activad|aprobad/.test(type)) return 'teal';
  if (/modific|actualiz|edit/.test(type)) return 'indigo';
  return 'gray';
}

function prettyJson(value: unknown): string {
  if (value === null || value === undefined) return '';
  try {
    return JSON.stringify(value, null, 2);
  } catch {
    return String(value);
  }
}

async function copyMetadata(text: string) {
  try {
    await navigator.clipboard.writeText(text);
    showSuccess(MSG.metadataCopiada);
  } catch {
    void showError(MSG.copiaFallida);
  }
}

function MetadataCell({ log }: { log: LogDto }) {
  const json = prettyJson(log.metadata);
  const empty = !json || json === '{}' || json === 'null';
  if (empty) {
    return (
      <Text size="sm" c="dimmed">
        Sin metadatos
      </Text>
    );
  }
  return (
    <Stack gap={6}>
      <ScrollArea.Autosize
        mah={132}
        type="auto"
        scrollbarSize={6}
        // A keyboard can scroll long metadata too.
        viewportProps={{
          tabIndex: 0,
          role: 'group',
          'aria-label': `Desplazar metadatos del registro ${log.id}`,
        }}
      >
        <Code
          block
          fz="xs"
          style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}
          aria-label={`Metadatos del registro ${log.id}`}
        >
          {json}
        </Code>
      </ScrollArea.Autosize>
      <Group>
        <Button
          size="compact-xs"
          variant="light"
          leftSection={<IconCopy size={12} />}
          onClick={() => void copyMetadata(json)}
          aria-label={`Copy Metadata del registro ${log.id}`}
        >
          Copy Metadata
        </Button>
      </Group>
    </Stack>
  );
}

function EventBadge({ log }: { log: LogDto }) {
  return (
    <Badge
      variant="light"
      color={eventColor(log.event_type)}
      radius="sm"
      style={{ textTransform: 'none', maxWidth: '100%' }}
    >
      {log.event_type}
    </Badge>
  );
}

/** One record as a card: phones read the list top to bottom instead of scrolling a wide table. */
function LogCard({ log }: { log: LogDto }) {
  return (
    <Paper component="li" withBorder radius="md" p="sm" data-testid="log-card">
      <Stack gap={6}>
        <Group justify="space-between" gap="xs" wrap="nowrap">
          <Text size="sm" fw={600}>
            #{log.id}
          </Text>
          <EventBadge log={log} />
        </Group>
        <Text size="sm">{log.description}</Text>
        <Text size="xs" c="dimmed">
          {formatDateTime(log.created_at)} · Usuario {log.user_id ?? 'N/A'}
          {log.usuario ? ` (${log.usuario})` : ''}
        </Text>
        <MetadataCell log={log} />
      </Stack>
    </Paper>
  );
}

export function LogsPage() {
  const phone = useMediaQuery('(max-width: 36em)') ?? false;
  const { filters, update } = useLogParams();
  const { data, isLoading, isError, error, isFetching } = useLogs(filters);
  const types = useLogTypes();
  const [userText, setUserText] = useState(filters.user_id ? String(filters.user_id) : '');
  const pushUser = useDebouncedCallback((v: string) => update({ usuario: v }), 350);

  useEffect(() => setUserText(filters.user_id ? String(filters.user_id) : ''), [filters.user_id]);

  const logs = data?.logs ?? [];
  const total = data?.total ?? 0;
  const pages = data ? Math.max(1, Math.ceil(total / data.per_page)) : 1;
  const filtered = Boolean(filters.event_type || filters.user_id || filters.desde || filters.hasta);
  const userInvalid = userText !== '' && !/^\d+$/.test(userText);

  return (
    <Stack gap={0}>
      <PageHeader
        title="Registros del sistema"
        description="Los eventos del portal, del más reciente al más antiguo."
      />
      <Paper withBorder radius="lg" p="md" shadow="xs" mb="lg" component="section" aria-label="Filtros">
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} spacing="sm" style={{ alignItems: 'end' }}>
          <Select
            label="Tipo de evento"
            placeholder="Todos los eventos"
            data={types.data ?? []}
            value={filters.event_type}
            onChange={(v) => update({ tipo: v })}
            searchable
            clearable
            nothingFoundMessage="Sin coincidencias"
          />
          <TextInput
            label="ID de usuario"
            placeholder="Todos los usuarios"
            inputMode="numeric"
            value={userText}
            error={userInvalid ? 'Escribe solo el número de ID.' : undefined}
            onChange={(e) => {
              const v = e.currentTarget.value.trim();
              setUserText(v);
              if (v === '' || /^\d+$/.test(v)) pushUser(v);
            }}
          />
          <DateRangeField
            label="Periodo"
            desde={filters.desde}
            hasta={filters.hasta}
            onChange={(desde, hasta) => update({ desde, hasta })}
          />
          <Button
            variant="default"
            leftSection={<IconFilterOff size={16} />}
            disabled={!filtered}
            onClick={() => {
              setUserText('');
              update({ tipo: null, usuario: null, desde: null, hasta: null });
            }}
          >
            Limpiar filtros
          </Button>
        </SimpleGrid>
      </Paper>

      <Paper withBorder radius="lg" shadow="xs" p={{ base: 'xs', sm: 'md' }}>
        <Group justify="space-between" px="xs" pb="xs">
          <Text size="sm" c="dimmed" aria-live="polite">
            {data ? `${total.toLocaleString('es-MX')} ${total === 1 ? 'registro' : 'registros'}` : ''}
          </Text>
        </Group>
        {isLoading ? (
          <Stack gap="xs">
            {[0, 1, 2, 3].map((k) => (
              <Skeleton key={k} h={56} radius="sm" />
            ))}
          </Stack>
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
          <Table.ScrollContainer minWidth={900} style={{ opacity: isFetching ? 0.7 : 1 }}>
            <Table
              verticalSpacing="sm"
              striped
              aria-label="Registros del sistema"
              styles={{ td: { verticalAlign: 'top' } }}
            >
              <Table.Thead>
                <Table.Tr>
                  <Table.Th w={70}>#</Table.Th>
                  <Table.Th w={130}>ID de usuario</Table.Th>
                  <Table.Th w={190}>Tipo de evento</Table.Th>
                  <Table.Th>Descripción</Table.Th>
                  <Table.Th w={360}>Metadatos</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {logs.map((log) => (
                  <Table.Tr key={log.id} data-testid="log-row">
                    <Table.Td>
                      <Text size="sm" fw={600}>
                        {log.id}
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm">{log.user_id ?? 'N/A'}</Text>
                      {log.usuario ? (
                        <Text size="xs" c="dimmed" truncate maw={120} title={log.usuario}>
                          {log.usuario}
                        </Text>
                      ) : null}
                    </Table.Td>
                    <Table.Td>
                      <EventBadge log={log} />
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm">{log.description}</Text>
                      <Text size="xs" c="dimmed" mt={2}>
                        {formatDateTime(log.created_at)}
                      </Text>
                    </Table.Td>
                    <Table.Td maw={360}>
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
          onChange={(page) => update({ page: page > 1 ? String(page) : null }, true)}
        />
      </Paper>
    </Stack>
  );
}
