/**
 * The budgets asked above a client's cap (decision 0122), paged as the server answers them: the
 * distributor's «Presupuestos por aprobar» on its home, with Aprobar and Rechazar on each (the server's
 * message after either; a request another administrator decided first answers 409, whose message shows
 * above the list as the list is read again), and a client administrator's own requests in every state.
 */
import { Button, Group, Stack, Text, Title } from '@mantine/core';
import type { BudgetRequestState } from '@portal/shared/domain/client-admin';
import type { BudgetRequestDto } from '@portal/shared/schemas/budget-requests';
import { IconCheck, IconCircleCheck, IconCoins, IconX } from '@tabler/icons-react';
import { type ReactNode, useId, useState } from 'react';
import { showSuccess } from '../../../components/ui/alerts';
import { ListPanel } from '../../../components/ui/list-panel';
import { ListEmpty } from '../../../components/ui/list-states';
import { Refusal } from '../../../components/ui/refusal';
import { errorMessage } from '../../../lib/api';
import { type BudgetDecision, useBudgetRequests, useDecideBudgetRequest } from './api';
import { BudgetRequestBadge, BudgetRequestItem } from './budget-request-item';

interface BudgetRequestsPanelProps {
  title: string;
  description: ReactNode;
  /** Only this state (the distributor's queue: 'pendiente'); null: every state. */
  estado: BudgetRequestState | null;
  showClient: boolean;
  /** Beside each request. */
  aside: (request: BudgetRequestDto) => ReactNode;
  /** What an empty list shows. */
  empty: ReactNode;
  notice?: ReactNode;
}

function BudgetRequestsPanel({
  title,
  description,
  estado,
  showClient,
  aside,
  empty,
  notice,
}: BudgetRequestsPanelProps) {
  const [page, setPage] = useState(1);
  const query = useBudgetRequests(estado, page);
  const titleId = useId();
  const data = query.data;
  const rows = data?.solicitudes ?? [];
  return (
    <section aria-labelledby={titleId}>
      <ListPanel
        header={
          <Stack gap={2}>
            <Title order={2} fz="lg" id={titleId}>
              {title}
            </Title>
            <Text size="sm" c="dimmed">
              {description}
            </Text>
          </Stack>
        }
        page={data ? { page, perPage: data.per_page, shown: rows.length, total: data.total } : undefined}
        // No "Sin resultados" above an empty list: the empty state says it.
        status={data?.total === 0 ? null : undefined}
        noun={['solicitud', 'solicitudes']}
        notice={notice}
        query={query}
        loading={{ label: 'Cargando solicitudes de presupuesto', rows: 2 }}
        errorTitle="No se pudieron cargar las solicitudes de presupuesto"
        empty={empty}
        pager={{ label: 'Páginas de solicitudes de presupuesto', onChange: setPage }}
      >
        <Stack component="ul" gap="xs" p={{ base: 'sm', sm: 'md' }} m={0} style={{ listStyle: 'none' }}>
          {rows.map((r) => (
            <BudgetRequestItem key={r.id} request={r} showClient={showClient} aside={aside(r)} />
          ))}
        </Stack>
      </ListPanel>
    </section>
  );
}

/** The distributor's queue: every client's pending requests, oldest first, each approved or refused here. */
export function PendingBudgetsCard() {
  const decide = useDecideBudgetRequest();
  const [refusal, setRefusal] = useState<string | null>(null);
  const act = (r: BudgetRequestDto, decision: BudgetDecision) => {
    setRefusal(null);
    decide.mutate(
      { id: r.id, decision },
      {
        onSuccess: (res) => showSuccess(res.msg),
        onError: (error) => setRefusal(errorMessage(error)),
      },
    );
  };
  const busy = (r: BudgetRequestDto, decision: BudgetDecision) =>
    decide.isPending && decide.variables?.id === r.id && decide.variables.decision === decision;
  return (
    <BudgetRequestsPanel
      title="Presupuestos por aprobar"
      description="Presupuestos mensuales que un administrador de cliente pidió por encima del tope de su empresa. Hasta que decidas, el usuario conserva el que tenía."
      estado="pendiente"
      showClient
      // The home shows the queue every day: an empty one is a line, not a picture.
      empty={
        <Group gap="xs" p={{ base: 'sm', sm: 'md' }} c="dimmed">
          <IconCircleCheck size={18} aria-hidden />
          <Text size="sm">No hay presupuestos por aprobar.</Text>
        </Group>
      }
      notice={<Refusal error={refusal} onClose={() => setRefusal(null)} mx="md" mb="sm" />}
      aside={(r) => (
        <Group gap="xs" wrap="nowrap">
          <Button
            size="xs"
            color="teal"
            leftSection={<IconCheck size={14} aria-hidden />}
            loading={busy(r, 'aprobar')}
            disabled={decide.isPending && !busy(r, 'aprobar')}
            aria-label={`Aprobar el presupuesto de ${r.usuario.nombre}`}
            onClick={() => act(r, 'aprobar')}
          >
            Aprobar
          </Button>
          <Button
            size="xs"
            variant="light"
            color="red"
            leftSection={<IconX size={14} aria-hidden />}
            loading={busy(r, 'rechazar')}
            disabled={decide.isPending && !busy(r, 'rechazar')}
            aria-label={`Rechazar el presupuesto de ${r.usuario.nombre}`}
            onClick={() => act(r, 'rechazar')}
          >
            Rechazar
          </Button>
        </Group>
      )}
    />
  );
}

/** A client administrator's requests, every state, newest first. */
export function OwnBudgetRequests() {
  return (
    <BudgetRequestsPanel
      title="Solicitudes de presupuesto"
      description="Los presupuestos que asignaste por encima del tope y lo que decidió tu distribuidor."
      estado={null}
      showClient={false}
      empty={
        <ListEmpty
          icon={<IconCoins size={28} stroke={1.6} />}
          title="Aún no hay solicitudes de presupuesto"
          py="lg"
        />
      }
      aside={(r) => <BudgetRequestBadge estado={r.estado} />}
    />
  );
}
