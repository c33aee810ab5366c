/**
 * /administrador/reclamos: every client's claims on shipped units (decision 0127), the pending ones first
 * (`?estado=pendientes`, the default; or all, or one state), 50 a page, newest first. Each claim is a card at
 * every width: its order (a link to the operator's order page), client and buyer, its lines and reasons,
 * what the buyer asks for, the note, the photos and its state, with the decisions its state allows.
 */
import { Anchor, Box, Group, Paper, Select, Stack, Text } from '@mantine/core';
import { CLAIM_STATE_LABELS, CLAIM_STATES } from '@portal/shared/domain/claims';
import { ClaimQueueQuery, type ClaimQueueRow } from '@portal/shared/schemas/claims';
import { IconCircleCheck, IconMessageReport } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link, useLocation } from 'react-router';
import { ClaimDetails, ClaimStateBadge } from '../../../components/orders/order-claims';
import { ListPanel } from '../../../components/ui/list-panel';
import { ListEmpty } from '../../../components/ui/list-states';
import { PageHeader } from '../../../components/ui/page';
import { pageHeading } from '../../../lib/first-paint';
import { formatOrderNumber } from '../../../lib/format';
import { useListParams } from '../../../lib/list-params';
import { useClaimQueue } from './api';
import { useClaimDecisions } from './claim-decision';

type Filter = ClaimQueueQuery['estado'];

const FILTERS: { value: Filter; label: string }[] = [
  { value: 'pendientes', label: 'Pendientes' },
  { value: 'todos', label: 'Todos' },
  ...CLAIM_STATES.map((s) => ({ value: s, label: CLAIM_STATE_LABELS[s] })),
];

const EMPTY: Partial<Record<Filter, string>> = {
  pendientes: 'No hay reclamos por decidir',
  todos: 'Aún no hay reclamos',
};

function ClaimCard({
  row,
  back,
  actions,
}: {
  row: ClaimQueueRow;
  /** This list's address, for the order page's back link. */
  back: string;
  actions: ReactNode;
}) {
  return (
    <Paper component="li" withBorder radius="md" p="sm" data-testid="reclamo-fila">
      <Stack gap={6}>
        <Group justify="space-between" align="flex-start" gap="xs" wrap="wrap">
          <Stack gap={2} miw={0} style={{ flex: '1 1 16rem' }}>
            <Group gap="xs" wrap="wrap">
              <Anchor
                component={Link}
                to={`/administrador/pedidos/${row.id_pedido}`}
                state={{ back }}
                fw={700}
              >
                Pedido {formatOrderNumber(row.id_pedido)}
              </Anchor>
              <Text fw={600} size="sm">
                · Reclamo {row.numero}
              </Text>
              <ClaimStateBadge estado={row.estado} />
            </Group>
            <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
              {row.cliente} · {row.comprador}
            </Text>
          </Stack>
          {actions}
        </Group>
        <ClaimDetails reclamo={row} photoHref={(foto) => `/api/surtido/${row.id_pedido}/fotos/${foto}`} />
      </Stack>
    </Paper>
  );
}

export function ClaimsPage() {
  const list = useListParams(ClaimQueueQuery);
  const { estado, page } = list.values;
  const query = useClaimQueue({ estado, page });
  const decisions = useClaimDecisions();
  const { pathname, search } = useLocation();
  const data = query.data;
  const rows = data?.items ?? [];
  return (
    <Stack gap={0}>
      <PageHeader {...pageHeading('reclamos')} />
      <ListPanel
        header={
          <Box w={{ base: '100%', sm: 280 }}>
            <Select
              label="Estado"
              data={FILTERS}
              value={estado}
              onChange={(v) => list.set({ estado: (v as Filter | null) ?? 'pendientes' })}
              allowDeselect={false}
              comboboxProps={{ withinPortal: true }}
            />
          </Box>
        }
        page={data ? { page, perPage: data.per_page, shown: rows.length, total: data.total } : undefined}
        noun={['reclamo', 'reclamos']}
        query={query}
        loading={{ label: 'Cargando reclamos', rows: 3 }}
        errorTitle="No se pudieron cargar los reclamos"
        empty={
          <ListEmpty
            icon={
              estado === 'pendientes' ? (
                <IconCircleCheck size={28} stroke={1.6} />
              ) : (
                <IconMessageReport size={28} stroke={1.6} />
              )
            }
            title={EMPTY[estado] ?? 'Ningún reclamo en ese estado'}
            description={
              estado === 'pendientes'
                ? 'Cuando un comprador reporte un faltante, un daño o un producto equivocado, su reclamo aparecerá aquí.'
                : undefined
            }
            py="lg"
          />
        }
        pager={{
          label: 'Páginas de reclamos',
          onChange: (p) => {
            list.set({ page: p });
            window.scrollTo({ top: 0 });
          },
        }}
      >
        <Stack component="ul" gap="xs" p={{ base: 'sm', sm: 'md' }} m={0} style={{ listStyle: 'none' }}>
          {rows.map((row) => (
            <ClaimCard
              key={row.id}
              row={row}
              back={pathname + search}
              actions={decisions.buttons(row, row.id_pedido)}
            />
          ))}
        </Stack>
      </ListPanel>
      {decisions.dialog}
    </Stack>
  );
}
