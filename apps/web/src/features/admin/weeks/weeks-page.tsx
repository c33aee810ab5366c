/**
 * Spec §2 "semanas": start and end date pickers (the end defaults to start + 4 days), the client
 * dropdown and 'Agregar' ('Creando' while it runs); the client's weeks, 5 per page, each one toggled
 * (activo) or deleted for good after '¿Estás seguro?'. Until a client is picked: 'Debes seleccionar un
 * cliente!'.
 */
import '@mantine/dates/styles.css';
import {
  ActionIcon,
  Alert,
  Badge,
  Box,
  Button,
  EmptyState,
  Group,
  Loader,
  Paper,
  SimpleGrid,
  Stack,
  Switch,
  Table,
  Text,
  Tooltip,
} from '@mantine/core';
import { DatePickerInput, DatesProvider } from '@mantine/dates';
import { schemaResolver, useForm } from '@mantine/form';
import { useMediaQuery } from '@mantine/hooks';
import { addDays, businessDate } from '@portal/shared/domain/time';
import { WEEKS_PER_PAGE } from '@portal/shared/limits';
import { MSG } from '@portal/shared/messages';
import { WeekCreateBody, type WeekDto } from '@portal/shared/schemas/weeks';
import {
  IconBuildingStore,
  IconCalendar,
  IconCalendarPlus,
  IconCalendarWeek,
  IconInfoCircle,
  IconTrash,
} from '@tabler/icons-react';
import { useEffect } from 'react';
import { showError, showSuccess } from '../../../components/ui/alerts';
import { ListEmpty, LoadError, LoadingRows } from '../../../components/ui/list-states';
import { PageHeader } from '../../../components/ui/page';
import { Pager } from '../../../components/ui/pager';
import { errorMessage, isApiError } from '../../../lib/api';
import { applyFieldErrors } from '../../../lib/form-errors';
import { formatIsoDate, getBusinessTimeZone } from '../../../lib/format';
import { ClientSelect, useAllClients, useSelectedClient } from '../clients/client-select';
import { confirmAction, DIVIDER, ListStatus, useListParams } from '../ui/list-tools';
import { useCreateWeek, useDeleteWeek, useToggleWeek, useWeeks } from './api';

/** The calendar's controls, in Spanish. */
const CALENDAR_LABELS = {
  nextMonth: 'Mes siguiente',
  previousMonth: 'Mes anterior',
  nextYear: 'Año siguiente',
  previousYear: 'Año anterior',
  nextDecade: 'Década siguiente',
  previousDecade: 'Década anterior',
  monthLevelControl: 'Elegir mes',
  yearLevelControl: 'Elegir año',
};

export const WEEK_CREATE_FAILED = 'No se pudo crear la información en la base de datos.';

interface WeekValues {
  inicio: string | null;
  fin: string | null;
}

/** The picked dates and the chosen client as the body of POST /api/calendario_semanas. */
function toBody(values: WeekValues, idCliente: number | null) {
  return { ...values, id_cliente: idCliente ?? undefined };
}

function when(week: WeekDto, today: string): { label: string; color: string } | null {
  if (today < week.inicio) return { label: 'Próxima', color: 'blue' };
  if (today > week.fin) return { label: 'Terminada', color: 'gray' };
  return { label: 'En curso', color: 'teal' };
}

function days(week: WeekDto): number {
  const a = Date.parse(`${week.inicio}T00:00:00Z`);
  const b = Date.parse(`${week.fin}T00:00:00Z`);
  return Math.round((b - a) / 86_400_000) + 1;
}

