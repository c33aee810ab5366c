/**
 * One shipment for the receiver (decision 0130): its order, address, guía and lines, and «Confirmar
 * recepción», which opens the buyer's own receipt form (passed in by the route: another feature's part) on
 * the receiver's routes. Received already (by the receiver or the buyer, whoever was first): who and when,
 * what the receipt counted of each line, its note and photos and the claim its differences opened.
 */
import { Alert, Anchor, Button, Group, Paper, Stack, Text } from '@mantine/core';
import { CLAIM_REASON_LABELS } from '@portal/shared/domain/claims';
import { IconArrowLeft, IconCircleCheck, IconPackageImport } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { type ReactNode, Suspense, useState } from 'react';
import { Link } from 'react-router';
import { ClaimStateBadge } from '../../../components/orders/order-claims';
import { OrderPhotos } from '../../../components/orders/order-photos';
import { LoadError, LoadingRows } from '../../../components/ui/list-states';
import { PageHeader } from '../../../components/ui/page';
import { formatDate, formatDateTime, formatOrderNumber } from '../../../lib/format';
import { receivingKeys, useReceivableShipment } from '../api/receiving';

/** What the receipt form takes: the order, the shipment and its lines (units shipped). */
export interface ReceiptFormInput {
  idPedido: number;
  envio: { numero: number };
  lines: { id: number; nombre: string; unidad: string; enviadas: number }[];
  onClose: () => void;
}

export function ShipmentPage({
  id,
  numero,
  base,
  receiptForm,
}: {
  id: number;
  numero: number;
  /** The list's address (/usuario/recepcion or /autorizador/recepcion). */
  base: string;
  receiptForm: (input: ReceiptFormInput) => ReactNode;
}) {
  const query = useReceivableShipment(id, numero);
  const [open, setOpen] = useState(false);
  const queryClient = useQueryClient();
  const close = () => {
    setOpen(false);
    void queryClient.invalidateQueries({ queryKey: receivingKeys.all });
  };
  const envio = query.data;
  const back = (
    <Anchor component={Link} to={base} size="sm">
      <Group gap={4} component="span">
        <IconArrowLeft size={16} aria-hidden />
        Volver a Recepción
      </Group>
    </Anchor>
  );
  if (query.isPending) return <LoadingRows label="Cargando envío" rows={3} />;
  if (!envio)
    return (
      <Stack gap="sm">
        {back}
        <LoadError
          title="No se pudo cargar el envío"
          error={query.error}
          onRetry={() => void query.refetch()}
        />
      </Stack>
    );
  return (
    <Stack gap="md">
      {back}
      <PageHeader
        title={`Pedido ${formatOrderNumber(id)} · Envío ${numero}`}
        description={`${envio.direccion} · para ${envio.comprador}`}
      />
      <Text size="sm">
        {envio.guia ? `Guía ${envio.paqueteria ? `${envio.paqueteria} ` : ''}${envio.guia} · ` : ''}
        Enviado el {formatDate(`${envio.fecha}T12:00:00`)}
        {envio.reposicion ? ' · Reposición de un reclamo' : ''}
      </Text>
      <Paper withBorder radius="md" p="sm">
        <Stack
          component="ul"
          gap={6}
          m={0}
          p={0}
          style={{ listStyle: 'none' }}
          aria-label="Productos del envío"
        >
          {envio.lineas.map((l) => (
            <Group component="li" key={l.id} justify="space-between" wrap="nowrap" gap="sm">
              <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                {l.nombre}
              </Text>
              <Stack gap={0} align="flex-end">
                <Text size="sm" fw={600} style={{ whiteSpace: 'nowrap' }}>
                  {l.cantidad} {l.unidad_de_medida}
                </Text>
                {l.recibido !== null && l.recibido < l.cantidad ? (
                  <Text size="xs" c="red.9" fw={600} ta="right" data-testid="linea-diferencia">
                    Recibidas {l.recibido}
                    {l.motivo ? ` · ${CLAIM_REASON_LABELS[l.motivo]}` : ''}
                  </Text>
                ) : null}
              </Stack>
            </Group>
          ))}
        </Stack>
      </Paper>
      {envio.recepcion ? (
        <Alert
          color="teal"
          variant="light"
          icon={<IconCircleCheck size={18} aria-hidden />}
          data-testid="envio-recibido"
        >
          <Stack gap={6}>
            <Text size="sm">
              Recibido por {envio.recepcion.por} el {formatDateTime(envio.recepcion.fecha)}.
            </Text>
            {envio.recepcion.nota ? (
              <Text size="sm" style={{ overflowWrap: 'anywhere', whiteSpace: 'pre-wrap' }}>
                <Text span inherit c="dimmed">
                  Nota:
                </Text>{' '}
                {envio.recepcion.nota}
              </Text>
            ) : null}
            <OrderPhotos
              fotos={envio.recepcion.fotos}
              href={(foto) => `/api/recepcion/${id}/fotos/${foto}`}
              label={`Fotos de la recepción del envío ${numero}`}
            />
            {envio.recepcion.reclamo ? (
              <Group gap="xs" data-testid="envio-reclamo">
                <Text size="sm">Se abrió el reclamo {envio.recepcion.reclamo.numero}</Text>
                <ClaimStateBadge estado={envio.recepcion.reclamo.estado} />
              </Group>
            ) : null}
          </Stack>
        </Alert>
      ) : (
        <Button
          color="teal"
          size="md"
          fullWidth
          leftSection={<IconPackageImport size={18} aria-hidden />}
          onClick={() => setOpen(true)}
          data-testid="confirmar-recepcion"
        >
          Confirmar recepción
        </Button>
      )}
      {open ? (
        <Suspense fallback={null}>
          {receiptForm({
            idPedido: id,
            envio: { numero },
            lines: envio.lineas.map((l) => ({
              id: l.id,
              nombre: l.nombre,
              unidad: l.unidad_de_medida,
              enviadas: l.cantidad,
            })),
            onClose: close,
          })}
        </Suspense>
      ) : null}
    </Stack>
  );
}
