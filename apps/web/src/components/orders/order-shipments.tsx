/**
 * Partial shipments on every order screen (decision 0125): under each line its promised date (and
 * «Atrasado» when it has passed with units left), the units shipped, the units cancelled with their reason
 * and the units credited by a claim (0127); and the «Envíos» section, each shipment with its date, carrier
 * and guía (a tracking link), its lines, the download of its remisión for the viewer's role, «Reposición» on
 * a claim's replacement, and its receipt (who and when, the differences, the note and the photos) or the
 * screen's button to confirm it.
 */
import { Badge, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { CLAIM_REASON_LABELS } from '@portal/shared/domain/claims';
import { orderNumber } from '@portal/shared/domain/order-workflow';
import { businessDate } from '@portal/shared/domain/time';
import type { OrderLineDto, OrderShipmentDto } from '@portal/shared/schemas/orders';
import { IconCircleCheck, IconFileTypePdf, IconTruckDelivery } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { formatIsoDate, getBusinessTimeZone, plural } from '../../lib/format';
import { GuiaLink } from './guia-link';
import { formatWhen } from './order-claims';
import { OrderPhotos, type PhotoHref } from './order-photos';

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

/**
 * Under a line's name: «Prometido 12/12/2026» (and «Atrasado»), «Enviado 3 de 5», «2 cancelados: Agotado»,
 * «1 acreditado por reclamo».
 */
export function LineFulfilment({ linea, today }: { linea: OrderLineDto; today: string }) {
  const enviado = linea.enviado ?? 0;
  const cancelado = linea.cancelado ?? 0;
  const acreditado = linea.acreditado ?? 0;
  // A promise is about what is still to ship: none for a line wholly shipped, cancelled or credited.
  const promised = linea.fecha_promesa && unitsLeft(linea) > 0 ? linea.fecha_promesa : null;
  if (!promised && enviado === 0 && cancelado === 0 && acreditado === 0) return null;
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
      {acreditado > 0 ? (
        <Text size="xs" c="red.8" data-testid="linea-acreditado">
          {plural(acreditado, 'acreditado', 'acreditados')} por reclamo
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

/** A shipment's receipt: «Recibido el 05/12/2026 10:15 por Ana», the lines received short, the note, the photos. */
function ShipmentReceipt({
  envio,
  names,
  photoHref,
}: {
  envio: OrderShipmentDto;
  names: Map<number, OrderLineDto>;
  photoHref?: PhotoHref;
}) {
  const recepcion = envio.recepcion;
  if (!recepcion) return null;
  const shipped = new Map(envio.lineas.map((l) => [l.id_linea, l.cantidad]));
  const differences = recepcion.lineas.filter((l) => l.recibido < (shipped.get(l.id_linea) ?? 0));
  return (
    <Stack gap={4} mt={8} pt={8} style={{ borderTop: '1px solid var(--mantine-color-gray-3)' }}>
      <Group gap={6} wrap="nowrap" align="flex-start">
        <IconCircleCheck
          size={16}
          color="var(--mantine-color-teal-7)"
          aria-hidden
          style={{ flexShrink: 0 }}
        />
        <Text size="sm" fw={600} data-testid="envio-recibido">
          Recibido el {formatWhen(recepcion.fecha)} por {recepcion.por}
        </Text>
      </Group>
      {differences.length > 0 ? (
        <Stack
          component="ul"
          gap={0}
          my={0}
          pl="md"
          aria-label={`Diferencias en la recepción del envío ${envio.numero}`}
        >
          {differences.map((l) => (
            <Text component="li" size="sm" c="red.9" key={l.id_linea} data-testid="recepcion-diferencia">
              {names.get(l.id_linea)?.nombre ?? `Línea ${l.id_linea}`}: recibidas {l.recibido} de{' '}
              {shipped.get(l.id_linea) ?? 0}
              {l.motivo ? ` — ${CLAIM_REASON_LABELS[l.motivo]}` : ''}
            </Text>
          ))}
        </Stack>
      ) : (
        <Text size="xs" c="dimmed">
          Completo y en buen estado.
        </Text>
      )}
      {recepcion.nota ? (
        <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
          <Text span inherit c="dimmed">
            Nota:
          </Text>{' '}
          {recepcion.nota}
        </Text>
      ) : null}
      <OrderPhotos
        fotos={recepcion.fotos}
        href={photoHref}
        label={`Fotos de la recepción del envío ${envio.numero}`}
      />
    </Stack>
  );
}

/** A shipment's title line: «Envío 2 · 05/12/2026», «Reposición» on a claim's replacement, and its guía. */
function ShipmentTitle({ envio }: { envio: OrderShipmentDto }) {
  return (
    <Stack gap={2} style={{ minWidth: 0, flex: '1 1 14rem' }}>
      <Group gap={6} wrap="wrap">
        <IconTruckDelivery size={16} aria-hidden />
        <Text size="sm" fw={700}>
          Envío {envio.numero} · {formatIsoDate(envio.fecha.slice(0, 10))}
        </Text>
        {envio.reposicion ? (
          <Badge color="grape" variant="light" size="sm" radius="sm" data-testid="envio-reposicion">
            Reposición
          </Badge>
        ) : null}
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
  );
}

/**
 * «Envíos»: each shipment with its date, carrier and guía, its lines, its remisión and its receipt; nothing
 * before the first.
 */
export function OrderShipments({
  id,
  envios,
  lineas,
  remisionHref,
  photoHref,
  receiptAction,
}: {
  id: number;
  envios: OrderShipmentDto[] | undefined;
  lineas: OrderLineDto[];
  /** The remisión's address for the viewer's role; without it no link is shown. */
  remisionHref?: (numero: number) => string;
  /** A receipt's photo for the viewer's role; without it no photo is shown. */
  photoHref?: PhotoHref;
  /** The buyer's «Confirmar recepción» of a shipment not received yet (null: none). */
  receiptAction?: (envio: OrderShipmentDto) => ReactNode;
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
              <ShipmentTitle envio={envio} />
              <Group gap="xs" wrap="wrap">
                {envio.recepcion ? null : receiptAction?.(envio)}
                {remisionHref ? (
                  <RemisionLink id={id} numero={envio.numero} href={remisionHref(envio.numero)} />
                ) : null}
              </Group>
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
            <ShipmentReceipt envio={envio} names={names} photoHref={photoHref} />
          </Paper>
        ))}
      </Stack>
    </Paper>
  );
}