export function WeeksPage() {
  const phone = useMediaQuery('(max-width: 36em)');
  const [idCliente, setCliente] = useSelectedClient();
  const clients = useAllClients();
  const client = clients.data?.clientes.find((c) => c.id === idCliente) ?? null;
  const { page, setPage } = useListParams();
  const form = useForm<WeekValues>({
    initialValues: { inicio: null, fin: null },
    validate: (values) => schemaResolver(WeekCreateBody, { sync: true })(toBody(values, idCliente)),
  });
  const { inicio, fin } = form.values;
  const query = useWeeks(idCliente, page);
  const create = useCreateWeek();
  const toggle = useToggleWeek(idCliente);
  const remove = useDeleteWeek(idCliente);
  const today = businessDate(Date.now(), getBusinessTimeZone());

  const data = query.data;
  const totalPages = data ? Math.max(1, Math.ceil(data.total / (data.per_page || WEEKS_PER_PAGE))) : 1;

  // Deleting the last week of the last page: show the page before.
  useEffect(() => {
    if (data && data.semanas.length === 0 && data.total > 0 && page > 1) setPage(totalPages);
  }, [data, page, totalPages, setPage]);

  const canAdd = Boolean(inicio && fin && idCliente) && !create.isPending;

  const add = form.onSubmit((values) => {
    if (create.isPending) return;
    create.mutate(WeekCreateBody.parse(toBody(values, idCliente)), {
      onSuccess: () => {
        showSuccess(MSG.creadoCorrectamente);
        form.reset();
      },
      onError: (error) => {
        applyFieldErrors(form, error);
        // Duplicate, overlap and date refusals carry the server's Spanish message.
        const known = isApiError(error) && error.status >= 400 && error.status < 500 && error.msg;
        void showError(known ? error.msg : WEEK_CREATE_FAILED);
      },
    });
  });

  const onToggle = (week: WeekDto) =>
    confirmAction({
      message: week.activo
        ? `La semana del ${formatIsoDate(week.inicio)} al ${formatIsoDate(week.fin)} quedará bloqueada: los usuarios no podrán entrar ni comprar en esas fechas.`
        : `La semana del ${formatIsoDate(week.inicio)} al ${formatIsoDate(week.fin)} quedará activa: los usuarios podrán entrar y comprar en esas fechas.`,
      confirmLabel: week.activo ? 'Desactivar' : 'Activar',
      danger: week.activo,
      onConfirm: () =>
        toggle.mutate(
          { id: week.id, activo: !week.activo, page },
          {
            onSuccess: () => showSuccess(MSG.actualizadoCorrectamente),
            onError: (error) => void showError(errorMessage(error)),
          },
        ),
    });

  const onDelete = (week: WeekDto) =>
    confirmAction({
      message: `Se eliminará para siempre la semana del ${formatIsoDate(week.inicio)} al ${formatIsoDate(week.fin)}.`,
      confirmLabel: 'Eliminar',
      danger: true,
      onConfirm: () =>
        remove.mutate(
          { id: week.id, page },
          {
            onSuccess: () => showSuccess(MSG.eliminadoCorrectamente),
            onError: (error) => void showError(errorMessage(error)),
          },
        ),
    });

  return (
    <Stack gap="lg">
      <PageHeader
        title="Semanas de acceso"
        description="Los periodos en que los usuarios de cada cliente pueden entrar y comprar."
      />

      <Paper withBorder radius="lg" shadow="xs" p={{ base: 'sm', sm: 'md' }} mt={-8}>
        <DatesProvider settings={{ locale: 'es', firstDayOfWeek: 1 }}>
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} spacing="md" verticalSpacing="sm">
            <DatePickerInput
              label="Fecha de inicio"
              placeholder="Elige el primer día"
              valueFormat="DD/MM/YYYY"
              value={inicio}
              onChange={(value) => {
                const start = value ? String(value).slice(0, 10) : null;
                form.setFieldValue('inicio', start);
                if (start) form.setFieldValue('fin', addDays(start, 4));
              }}
              error={form.errors.inicio}
              clearable
              leftSection={<IconCalendar size={18} aria-hidden />}
              dropdownType={phone ? 'modal' : 'popover'}
              ariaLabels={CALENDAR_LABELS}
              popoverProps={{ withinPortal: true }}
            />
            <DatePickerInput
              label="Fecha de fin"
              placeholder="Elige el último día"
              valueFormat="DD/MM/YYYY"
              value={fin}
              onChange={(value) => form.setFieldValue('fin', value ? String(value).slice(0, 10) : null)}
              error={form.errors.fin}
              minDate={inicio ?? undefined}
              clearable
              leftSection={<IconCalendar size={18} aria-hidden />}
              dropdownType={phone ? 'modal' : 'popover'}
              ariaLabels={CALENDAR_LABELS}
              popoverProps={{ withinPortal: true }}
            />
            <ClientSelect value={idCliente} onChange={(id) => setCliente(id)} />
            <Button
              onClick={() => add()}
              disabled={!canAdd}
              style={{ alignSelf: 'end' }}
              leftSection={
                create.isPending ? (
                  <Loader size={16} color="currentColor" aria-hidden />
                ) : (
                  <IconCalendarPlus size={18} aria-hidden />
                )
              }
            >
              {create.isPending ? 'Creando' : 'Agregar'}
            </Button>
          </SimpleGrid>
        </DatesProvider>
        <Group gap={6} mt="sm" wrap="nowrap" align="flex-start" c="dimmed">
          <IconInfoCircle size={16} style={{ flexShrink: 0, marginTop: 2 }} aria-hidden />
          <Text size="xs">
            Un cliente sin semanas permite el acceso todos los días. Con una o más, sus usuarios solo entran y
            compran dentro de una semana activa (inicio y fin incluidos). Las semanas no pueden empalmarse.
          </Text>
        </Group>
      </Paper>

      {idCliente === null ? (
        <Paper withBorder radius="lg" shadow="xs" p={{ base: 'lg', sm: 48 }}>
          <EmptyState
            color="orange"
            variant="light"
            icon={<IconBuildingStore size={28} stroke={1.6} />}
            title={MSG.debesSeleccionarCliente}
            description="Elige un cliente para ver y agregar sus semanas de acceso."
          />
        </Paper>
      ) : (
        <Paper withBorder radius="lg" shadow="xs" style={{ overflow: 'hidden' }}>
          <Stack gap={4} p={{ base: 'sm', sm: 'md' }}>
            <Text fw={700}>{client ? `Semanas de ${client.nombre}` : 'Semanas del cliente'}</Text>
            {data ? (
              <ListStatus
                page={page}
                perPage={data.per_page || WEEKS_PER_PAGE}
                shown={data.semanas.length}
                total={data.total}
                noun={['semana', 'semanas']}
                fetching={query.isFetching}
              />
            ) : null}
          </Stack>
          <Box style={DIVIDER}>
            {query.isPending ? (
              <LoadingRows label="Cargando semanas" />
            ) : query.isError ? (
              <LoadError
                title="No se pudieron cargar las semanas"
                error={query.error}
                onRetry={() => void query.refetch()}
              />
            ) : data && data.semanas.length > 0 ? (
              <Table.ScrollContainer minWidth={340} type="native">
                <Table
                  verticalSpacing="sm"
                  horizontalSpacing={phone ? 'xs' : 'md'}
                  highlightOnHover
                  striped="even"
                >
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>Inicio</Table.Th>
                      <Table.Th>Fin</Table.Th>
                      <Table.Th visibleFrom="sm">Periodo</Table.Th>
                      <Table.Th>Activo</Table.Th>
                      <Table.Th ta="right">
                        <Text span size="sm" fw={700} visibleFrom="sm">
                          Acciones
                        </Text>
                      </Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {data.semanas.map((w) => {
                      const state = when(w, today);
                      const range = `del ${formatIsoDate(w.inicio)} al ${formatIsoDate(w.fin)}`;
                      return (
                        <Table.Tr key={w.id} data-testid={`semana-${w.inicio}`}>
                          <Table.Td style={{ whiteSpace: 'nowrap', fontVariantNumeric: 'tabular-nums' }}>
                            {formatIsoDate(w.inicio)}
                          </Table.Td>
                          <Table.Td style={{ whiteSpace: 'nowrap', fontVariantNumeric: 'tabular-nums' }}>
                            {formatIsoDate(w.fin)}
                          </Table.Td>
                          <Table.Td visibleFrom="sm">
                            <Group gap={6} wrap="nowrap">
                              <Text size="sm" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
                                {days(w)} {days(w) === 1 ? 'día' : 'días'}
                              </Text>
                              {state ? (
                                <Badge size="sm" variant="light" color={state.color}>
                                  {state.label}
                                </Badge>
                              ) : null}
                            </Group>
                          </Table.Td>
                          <Table.Td>
                            <Switch
                              checked={w.activo}
                              onChange={() => onToggle(w)}
                              color="teal"
                              aria-label={`Semana activa ${range}`}
                              label={phone ? undefined : w.activo ? 'Activa' : 'Inactiva'}
                              disabled={toggle.isPending && toggle.variables?.id === w.id}
                            />
                          </Table.Td>
                          <Table.Td ta="right">
                            <Tooltip label="Eliminar" withArrow>
                              <ActionIcon
                                variant="subtle"
                                color="red"
                                aria-label={`Eliminar semana ${range}`}
                                onClick={() => onDelete(w)}
                                loading={remove.isPending && remove.variables?.id === w.id}
                              >
                                <IconTrash size={18} />
                              </ActionIcon>
                            </Tooltip>
                          </Table.Td>
                        </Table.Tr>
                      );
                    })}
                  </Table.Tbody>
                </Table>
              </Table.ScrollContainer>
            ) : (
              <ListEmpty
                color="teal"
                icon={<IconCalendarWeek size={28} stroke={1.6} />}
                title="Este cliente aún no tiene semanas"
                description="Mientras no tenga ninguna, sus usuarios pueden entrar cualquier día."
              />
            )}
          </Box>
          <Pager label="Páginas de semanas" total={totalPages} value={page} onChange={setPage} divided />
        </Paper>
      )}
      {clients.isError ? (
        <Alert color="red" variant="light">
          No se pudo cargar la lista de clientes.
        </Alert>
      ) : null}
    </Stack>
  );
}
