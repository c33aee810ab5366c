/**
 * An order's CFDIs (decisions 0131 and 0133), as the operator, the buyer, the approvers and the client's
 * administrator see them: serie-folio, UUID and the SAT's verification link, date, total, saldo, state and
 * match state, the match's differences, and the XML and PDF downloads for the viewer's role. On phones
 * each CFDI is a card: the invoice and its state, then date, total and saldo each on a line of its own, then
 * its files.
 */
import '@mantine/core/styles/Table.css';
import { Anchor, Badge, Group, List, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { INVOICE_MATCH_LABELS, type InvoiceMatchState } from '@portal/shared/domain/invoice-match';
import { INVOICE_STATE_LABELS, INVOICE_TYPE_LABELS } from '@portal/shared/domain/invoices';
import type { InvoiceDto } from '@portal/shared/schemas/invoices';
import { IconExternalLink } from '@tabler/icons-react';
import type { CSSProperties, ReactNode } from 'react';
import { errorMessage } from '../../lib/api';
import { formatCentavos } from '../../lib/format';
import phoneTable from '../ui/phone-table.module.css';
import { Refusal } from '../ui/refusal';

const STATE_COLOR = { pendiente: 'yellow', pagada: 'green', aplicada: 'blue' } as const;
const MATCH_COLOR: Record<InvoiceMatchState, string> = {
  conciliada: 'green',
  con_diferencias: 'red',
  diferencia_aceptada: 'gray',
};

/** "2026-12-01T10:00:00" as 01/12/2026 (the CFDI's own local date, shown as written). */
const cfdiDate = (fecha: string) => `${fecha.slice(8, 10)}/${fecha.slice(5, 7)}/${fecha.slice(0, 4)}`;

const CARD = {
  '--wide-min-width': '560px',
  '--phone-columns': 'minmax(0, 1fr) auto',
  '--phone-areas': '"cfdi estado" "fecha fecha" "total total" "saldo saldo" "archivos archivos"',
} as CSSProperties;

/**
 * What the match says of the invoice: the differences (each after its product's clave; a concept of no
 * product already names its own), and how they were resolved.
 */
function MatchDetail({ f }: { f: InvoiceDto }) {
  if (f.cotejo === null || f.cotejo === 'conciliada') {
    return f.cotejo_nota_credito ? (
      <Text size="xs" c="dimmed">
        Diferencias resueltas con la nota de crédito {f.cotejo_nota_credito}.
      </Text>
    ) : null;
  }
  return (
    <Stack gap={2} data-testid="factura-diferencias">
      <List size="xs" spacing={0}>
        {f.diferencias.map((d) => (
          <List.Item key={`${d.tipo}-${d.conceptos.join('-')}`}>
            <Text span size="xs" fw={600}>
              {d.clave && d.tipo !== 'sin_producto' ? `${d.clave} ` : ''}
            </Text>
            <Text span size="xs">
              {d.texto}
            </Text>
          </List.Item>
        ))}
      </List>
      {f.cotejo === 'diferencia_aceptada' && f.cotejo_motivo ? (
        <Text size="xs" c="dimmed">
          Diferencia aceptada: {f.cotejo_motivo}
        </Text>
      ) : null}
    </Stack>
  );
}

/** «Verificar en el SAT»: the SAT's verification page of a CFDI (decision 0133), in another tab; nothing without one. */
export function SatVerificationLink({ href }: { href: string | null }) {
  if (!href) return null;
  return (
    <Anchor href={href} target="_blank" rel="noopener noreferrer" size="xs" data-testid="factura-sat">
      <Group gap={2} component="span" wrap="nowrap">
        Verificar en el SAT
        <IconExternalLink size={12} aria-label="(se abre en otra pestaña)" />
      </Group>
    </Anchor>
  );
}

export function OrderInvoicesTable({
  facturas,
  fileHref,
  actions,
}: {
  facturas: readonly InvoiceDto[];
  /** The XML's or the PDF's address for the viewer's role. */
  fileHref: (uuid: string, which: 'xml' | 'pdf') => string;
  /** The operator's buttons for an invoice (under its differences). */
  actions?: (f: InvoiceDto) => ReactNode;
}) {
  return (
    <div className={phoneTable.scroll}>
      <Table className={phoneTable.table} style={CARD} verticalSpacing="xs" aria-label="Facturas del pedido">
        <Table.Thead className={phoneTable.head}>
          <Table.Tr>
            <Table.Th>CFDI</Table.Th>
            <Table.Th>Fecha</Table.Th>
            <Table.Th ta="right">Total (MXN)</Table.Th>
            <Table.Th ta="right">Saldo (MXN)</Table.Th>
            <Table.Th>Estado</Table.Th>
            <Table.Th>Archivos</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {facturas.map((f) => (
            <Table.Tr key={f.uuid} data-testid="factura-fila">
              <Table.Td style={{ gridArea: 'cfdi', minWidth: 200 }}>
                <Stack gap={4}>
                  <div>
                    <Text size="sm" fw={600}>
                      {[f.serie, f.folio].filter(Boolean).join('-') || 'Sin serie ni folio'}{' '}
                      <Text span size="xs" c="dimmed" fw={400}>
                        {INVOICE_TYPE_LABELS[f.tipo]}
                        {f.envio === null ? '' : ` · Envío ${f.envio}`}
                      </Text>
                    </Text>
                    <Text size="xs" ff="monospace" c="dimmed" style={{ wordBreak: 'break-all' }}>
                      {f.uuid}
                    </Text>
                    <SatVerificationLink href={f.verificacion_sat} />
                  </div>
                  {f.cotejo ? (
                    <div>
                      <Badge
                        variant="outline"
                        color={MATCH_COLOR[f.cotejo]}
                        size="sm"
                        data-testid="factura-cotejo"
                      >
                        {INVOICE_MATCH_LABELS[f.cotejo]}
                      </Badge>
                    </div>
                  ) : null}
                  <MatchDetail f={f} />
                  {actions?.(f)}
                </Stack>
              </Table.Td>
              <Table.Td style={{ gridArea: 'fecha', whiteSpace: 'nowrap' }}>
                <span className={phoneTable.phoneOnly}>Fecha: </span>
                {cfdiDate(f.fecha)}
              </Table.Td>
              <Table.Td ta="right" style={{ gridArea: 'total', whiteSpace: 'nowrap' }}>
                <span className={phoneTable.phoneOnly}>Total: </span>
                {formatCentavos(f.total_centavos, false)}
              </Table.Td>
              <Table.Td ta="right" style={{ gridArea: 'saldo', whiteSpace: 'nowrap' }}>
                <span className={phoneTable.phoneOnly}>Saldo: </span>
                {f.saldo_centavos === null ? '—' : formatCentavos(f.saldo_centavos, false)}
              </Table.Td>
              <Table.Td style={{ gridArea: 'estado', justifySelf: 'end' }}>
                <Badge variant="light" color={STATE_COLOR[f.estado]} style={{ minWidth: 'max-content' }}>
                  {INVOICE_STATE_LABELS[f.estado]}
                </Badge>
              </Table.Td>
              <Table.Td style={{ gridArea: 'archivos' }}>
                <Group gap="sm" wrap="nowrap">
                  <Anchor href={fileHref(f.uuid, 'xml')} download size="sm">
                    XML
                  </Anchor>
                  {f.pdf ? (
                    <Anchor href={fileHref(f.uuid, 'pdf')} download size="sm">
                      PDF
                    </Anchor>
                  ) : null}
                </Group>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </div>
  );
}

/**
 * The «Facturas» section of an order's view: the table (or why there is none) and what goes under it (the
 * operator's upload).
 */
export function OrderInvoicesPanel({
  query,
  fileHref,
  actions,
  children,
}: {
  /** The order's invoices' query (a react-query result fits). */
  query: { data?: { facturas: InvoiceDto[] }; isPending: boolean; isError: boolean; error: unknown };
  fileHref: (uuid: string, which: 'xml' | 'pdf') => string;
  actions?: (f: InvoiceDto) => ReactNode;
  children?: ReactNode;
}) {
  const facturas = query.data?.facturas ?? [];
  return (
    <Paper withBorder radius="md" p="md" component="section" aria-labelledby="facturas-titulo">
      <Stack gap="sm">
        <Title order={2} fz="md" id="facturas-titulo">
          Facturas
        </Title>
        {query.isError ? (
          <Refusal error={errorMessage(query.error)} title="No se pudieron cargar las facturas" />
        ) : facturas.length ? (
          <OrderInvoicesTable facturas={facturas} fileHref={fileHref} actions={actions} />
        ) : (
          <Text size="sm" c="dimmed">
            {query.isPending ? 'Cargando…' : 'Este pedido no tiene facturas registradas.'}
          </Text>
        )}
        {children}
      </Stack>
    </Paper>
  );
}
