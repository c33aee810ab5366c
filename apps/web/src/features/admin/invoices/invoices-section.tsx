/**
 * «Facturas» on the operator's order view (decision 0131): the order's CFDIs (serie-folio, UUID, date, total,
 * saldo, state, XML and PDF downloads) and the upload of a stamped CFDI's XML with its optional PDF. What the
 * server refuses shows above the button, in its words.
 */
import '@mantine/core/styles/Table.css';
import { Anchor, Badge, Button, FileButton, Group, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { INVOICE_STATE_LABELS, INVOICE_TYPE_LABELS } from '@portal/shared/domain/invoices';
import type { InvoiceDto } from '@portal/shared/schemas/invoices';
import { IconFileTypePdf, IconFileTypeXml, IconUpload } from '@tabler/icons-react';
import { type CSSProperties, useState } from 'react';
import { showSuccess } from '../../../components/ui/alerts';
import phoneTable from '../../../components/ui/phone-table.module.css';
import { Refusal } from '../../../components/ui/refusal';
import { errorMessage } from '../../../lib/api';
import { formatCentavos } from '../../../lib/format';
import { useOrderInvoices, useUploadInvoice } from './api';

const STATE_COLOR = { pendiente: 'yellow', pagada: 'green', aplicada: 'blue' } as const;

/** "2026-12-01T10:00:00" as 01/12/2026 (the CFDI's own local date, shown as written). */
const cfdiDate = (fecha: string) => `${fecha.slice(8, 10)}/${fecha.slice(5, 7)}/${fecha.slice(0, 4)}`;

/**
 * On phones each CFDI is a card: the invoice and its state, then date, total and saldo each on a line of its
 * own (side by side they pushed the saldo past a 390 px screen's edge), then its files.
 */
const CARD = {
  '--wide-min-width': '540px',
  '--phone-columns': 'minmax(0, 1fr) auto',
  '--phone-areas': '"cfdi estado" "fecha fecha" "total total" "saldo saldo" "archivos archivos"',
} as CSSProperties;

function InvoiceRows({ id, facturas }: { id: number; facturas: InvoiceDto[] }) {
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
              <Table.Td style={{ gridArea: 'cfdi', minWidth: 160 }}>
                <Text size="sm" fw={600}>
                  {[f.serie, f.folio].filter(Boolean).join('-') || 'Sin serie ni folio'}{' '}
                  <Text span size="xs" c="dimmed" fw={400}>
                    {INVOICE_TYPE_LABELS[f.tipo]}
                  </Text>
                </Text>
                <Text size="xs" ff="monospace" c="dimmed" style={{ wordBreak: 'break-all' }}>
                  {f.uuid}
                </Text>
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
                  <Anchor href={`/api/surtido/${id}/facturas/${f.uuid}/xml`} download size="sm">
                    XML
                  </Anchor>
                  {f.pdf ? (
                    <Anchor href={`/api/surtido/${id}/facturas/${f.uuid}/pdf`} download size="sm">
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

function UploadForm({ id }: { id: number }) {
  const upload = useUploadInvoice(id);
  const [xml, setXml] = useState<File | null>(null);
  const [pdf, setPdf] = useState<File | null>(null);
  const send = () => {
    if (!xml) return;
    upload.mutate(
      { xml, pdf },
      {
        onSuccess: (res) => {
          showSuccess(res.msg);
          setXml(null);
          setPdf(null);
        },
      },
    );
  };
  return (
    <Stack gap="xs">
      <Text size="sm" c="dimmed">
        Sube el XML timbrado (CFDI 4.0) y, si lo tienes, su PDF. Se revisan la versión, el timbre, el RFC del
        receptor y la moneda.
      </Text>
      <Group gap="sm" wrap="wrap">
        <FileButton
          onChange={setXml}
          accept=".xml,application/xml,text/xml"
          inputProps={{ 'aria-label': 'XML del CFDI' }}
        >
          {(props) => (
            <Button {...props} variant="default" leftSection={<IconFileTypeXml size={16} aria-hidden />}>
              {xml ? xml.name : 'Elegir XML'}
            </Button>
          )}
        </FileButton>
        <FileButton
          onChange={setPdf}
          accept="application/pdf,.pdf"
          inputProps={{ 'aria-label': 'PDF de la factura' }}
        >
          {(props) => (
            <Button {...props} variant="default" leftSection={<IconFileTypePdf size={16} aria-hidden />}>
              {pdf ? pdf.name : 'Elegir PDF (opcional)'}
            </Button>
          )}
        </FileButton>
      </Group>
      <Refusal
        error={upload.isError ? errorMessage(upload.error) : null}
        title="No se registró el CFDI"
        onClose={() => upload.reset()}
      />
      <Group>
        <Button
          onClick={send}
          disabled={!xml}
          loading={upload.isPending}
          leftSection={<IconUpload size={16} aria-hidden />}
        >
          Registrar CFDI
        </Button>
      </Group>
    </Stack>
  );
}

export function InvoicesSection({ id }: { id: number }) {
  const query = useOrderInvoices(id);
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
          <InvoiceRows id={id} facturas={facturas} />
        ) : (
          <Text size="sm" c="dimmed">
            {query.isPending ? 'Cargando…' : 'Este pedido no tiene facturas registradas.'}
          </Text>
        )}
        <UploadForm id={id} />
      </Stack>
    </Paper>
  );
}
