/**
 * «Facturas» on the operator's order view (decisions 0131 and 0133): the order's CFDIs with their match
 * (components/orders/order-invoices.tsx), «Aceptar diferencia» on an invoice with differences, and the upload
 * of a stamped CFDI's XML with its optional PDF, for the whole order or one of its shipments (the match then
 * counts that shipment's units). What the server refuses shows above the button, in its words.
 */
import { Button, FileButton, Group, Select, Stack, Text } from '@mantine/core';
import type { OrderShipmentDto } from '@portal/shared/schemas/orders';
import { IconFileTypePdf, IconFileTypeXml, IconUpload } from '@tabler/icons-react';
import { useState } from 'react';
import { OrderInvoicesPanel } from '../../../components/orders/order-invoices';
import { showSuccess } from '../../../components/ui/alerts';
import { Refusal } from '../../../components/ui/refusal';
import { errorMessage } from '../../../lib/api';
import { formatIsoDate } from '../../../lib/format';
import { AcceptDifferenceButton } from './accept-difference';
import { useOrderInvoices, useUploadInvoice } from './api';

/** «Envío 2 · 03/12/2026», the shipments the invoice may be for; none chosen: the whole order. */
const shipmentOptions = (envios: readonly OrderShipmentDto[]) =>
  envios.map((e) => ({ value: String(e.id), label: `Envío ${e.numero} · ${formatIsoDate(e.fecha)}` }));

function UploadForm({ id, envios }: { id: number; envios: readonly OrderShipmentDto[] }) {
  const upload = useUploadInvoice(id);
  const [xml, setXml] = useState<File | null>(null);
  const [pdf, setPdf] = useState<File | null>(null);
  const [envio, setEnvio] = useState<string | null>(null);
  const send = () => {
    if (!xml) return;
    upload.mutate(
      { xml, pdf, envio: envio === null ? null : Number(envio) },
      {
        onSuccess: (res) => {
          showSuccess(res.msg);
          setXml(null);
          setPdf(null);
          setEnvio(null);
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
      {envios.length > 0 ? (
        <Select
          label="Factura de"
          placeholder="Todo el pedido"
          description="Elige un envío si la factura es solo de lo que llegó en él."
          data={shipmentOptions(envios)}
          value={envio}
          onChange={setEnvio}
          clearable
          maw={320}
        />
      ) : null}
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

export function InvoicesSection({ id, envios }: { id: number; envios: readonly OrderShipmentDto[] }) {
  const query = useOrderInvoices(id);
  return (
    <OrderInvoicesPanel
      query={query}
      fileHref={(uuid, which) => `/api/surtido/${id}/facturas/${uuid}/${which}`}
      actions={(f) =>
        f.cotejo === 'con_diferencias' ? <AcceptDifferenceButton id={id} factura={f} /> : null
      }
    >
      <UploadForm id={id} envios={envios} />
    </OrderInvoicesPanel>
  );
}
