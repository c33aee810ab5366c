/**
 * The access weeks of the chosen client, 5 per page: each toggled (activo) or deleted
 * for good after '¿Estás seguro?'. Until a client is picked: 'Debes seleccionar un cliente'. A client
 * administrator without its client's permission `semanas` (scope.ts) sees each week's state, with no switch
 * and no deletion.
 */
import '@mantine/core/styles/Table.css';
import { ActionIcon, Badge, EmptyState, Group, Paper, Switch, Table, Text, Tooltip } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { businessDate } from '@portal/shared/domain/time';
import { WEEKS_PER_PAGE } from '@portal/shared/limits';
import { MSG } from '@portal/shared/messages';
import type { ClientDto } from '@portal/shared/schemas/clients';
import { type WeekDto, WeeksPageQuery } from '@portal/shared/schemas/weeks';
import { IconBuildingStore, IconCalendarWeek, IconTrash } from '@tabler/icons-react';
import { useCallback, useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { showSuccess } from '../../../components/ui/alerts';
import { confirmAction } from '../../../components/ui/confirm';
import { ListPanel, pageCount } from '../../../components/ui/list-panel';
import { ListEmpty } from '../../../components/ui/list-states';
import { formatIsoDate, getBusinessTimeZone } from '../../../lib/format';
import { useListParams, usePagedSearch } from '../../../lib/list-params';
import { isDistributor, mayChangeWeeks } from '../scope';
import { useAdminScope } from '../scope-context';
import { useDeleteWeek, useToggleWeek, useWeeks } from './api';

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

interface WeekListProps {
  idCliente: number | null;
  client: ClientDto | null;
}

export function WeekList({ idCliente, client }: WeekListProps) {
  const phone = useMediaQuery('(max-width: 36em)');
  const scope = useAdminScope();
  const changes = mayChangeWeeks(scope);
  const own = !isDistributor(scope);
  const { page: urlPage, setPage: setUrlPage } = usePagedSearch(useListParams(WeeksPageQuery));
  const [params] = useSearchParams();
  // The list opens on the page holding today (the week in course, else the next one): the first answer
  // says which (`pagina_hoy`), and that page is shown until the administrator picks one; a page named in
  // the address is kept (decision 0097).
  const [todayPage, setTodayPage] = useState<{ cliente: number; page: number } | null>(null);
  const [pagedFor, setPagedFor] = useState<number | null>(null);
  const chosen = params.has('page') || pagedFor === idCliente;
  const page = !chosen && todayPage && todayPage.cliente === idCliente ? todayPage.page : urlPage;
  const setPage = useCallback(
    (p: number) => {
      setPagedFor(idCliente);
      setUrlPage(p);
    },
    [idCliente, setUrlPage],
  );
  const query = useWeeks(idCliente, page);
  const toggle = useToggleWeek(idCliente);
  const remove = useDeleteWeek(idCliente);
  const today = businessDate(Date.now(), getBusinessTimeZone());

  const data = query.data;
  const shown = data
    ? { page, perPage: data.per_page || WEEKS_PER_PAGE, shown: data.semanas.length, total: data.total }
    : undefined;
  const totalPages = pageCount(shown);

  useEffect(() => {
    if (!data || query.isPlaceholderData || idCliente === null || chosen || todayPage?.cliente === idCliente)
      return;
    setTodayPage({ cliente: idCliente, page: data.pagina_hoy });
  }, [data, query.isPlaceholderData, idCliente, chosen, todayPage]);

  // Deleting the last week of the last page: show the page before.
  useEffect(() => {
    if (data && data.semanas.length === 0 && data.total > 0 && page > 1) setPage(totalPages);
  }, [data, page, totalPages, setPage]);

  const onToggle = (week: WeekDto) =>
    confirmAction({
      message: week.activo
        ? `La semana del ${formatIsoDate(week.inicio)} al ${formatIsoDate(week.fin)} quedará bloqueada: los usuarios no podrán entrar ni comprar en esas fechas.`
        : `La semana del ${formatIsoDate(week.inicio)} al ${formatIsoDate(week.fin)} quedará activa: los usuarios podrán entrar y comprar en esas fechas.`,
      confirmLabel: week.activo ? 'Desactivar' : 'Activar',
      danger: week.activo,
      onConfirm: async () => {
        await toggle.mutateAsync({ id: week.id, activo: !week.activo, page });
        showSuccess(MSG.actualizadoCorrectamente);
      },
    });

  const onDelete = (week: WeekDto) =>
    confirmAction({
      message: `Se eliminará para siempre la semana del ${formatIsoDate(week.inicio)} al ${formatIsoDate(week.fin)}.`,
      confirmLabel: 'Eliminar',
      danger: true,
      onConfirm: async () => {
        await remove.mutateAsync({ id: week.id, page });
        showSuccess(MSG.eliminadoCorrectamente);
      },
    });

  return idCliente === null ? (
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
    <ListPanel
      headerGap={4}
      header={<Text fw={700}>{client ? `Semanas de ${client.nombre}` : 'Semanas del cliente'}</Text>}
      page={shown}
      noun={['semana', 'semanas']}
      query={query}
      loading={{ label: 'Cargando semanas' }}
      errorTitle="No se pudieron cargar las semanas"
      empty={
        <ListEmpty
          color="teal"
          icon={<IconCalendarWeek size={28} stroke={1.6} />}
          title={own ? 'Tu empresa aún no tiene semanas' : 'Este cliente aún no tiene semanas'}
          description="Mientras no tenga ninguna, sus usuarios pueden entrar cualquier día."
        />
      }
      pager={{ label: 'Páginas de semanas', onChange: setPage }}
    >
      {data ? (
        <Table.ScrollContainer minWidth={340} type="native">
          <Table verticalSpacing="sm" horizontalSpacing={phone ? 'xs' : 'md'} highlightOnHover striped="even">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Inicio</Table.Th>
                <Table.Th>Fin</Table.Th>
                <Table.Th visibleFrom="sm">Periodo</Table.Th>
                <Table.Th>Activo</Table.Th>
                {changes ? (
                  <Table.Th ta="right">
                    <Text span size="sm" fw={700} visibleFrom="sm">
                      Acciones
                    </Text>
                  </Table.Th>
                ) : null}
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
                      {changes ? (
                        <Switch
                          checked={w.activo}
                          onChange={() => onToggle(w)}
                          color="teal"
                          aria-label={`Semana activa ${range}`}
                          label={phone ? undefined : w.activo ? 'Activa' : 'Inactiva'}
                          disabled={toggle.isPending && toggle.variables?.id === w.id}
                        />
                      ) : (
                        <Badge size="sm" variant="light" color={w.activo ? 'teal' : 'gray'}>
                          {w.activo ? 'Activa' : 'Inactiva'}
                        </Badge>
                      )}
                    </Table.Td>
                    {changes ? (
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
                    ) : null}
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      ) : null}
    </ListPanel>
  );
}
