/**
 * /administrador/credito, «Crédito y cobranza» (decision 0134): every client by name, 25 a page (the
 * server's), with its balance, overdue amount, aging 0–30/31–60/61–90/90+, limit, available credit, policy
 * and orders held for credit, each linking to its «Estado de cuenta». A table from the sm breakpoint up, a
 * card per client on a phone.
 */
import '@mantine/core/styles/Table.css';
import { Anchor, Badge, Checkbox, Group, Paper, Stack, Table, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { AGING_BUCKETS, AGING_LABELS } from '@portal/shared/domain/credit';
import { AgingQuery, type AgingRow } from '@portal/shared/schemas/credit';
import { IconCreditCard } from '@tabler/icons-react';
import { Link } from 'react-router';
import { ListPanel } from '../../../components/ui/list-panel';
import { ListSearch } from '../../../components/ui/list-search';
import { ListEmpty } from '../../../components/ui/list-states';
import { PageHeader } from '../../../components/ui/page';
import { pageHeading } from '../../../lib/first-paint';
import { formatMXN } from '../../../lib/format';
import { useListParams } from '../../../lib/list-params';
import { useAging } from '../api/credit';

const statementLink = (id: number) => `/administrador/credito/${id}`;

function Held({ n }: { n: number }) {
  return n > 0 ? (
    <Badge color="red.9" variant="filled" radius="sm" style={{ textTransform: 'none' }}>
      {n === 1 ? '1 retenido' : `${n} retenidos`}
    </Badge>
  ) : null;
}

const money = (v: number) => (v === 0 ? '—' : formatMXN(v));

function AgingCard({ row }: { row: AgingRow }) {
  return (
    <Paper component="li" withBorder radius="md" p="sm" data-testid="credito-fila">
      <Stack gap={4}>
        <Group justify="space-between" wrap="nowrap" gap="xs">
          <Anchor component={Link} to={statementLink(row.id)} fw={700} style={{ overflowWrap: 'anywhere' }}>
            {row.nombre}
          </Anchor>
          <Held n={row.pedidos_retenidos} />
        </Group>
        <Text size="sm">
          Saldo <b>{formatMXN(row.saldo)}</b> · Vencido{' '}
          <Text span fw={700} c={row.vencido > 0 ? 'red.8' : undefined}>
            {formatMXN(row.vencido)}
          </Text>
        </Text>
        <Text size="xs" c="dimmed">
          {AGING_BUCKETS.map((b) => `${AGING_LABELS[b]}: ${money(row.antiguedad[b])}`).join(' · ')}
        </Text>
        <Text size="xs" c="dimmed">
          Límite {row.limite_credito === null ? 'sin límite' : formatMXN(row.limite_credito)} ·{' '}
          {row.dias_credito} días · {row.politica_credito === 'retener' ? 'Retiene pedidos' : 'Avisa'}
        </Text>
      </Stack>
    </Paper>
  );
}

function AgingTable({ rows }: { rows: AgingRow[] }) {
  return (
    <Table.ScrollContainer minWidth={1000}>
      <Table verticalSpacing="sm" striped aria-label="Antigüedad de saldos por cliente">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Cliente</Table.Th>
            <Table.Th ta="right">Saldo</Table.Th>
            <Table.Th ta="right">Vencido</Table.Th>
            {AGING_BUCKETS.map((b) => (
              <Table.Th key={b} ta="right">
                {AGING_LABELS[b]}
              </Table.Th>
            ))}
            <Table.Th ta="right">Límite</Table.Th>
            <Table.Th>Política</Table.Th>
            <Table.Th>Retenidos</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row) => (
            <Table.Tr key={row.id} data-testid="credito-fila">
              <Table.Td>
                <Anchor component={Link} to={statementLink(row.id)} fw={600}>
                  {row.nombre}
                </Anchor>
              </Table.Td>
              <Table.Td ta="right" fw={700}>
                {formatMXN(row.saldo)}
              </Table.Td>
              <Table.Td ta="right" fw={700} c={row.vencido > 0 ? 'red.8' : undefined}>
                {formatMXN(row.vencido)}
              </Table.Td>
              {AGING_BUCKETS.map((b) => (
                <Table.Td key={b} ta="right">
                  {money(row.antiguedad[b])}
                </Table.Td>
              ))}
              <Table.Td ta="right">
                {row.limite_credito === null ? 'Sin límite' : formatMXN(row.limite_credito)}
              </Table.Td>
              <Table.Td>{row.politica_credito === 'retener' ? 'Retener' : 'Avisar'}</Table.Td>
              <Table.Td>
                <Held n={row.pedidos_retenidos} />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

export function AgingPage() {
  const list = useListParams(AgingQuery);
  const { page, con_saldo } = list.values;
  const query = useAging(list.values);
  const phone = useMediaQuery('(max-width: 36em)') ?? false;
  const data = query.data;
  const rows = data?.clientes ?? [];
  return (
    <Stack gap={0}>
      <PageHeader {...pageHeading('credito')} />
      <ListPanel
        header={
          <Group gap="md" align="end" wrap="wrap">
            <ListSearch
              label="Buscar cliente"
              value={list.text('q')}
              onChange={(q) => list.set({ q: q || undefined, page: 1 })}
            />
            <Checkbox
              label="Solo con saldo"
              checked={con_saldo === 'si'}
              onChange={(e) => list.set({ con_saldo: e.currentTarget.checked ? 'si' : 'todos', page: 1 })}
            />
          </Group>
        }
        page={data ? { page, perPage: data.per_page, shown: rows.length, total: data.total } : undefined}
        noun={['cliente', 'clientes']}
        query={query}
        loading={{ label: 'Cargando clientes', rows: 4 }}
        errorTitle="No se pudo cargar la antigüedad de saldos"
        empty={<ListEmpty icon={<IconCreditCard size={28} stroke={1.6} />} title="Ningún cliente" py="lg" />}
        pager={{ label: 'Páginas de clientes', onChange: (p) => list.set({ page: p }) }}
      >
        {phone ? (
          <Stack component="ul" gap="xs" p="sm" m={0} style={{ listStyle: 'none' }}>
            {rows.map((row) => (
              <AgingCard key={row.id} row={row} />
            ))}
          </Stack>
        ) : (
          <AgingTable rows={rows} />
        )}
      </ListPanel>
    </Stack>
  );
}
