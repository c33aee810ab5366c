/**
 * Partial shipments on every order screen (decision 0125): under each line its promised date (and
 * «Atrasado» when it has passed with units left), the units shipped and the units cancelled with their
 * reason; and the «Envíos» section, each shipment with its date, carrier and guía (a tracking link), its
 * lines and the download of its remisión for the viewer's role.
 */
import { Badge, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { orderNumber } from '@portal/shared/domain/order-workflow';
import { businessDate } from '@portal/shared/domain/time';
import type { OrderLineDto, OrderShipmentDto } from '@portal/shared/schemas/orders';
import { IconFileTypePdf, IconTruckDelivery } from '@tabler/icons-react';
import { formatIsoDate, getBusinessTimeZone, plural } from '../../lib/format';
import { GuiaLink } from './guia-link';

/** Today in the business zone (YYYY-MM-DD): a promised date before it has passed. */
export function businessToday(): string {
  return businessDate(Date.now(), getBusinessTimeZone());
}

/** Units of a line still to ship: what still counts less what was shipped. */
export function unitsLeft(linea: Pick<OrderLineDto, 'cantidad' | 'enviado'>): number {
  return Math.max(0, linea.cantidad - (linea.enviado ?? 0));
}

/** A line promised for a day already gone with units still to ship. */
export function lineLate(linea: OrderLineDto, today: string = businessToday()): boolean {
  return !!linea.fecha_promesa && linea.fecha_promesa < today && unitsLeft(linea) > 0;
}

/** Under a line's name: «Prometido 12/12/2026» (and «Atrasado»), «Enviado 3 de 5», «2 cancelados: Agotado». */
export function LineFulfilment({ linea, today }: { linea: OrderLineDto; today: string }) {
  const enviado = linea.enviado ?? 0;
  const cancelado = linea.cancelado ?? 0;
  // A line wholly cancelled has nothing promised any more.
  const promised = linea.fecha_promesa && linea.cantidad > 0 ? linea.fecha_promesa : null;
  if (!promised && enviado === 0 && cancelado === 0) return null;
  return (
    <Stack gap={2} mt={4} data-testid="linea-surtido">
      {promised ? (
        <Group gap={6} wrap="wrap">
          <Text size="xs" c="dimmed" data-testid="linea-promesa">
            Prometido {formatIsoDate(promised)}
          </Text>
          {lineLate(linea, today) ? (
            <Badge color="red" variant="filled" size="xs" radius="sm" data-testid="linea-atrasada">
              Atrasado
            </Badge>
          ) : null}
        </Group>
      ) : null}
      {enviado > 0 ? (
        <Text size="xs" data-testid="linea-enviado">
          Enviado {enviado} de {linea.cantidad}
        </Text>
      ) : null}
      {cancelado > 0 ? (
        <Text size="xs" c="red.8" data-testid="linea-cancelado">
          {plural(cancelado, 'cancelado', 'cancelados')}
          {linea.motivo_cancelacion ? `: ${linea.motivo_cancelacion}` : ''}
        </Text>
      ) : null}
    </Stack>
  );
}

/** 'Remisión': a plain link to one shipment's PDF (same origin, the session cookie goes with it). */
function RemisionLink({ id, numero, href }: { id: number; numero: number; href: string }) {
  return (
    <Button
      component="a"
      href={href}
      download={`remision-${orderNumber(id)}-${numero}.pdf`}
      variant="default"
      size="xs"
      leftSection={<IconFileTypePdf size={14} aria-hidden />}
      aria-label={`Descargar la remisión del envío ${numero}`}
      data-testid="descargar-remision"
    >
      Remisión
    </Button>
  );
}

/** «Envíos»: each shipment with its date, carrier and guía, its lines and its remisión; nothing before the first. */
export function OrderShipments({
  id,
  envios,
  lineas,
  remisionHref,
}: {
  id: number;
  envios: OrderShipmentDto[] | undefined;
  lineas: OrderLineDto[];
  /** The remisión's address for the viewer's role; without it no link is shown. */
  remisionHref?: (numero: number) => string;
}) {
  if (!envios || envios.length === 0) return null;
  const names = new Map(lineas.map((l) => [l.id, l]));
  return (
    <Paper withBorder radius="md" p="md" shadow="xs" component="section" aria-labelledby="envios-pedido">
      <Title order={2} fz="md" mb="sm" id="envios-pedido">
        Envíos
      </Title>
      <Stack gap="sm">
        {envios.map((envio) => (
          <Paper key={envio.id} withBorder radius="sm" p="sm" bg="gray.0" data-testid="envio">
            <Group justify="space-between" align="flex-start" gap="xs" wrap="wrap">
              <Stack gap={2} style={{ minWidth: 0, flex: '1 1 14rem' }}>
                <Group gap={6} wrap="nowrap">
                  <IconTruckDelivery size={16} aria-hidden />
                  <Text size="sm" fw={700}>
                    Envío {envio.numero} · {formatIsoDate(envio.fecha.slice(0, 10))}
                  </Text>
                </Group>
                <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                  {envio.guia ? (
                    <>
                      Guía: <GuiaLink guia={envio.guia} paqueteria={envio.paqueteria} />
                    </>
                  ) : envio.paqueteria ? (
                    `Paquetería: ${envio.paqueteria} · sin guía`
                  ) : (
                    'Sin guía de rastreo'
                  )}
                </Text>
              </Stack>
              {remisionHref ? (
                <RemisionLink id={id} numero={envio.numero} href={remisionHref(envio.numero)} />
              ) : null}
            </Group>
            <Stack
              component="ul"
              gap={0}
              mt={6}
              mb={0}
              pl="md"
              aria-label={`Productos del envío ${envio.numero}`}
            >
              {envio.lineas.map((l) => {
                const linea = names.get(l.id_linea);
                return (
                  <Text component="li" size="sm" key={l.id_linea}>
                    {l.cantidad} × {linea?.nombre ?? `Línea ${l.id_linea}`}
                    {linea ? ` (${linea.unidad_de_medida})` : ''}
                  </Text>
                );
              })}
            </Stack>
          </Paper>
        ))}
      </Stack>
    </Paper>
  );
}
