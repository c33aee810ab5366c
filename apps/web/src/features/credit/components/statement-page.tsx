/**
 * «Estado de cuenta» (decision 0134): a client's open invoices with their due dates, days overdue and aging
 * bucket, the credit notes and payments applied to each, 50 a page in the list's frame and pager (the page
 * in the URL, decision 0138); its balance, overdue amount, aging totals, limit and available credit, always
 * the whole client's; «Descargar PDF» and «Descargar CSV», every open invoice. The client's approvers and administrators read
 * their own client's (`cliente` null); the distributor names the client. A table from the sm breakpoint up,
 * a card per invoice on a phone.
 */
import '@mantine/core/styles/Table.css';
import { Alert, Anchor, Badge, Button, Group, Paper, SimpleGrid, Stack, Table, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import {
  AGING_BUCKETS,
  AGING_LABELS,
  type AgingBucket,
  CREDIT_POLICY_NAMES,
} from '@portal/shared/domain/credit';
import { type StatementDto, type StatementInvoice, StatementQuery } from '@portal/shared/schemas/credit';
import {
  IconAlertTriangle,
  IconCash,
  IconClockExclamation,
  IconCreditCard,
  IconDownload,
  IconFileInvoice,
  IconWallet,
} from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { SatVerificationLink } from '../../../components/orders/order-invoices';
import { showSuccess } from '../../../components/ui/alerts';
import { ListPanel } from '../../../components/ui/list-panel';
import { ListEmpty, LoadError, LoadingRows } from '../../../components/ui/list-states';
import { PageHeader } from '../../../components/ui/page';
import { Refusal } from '../../../components/ui/refusal';
import { StatCard } from '../../../components/ui/stat-card';
import { errorMessage } from '../../../lib/api';
import { formatIsoDate, formatMXN, formatOrderNumber } from '../../../lib/format';
import { lazyValue } from '../../../lib/lazy-value';
import { useListParams } from '../../../lib/list-params';
import { useStatement, useStatementDownload } from '../api/credit';

/** The page of invoices in the URL (`?page=`); the client is the route's, not the query's. */
const StatementPageQuery = lazyValue(() => StatementQuery.pick({ page: true }));

export const BUCKET_COLORS: Record<AgingBucket, string> = {
  '0-30': 'gray',
  '31-60': 'orange',
  '61-90': 'red',
  '90+': 'red',
};

const folioOf = (d: { serie: string | null; folio: string | null; uuid: string }) =>
  [d.serie, d.folio].filter(Boolean).join('-') || d.uuid.slice(0, 8);

function AgingBadge({ f }: { f: StatementInvoice }) {
  return f.dias_vencido > 0 ? (
    <Badge color={BUCKET_COLORS[f.antiguedad]} variant="light" radius="sm" style={{ textTransform: 'none' }}>
      {f.dias_vencido === 1 ? 'Vencida hace 1 día' : `Vencida hace ${f.dias_vencido} días`}
    </Badge>
  ) : (
    <Badge color="teal" variant="light" radius="sm" style={{ textTransform: 'none' }}>
      Al corriente
    </Badge>
  );
}

/** The credit notes and payments applied to an invoice, one line each. */
function Applied({ f }: { f: StatementInvoice }) {
  if (f.aplicaciones.length === 0) return null;
  return (
    <Stack gap={0} component="ul" m={0} p={0} style={{ listStyle: 'none' }}>
      {f.aplicaciones.map((a) => (
        <Text key={a.uuid} component="li" size="xs" c="dimmed">
          {a.tipo === 'E' ? 'Nota de crédito' : 'Pago'} {folioOf(a)} del {formatIsoDate(a.fecha)}:{' '}
          {formatMXN(a.importe)}
        </Text>
      ))}
    </Stack>
  );
}

/** Where the viewer downloads an invoice's XML (its own order routes), when it may. */
export type InvoiceFileHref = (pedido: number, uuid: string) => string;

/** «Verificar en el SAT» and the XML, under an invoice's folio. */
function InvoiceLinks({ f, fileHref }: { f: StatementInvoice; fileHref?: InvoiceFileHref }) {
  if (!f.verificacion_sat && !fileHref) return null;
  return (
    <Group gap="sm" wrap="wrap">
      <SatVerificationLink href={f.verificacion_sat} />
      {fileHref ? (
        <Anchor href={fileHref(f.pedido, f.uuid)} size="xs" data-testid="estado-factura-xml">
          XML
        </Anchor>
      ) : null}
    </Group>
  );
}

function InvoiceCard({ f, fileHref }: { f: StatementInvoice; fileHref?: InvoiceFileHref }) {
  return (
    <Paper component="li" withBorder radius="md" p="sm" data-testid="estado-factura">
      <Stack gap={4}>
        <Group justify="space-between" wrap="nowrap" gap="xs">
          <Text fw={700}>Factura {folioOf(f)}</Text>
          <AgingBadge f={f} />
        </Group>
        <InvoiceLinks f={f} fileHref={fileHref} />
        <Text size="sm">
          Pedido {formatOrderNumber(f.pedido)} · {formatIsoDate(f.fecha)} · vence{' '}
          {formatIsoDate(f.vencimiento)}
        </Text>
        <Text size="sm">Total {formatMXN(f.total)}</Text>
        <Text size="sm">Pagado {formatMXN(f.pagado)}</Text>
        <Text fw={700}>Saldo {formatMXN(f.saldo)}</Text>
        <Applied f={f} />
      </Stack>
    </Paper>
  );
}

function InvoiceTable({ facturas, fileHref }: { facturas: StatementInvoice[]; fileHref?: InvoiceFileHref }) {
  return (
    <Table.ScrollContainer minWidth={860}>
      <Table verticalSpacing="sm" striped aria-label="Facturas abiertas">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Factura</Table.Th>
            <Table.Th>Pedido</Table.Th>
            <Table.Th>Fecha</Table.Th>
            <Table.Th>Vence</Table.Th>
            <Table.Th ta="right">Total</Table.Th>
            <Table.Th ta="right">Pagado</Table.Th>
            <Table.Th ta="right">Saldo</Table.Th>
            <Table.Th>Antigüedad</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {facturas.map((f) => (
            <Table.Tr key={f.uuid} data-testid="estado-factura">
              <Table.Td>
                <Text fw={600} size="sm">
                  {folioOf(f)}
                </Text>
                <InvoiceLinks f={f} fileHref={fileHref} />
                <Applied f={f} />
              </Table.Td>
              <Table.Td>{formatOrderNumber(f.pedido)}</Table.Td>
              <Table.Td>{formatIsoDate(f.fecha)}</Table.Td>
              <Table.Td>{formatIsoDate(f.vencimiento)}</Table.Td>
              <Table.Td ta="right">{formatMXN(f.total)}</Table.Td>
              <Table.Td ta="right">{formatMXN(f.pagado)}</Table.Td>
              <Table.Td ta="right" fw={700}>
                {formatMXN(f.saldo)}
              </Table.Td>
              <Table.Td>
                <AgingBadge f={f} />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** The balance's four buckets of days past due. */
function AgingTotals({ s }: { s: StatementDto }) {
  return (
    <Paper withBorder radius="lg" p="md" shadow="xs" component="section" aria-label="Antigüedad de saldos">
      <Text fw={700} mb="xs">
        Antigüedad de saldos
      </Text>
      <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="sm">
        {AGING_BUCKETS.map((b) => (
          <Stack key={b} gap={0} data-testid={`antiguedad-${b}`}>
            <Text size="xs" c="dimmed">
              {AGING_LABELS[b]}
            </Text>
            <Text fw={700} c={s.antiguedad[b] > 0 && b !== '0-30' ? 'red.8' : undefined}>
              {formatMXN(s.antiguedad[b])}
            </Text>
          </Stack>
        ))}
      </SimpleGrid>
      <Text size="xs" c="dimmed" mt="xs">
        «0–30 días» incluye las facturas que aún no vencen. Días de crédito: {s.dias_credito}.
      </Text>
    </Paper>
  );
}

export function StatementPage({
  cliente = null,
  back,
  fileHref,
}: {
  /** The client the distributor chose; null: the signed-in person's own. */
  cliente?: number | null;
  /** A link back (the distributor's aging). */
  back?: ReactNode;
  /** The invoices' XML on the viewer's own routes; none: no XML link. */
  fileHref?: InvoiceFileHref;
}) {
  const list = useListParams(StatementPageQuery);
  const query = useStatement(cliente, list.values.page);
  const download = useStatementDownload(cliente);
  const phone = useMediaQuery('(max-width: 36em)') ?? false;
  const s = query.data;
  const save = (formato: 'csv' | 'pdf') =>
    download.mutate(formato, {
      onSuccess: (filename) => showSuccess('Estado de cuenta descargado', filename),
    });
  return (
    <Stack gap="md">
      {back}
      <PageHeader
        title="Estado de cuenta"
        description={
          s ? `${s.cliente.nombre} · al ${formatIsoDate(s.fecha)}` : 'Facturas, pagos, saldo y antigüedad.'
        }
        actions={
          <Group gap="xs" wrap="wrap">
            <Button
              variant="default"
              leftSection={<IconDownload size={16} aria-hidden />}
              onClick={() => save('pdf')}
              loading={download.isPending && download.variables === 'pdf'}
              disabled={!s}
            >
              Descargar PDF
            </Button>
            <Button
              variant="default"
              leftSection={<IconDownload size={16} aria-hidden />}
              onClick={() => save('csv')}
              loading={download.isPending && download.variables === 'csv'}
              disabled={!s}
            >
              Descargar CSV
            </Button>
          </Group>
        }
      />
      <Refusal
        error={download.isError ? errorMessage(download.error) : null}
        title="No se pudo descargar el estado de cuenta"
        onClose={() => download.reset()}
      />
      {query.isPending ? (
        <LoadingRows label="Cargando el estado de cuenta" rows={4} height={56} />
      ) : query.isError || !s ? (
        <LoadError
          title="No se pudo cargar el estado de cuenta"
          error={query.error}
          onRetry={() => void query.refetch()}
        />
      ) : (
        <>
          {s.pedidos_retenidos > 0 ? (
            <Alert color="orange" variant="light" icon={<IconAlertTriangle size={18} />} role="status">
              {s.pedidos_retenidos === 1
                ? '1 pedido aprobado está retenido por crédito hasta que el distribuidor lo libere.'
                : `${s.pedidos_retenidos} pedidos aprobados están retenidos por crédito hasta que el distribuidor los libere.`}
            </Alert>
          ) : null}
          <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="sm">
            <StatCard
              label="Saldo"
              value={<span data-testid="estado-saldo">{formatMXN(s.saldo)}</span>}
              icon={<IconWallet size={18} />}
              color="blue"
            />
            <StatCard
              label="Vencido"
              value={<span data-testid="estado-vencido">{formatMXN(s.vencido)}</span>}
              icon={<IconClockExclamation size={18} />}
              color="gray"
              danger={s.vencido > 0}
            />
            <StatCard
              label="Límite de crédito"
              value={s.limite_credito === null ? 'Sin límite' : formatMXN(s.limite_credito)}
              icon={<IconCreditCard size={18} />}
              color="gray"
              caption={CREDIT_POLICY_NAMES[s.politica_credito]}
            />
            <StatCard
              label="Crédito disponible"
              value={s.disponible === null ? 'Sin límite' : formatMXN(s.disponible)}
              icon={<IconCash size={18} />}
              color="teal"
              danger={s.disponible !== null && s.disponible < 0}
            />
          </SimpleGrid>
          <AgingTotals s={s} />
          <ListPanel
            header={<Text fw={700}>Facturas abiertas</Text>}
            page={{ page: s.page, perPage: s.per_page, shown: s.facturas.length, total: s.total }}
            noun={['factura abierta', 'facturas abiertas']}
            query={query}
            loading={{ label: 'Cargando las facturas', rows: 4 }}
            errorTitle="No se pudieron cargar las facturas"
            empty={
              <ListEmpty
                icon={<IconFileInvoice size={28} stroke={1.6} />}
                title={s.total === 0 ? 'No hay facturas por pagar' : 'No hay facturas en esta página'}
                py="lg"
              />
            }
            pager={{ label: 'Páginas de facturas', onChange: (page) => list.set({ page }) }}
          >
            {phone ? (
              <Stack component="ul" gap="xs" p="sm" m={0} style={{ listStyle: 'none' }}>
                {s.facturas.map((f) => (
                  <InvoiceCard key={f.uuid} f={f} fileHref={fileHref} />
                ))}
              </Stack>
            ) : (
              <InvoiceTable facturas={s.facturas} fileHref={fileHref} />
            )}
          </ListPanel>
        </>
      )}
    </Stack>
  );
}

/** «← Crédito y cobranza»: the distributor's way back to every client's aging. */
export function BackToAging() {
  return (
    <Anchor component={Link} to="/administrador/credito" size="sm">
      ← Crédito y cobranza
    </Anchor>
  );
}
