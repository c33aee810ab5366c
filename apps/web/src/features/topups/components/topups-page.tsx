/**
 * «Ampliaciones» (decision 0123): the budget top-ups the reader may see — an authorizer those of the áreas
 * it is responsible for, a super authorizer and a client administrator their client's, the distributor
 * those of the client it picks (`client`: its select above the list; none picked, a prompt to pick one) —
 * pending first (the filter starts there), 20 a page, newest first. A request the reader may decide
 * (`puede_decidir`) has Aprobar and Rechazar, each confirmed in a dialog with an optional answer for the
 * buyer; the server's message follows either, and a request someone else decided first (409) says so in the
 * dialog while the list is read again.
 */
import '@mantine/core/styles/FloatingIndicator.css';
import '@mantine/core/styles/SegmentedControl.css';
import {
  Box,
  Button,
  Group,
  Modal,
  Paper,
  SegmentedControl,
  Stack,
  Text,
  Textarea,
  Title,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import type { TopupDto, TopupState } from '@portal/shared/schemas/areas';
import { IconCheck, IconCircleCheck, IconCoins, IconX } from '@tabler/icons-react';
import { type ReactNode, useId, useState } from 'react';
import { TopupItem, TopupStateBadge, topupTargetText } from '../../../components/topups/topup-item';
import { showSuccess } from '../../../components/ui/alerts';
import { ChooseClientFirst } from '../../../components/ui/choose-client';
import { DialogActions } from '../../../components/ui/dialog-actions';
import { ListPanel } from '../../../components/ui/list-panel';
import { ListEmpty } from '../../../components/ui/list-states';
import { PageHeader } from '../../../components/ui/page';
import { errorMessage, isApiError } from '../../../lib/api';
import { formatMXN } from '../../../lib/format';
import { monthLabel } from '../../../lib/month-label';
import { type TopupDecision, useDecideTopup, useTopups } from '../api/topups';

type Filter = TopupState | 'todas';

const FILTERS: { value: Filter; label: string }[] = [
  { value: 'pendiente', label: 'Pendientes' },
  { value: 'aprobada', label: 'Aprobadas' },
  { value: 'rechazada', label: 'Rechazadas' },
  { value: 'todas', label: 'Todas' },
];

const EMPTY: Record<Filter, string> = {
  pendiente: 'No hay ampliaciones por decidir',
  aprobada: 'Aún no hay ampliaciones aprobadas',
  rechazada: 'Aún no hay ampliaciones rechazadas',
  todas: 'Aún no hay solicitudes de ampliación',
};

interface Deciding {
  request: TopupDto;
  decision: TopupDecision;
}

/** '¿Aprobar la ampliación de Ana?': what it raises, an optional answer, and the decision. */
function DecisionDialog({ deciding, onClose }: { deciding: Deciding | null; onClose: () => void }) {
  const phone = useMediaQuery('(max-width: 36em)');
  const decide = useDecideTopup();
  const [respuesta, setRespuesta] = useState('');
  // The server's refusal; `decided`: someone else decided the request first (409), so this cannot succeed.
  const [refusal, setRefusal] = useState<{ msg: string; decided: boolean } | null>(null);
  // The last request stays rendered while the dialog fades out.
  const [shown, setShown] = useState<Deciding | null>(null);
  if (deciding && deciding !== shown) {
    setShown(deciding);
    setRespuesta('');
    setRefusal(null);
  }
  const approve = shown?.decision === 'aprobar';
  const r = shown?.request;
  const confirm = () => {
    if (!shown) return;
    setRefusal(null);
    decide.mutate(
      { id: shown.request.id, decision: shown.decision, respuesta },
      {
        onSuccess: (res) => {
          showSuccess(res.msg);
          onClose();
        },
        onError: (error) => {
          // A session that ended sends the app to the sign-in screen: nothing to show here.
          if (isApiError(error) && error.status === 401) onClose();
          else setRefusal({ msg: errorMessage(error), decided: isApiError(error) && error.status === 409 });
        },
      },
    );
  };
  return (
    <Modal
      opened={deciding !== null}
      onClose={() => !decide.isPending && onClose()}
      title={r ? `¿${approve ? 'Aprobar' : 'Rechazar'} la ampliación de ${r.usuario.nombre}?` : ''}
      centered
      fullScreen={phone}
      closeButtonProps={{ 'aria-label': 'Cerrar' }}
    >
      {r ? (
        <Stack gap="md">
          <Paper bg="gray.0" radius="md" p="sm">
            <Text size="sm" fw={600}>
              {topupTargetText(r, false)}: +{formatMXN(r.importe)}
            </Text>
            <Text size="sm" c="dimmed">
              {monthLabel(r.mes)} · Motivo: {r.motivo}
            </Text>
          </Paper>
          <Text size="sm">
            {approve
              ? `Al aprobarla, ese presupuesto crece ${formatMXN(r.importe)} solo en ${monthLabel(r.mes)}.`
              : 'Al rechazarla, el presupuesto no cambia.'}
          </Text>
          <Textarea
            label="Respuesta (opcional)"
            description="El comprador la verá junto a su solicitud."
            value={respuesta}
            onChange={(e) => setRespuesta(e.currentTarget.value)}
            maxLength={255}
            autosize
            minRows={2}
            maxRows={5}
            data-autofocus
          />
          <DialogActions
            error={refusal?.msg ?? null}
            busy={decide.isPending}
            onCancel={onClose}
            onConfirm={confirm}
            confirmLabel={approve ? 'Aprobar' : 'Rechazar'}
            confirmIcon={approve ? <IconCheck size={16} aria-hidden /> : <IconX size={16} aria-hidden />}
            color={approve ? 'teal' : 'red'}
            disabled={refusal?.decided}
          />
        </Stack>
      ) : null}
    </Modal>
  );
}

function DecisionButtons({ request: r, onDecide }: { request: TopupDto; onDecide: (d: Deciding) => void }) {
  return (
    <Group gap="xs" wrap="nowrap">
      <Button
        size="xs"
        color="teal"
        leftSection={<IconCheck size={14} aria-hidden />}
        aria-label={`Aprobar la ampliación de ${r.usuario.nombre}`}
        onClick={() => onDecide({ request: r, decision: 'aprobar' })}
      >
        Aprobar
      </Button>
      <Button
        size="xs"
        variant="light"
        color="red"
        leftSection={<IconX size={14} aria-hidden />}
        aria-label={`Rechazar la ampliación de ${r.usuario.nombre}`}
        onClick={() => onDecide({ request: r, decision: 'rechazar' })}
      >
        Rechazar
      </Button>
    </Group>
  );
}

/** The distributor's choice of client (`?cliente=`): its select, the client chosen (null: none yet). */
interface TopupsClient {
  id: number | null;
  picker: ReactNode;
  /** Below the list: the clients could not be read. */
  problem?: ReactNode;
}

interface TopupsPageProps {
  /** Under the title: whose requests the reader sees (it depends on the role). */
  description: ReactNode;
  /** Above the list (a client administrator who may not decide: why). */
  notice?: ReactNode;
  /** The distributor's: the requests of one client, picked above the list. */
  client?: TopupsClient;
}

export function TopupsPage({ description, notice, client }: TopupsPageProps) {
  return (
    <Stack gap="lg">
      <PageHeader title="Ampliaciones" description={description} />
      {notice}
      {client ? (
        <Paper withBorder radius="lg" shadow="xs" p={{ base: 'sm', sm: 'md' }} mt={-8}>
          <Box w={{ base: '100%', sm: 380 }}>{client.picker}</Box>
        </Paper>
      ) : null}
      {client && client.id === null ? (
        <ChooseClientFirst description="Selecciona un cliente en la lista de arriba para ver y decidir sus solicitudes de ampliación." />
      ) : (
        // A new client is a new list: its filter and page start again.
        <TopupsList key={client?.id ?? 'propias'} cliente={client?.id ?? null} />
      )}
      {client?.problem}
    </Stack>
  );
}

/** The requests with their state filter and pages, and the decision dialog. */
function TopupsList({ cliente }: { cliente: number | null }) {
  const [filter, setFilter] = useState<Filter>('pendiente');
  const [page, setPage] = useState(1);
  const [deciding, setDeciding] = useState<Deciding | null>(null);
  const query = useTopups(filter === 'todas' ? null : filter, page, cliente);
  const titleId = useId();
  const data = query.data;
  const rows = data?.ampliaciones ?? [];
  return (
    <>
      <section aria-labelledby={titleId}>
        <ListPanel
          header={
            <Group justify="space-between" align="center" gap="sm">
              <Title order={2} fz="lg" id={titleId}>
                Solicitudes de ampliación
              </Title>
              <SegmentedControl
                aria-label="Estado de las solicitudes"
                size="xs"
                w={{ base: '100%', sm: 'auto' }}
                value={filter}
                onChange={(v) => {
                  setFilter(v as Filter);
                  setPage(1);
                }}
                data={FILTERS}
              />
            </Group>
          }
          page={data ? { page, perPage: data.per_page, shown: rows.length, total: data.total } : undefined}
          status={data?.total === 0 ? null : undefined}
          noun={['solicitud', 'solicitudes']}
          query={query}
          loading={{ label: 'Cargando solicitudes de ampliación', rows: 3 }}
          errorTitle="No se pudieron cargar las solicitudes de ampliación"
          empty={
            <ListEmpty
              icon={
                filter === 'pendiente' ? (
                  <IconCircleCheck size={28} stroke={1.6} />
                ) : (
                  <IconCoins size={28} stroke={1.6} />
                )
              }
              title={EMPTY[filter]}
              description={
                filter === 'pendiente'
                  ? 'Cuando un comprador pida más presupuesto, su solicitud aparecerá aquí.'
                  : undefined
              }
              py="lg"
            />
          }
          pager={{ label: 'Páginas de solicitudes de ampliación', onChange: setPage }}
        >
          <Stack component="ul" gap="xs" p={{ base: 'sm', sm: 'md' }} m={0} style={{ listStyle: 'none' }}>
            {rows.map((r) => (
              <TopupItem
                key={r.id}
                request={r}
                aside={
                  r.puede_decidir ? (
                    <DecisionButtons request={r} onDecide={setDeciding} />
                  ) : (
                    <TopupStateBadge estado={r.estado} />
                  )
                }
              />
            ))}
          </Stack>
        </ListPanel>
      </section>
      <DecisionDialog deciding={deciding} onClose={() => setDeciding(null)} />
    </>
  );
}
