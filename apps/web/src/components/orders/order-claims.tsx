/**
 * Claims on an order (decision 0127) as every reader sees them — the buyer, the approvers, the operator:
 * «Reclamo N» with its state, what was asked for and what was granted, its lines with their reasons, the
 * buyer's note, the operator's answer, the return guía (a tracking link), the credited amount, the
 * replacement shipment and the photos. What goes beside a claim (the operator's buttons) is the screen's.
 * Presentational: it reads nothing.
 */
import { Badge, type BadgeProps, Group, Paper, Stack, Text, Title } from '@mantine/core';
import {
  CLAIM_REASON_LABELS,
  CLAIM_RESOLUTION_LABELS,
  CLAIM_STATE_COLORS,
  CLAIM_STATE_LABELS,
  type ClaimState,
} from '@portal/shared/domain/claims';
import type { ClaimDto } from '@portal/shared/schemas/claims';
import { IconMessageReport } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { formatDateTime, formatIsoDate, formatMXN } from '../../lib/format';
import { GuiaLink } from './guia-link';
import { OrderPhotos, type PhotoHref } from './order-photos';

/** A business date (YYYY-MM-DD) or an instant, as people read it. */
export function formatWhen(value: string): string {
  return /^\d{4}-\d{2}-\d{2}$/.test(value) ? formatIsoDate(value) : formatDateTime(value);
}

export function ClaimStateBadge({
  estado,
  ...props
}: { estado: ClaimState } & Omit<BadgeProps, 'color' | 'children'>) {
  return (
    <Badge
      color={CLAIM_STATE_COLORS[estado]}
      variant="light"
      radius="sm"
      miw="max-content"
      data-testid="reclamo-estado"
      {...props}
    >
      {CLAIM_STATE_LABELS[estado]}
    </Badge>
  );
}

/** One labelled fact of a claim: «Solicita: Crédito». */
function Fact({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) {
  return (
    <Text size="sm" style={{ overflowWrap: 'anywhere', whiteSpace: 'pre-wrap' }} data-testid={testId}>
      <Text span inherit c="dimmed">
        {label}:
      </Text>{' '}
      {children}
    </Text>
  );
}

/** What the operator answered, in the words of its outcome. */
function answerLabel(estado: ClaimState): string {
  if (estado === 'rechazado') return 'Motivo del rechazo';
  if (estado === 'devolucion') return 'Indicaciones de devolución';
  return 'Respuesta';
}

/** The body of one claim: its facts, lines and photos (the order view's and the operator's list's). */
export function ClaimDetails({ reclamo: r, photoHref }: { reclamo: ClaimDto; photoHref?: PhotoHref }) {
  return (
    <Stack gap={4}>
      <Text size="xs" c="dimmed">
        Abierto el {formatWhen(r.creado)} por {r.autor}
        {r.envio ? ` · en la recepción del envío ${r.envio}` : ''}
      </Text>
      <Stack component="ul" gap={0} my={2} pl="md" aria-label={`Productos del reclamo ${r.numero}`}>
        {r.lineas.map((l) => (
          <Text component="li" size="sm" key={l.id_linea} data-testid="reclamo-linea">
            {l.cantidad} × {l.nombre} — {CLAIM_REASON_LABELS[l.motivo]}
          </Text>
        ))}
      </Stack>
      <Fact label="Solicita">{CLAIM_RESOLUTION_LABELS[r.resolucion_solicitada]}</Fact>
      {r.resolucion ? (
        <Fact label="Se otorgó" testId="reclamo-resolucion">
          {CLAIM_RESOLUTION_LABELS[r.resolucion]}
        </Fact>
      ) : null}
      {r.credito > 0 ? (
        <Fact label="Crédito" testId="reclamo-credito">
          {formatMXN(r.credito)}
        </Fact>
      ) : null}
      {r.envio_reposicion ? (
        <Fact label="Reposición" testId="reclamo-reposicion">
          envío {r.envio_reposicion}
        </Fact>
      ) : null}
      {r.nota ? <Fact label="Nota">{r.nota}</Fact> : null}
      {r.guia_devolucion ? (
        <Fact label="Guía de devolución" testId="reclamo-guia">
          <GuiaLink guia={r.guia_devolucion} paqueteria={r.paqueteria_devolucion} />
        </Fact>
      ) : null}
      {r.respuesta ? (
        <Fact label={answerLabel(r.estado)} testId="reclamo-respuesta">
          {r.respuesta}
        </Fact>
      ) : null}
      <OrderPhotos fotos={r.fotos} href={photoHref} label={`Fotos del reclamo ${r.numero}`} />
    </Stack>
  );
}

/** «Reclamo 2» and its state badge, with what goes at the right. */
export function ClaimTitle({ reclamo, aside }: { reclamo: ClaimDto; aside?: ReactNode }) {
  return (
    <Group justify="space-between" align="flex-start" gap="xs" wrap="wrap">
      <Group gap="xs" wrap="wrap">
        <Text fw={700} size="sm">
          Reclamo {reclamo.numero}
        </Text>
        <ClaimStateBadge estado={reclamo.estado} />
      </Group>
      {aside}
    </Group>
  );
}

/** «Reclamos»: the order's claims in number order; nothing before the first. */
export function OrderClaims({
  reclamos,
  photoHref,
  claimActions,
}: {
  reclamos: ClaimDto[] | undefined;
  photoHref?: PhotoHref;
  /** The operator's buttons for one claim. */
  claimActions?: (reclamo: ClaimDto) => ReactNode;
}) {
  if (!reclamos || reclamos.length === 0) return null;
  return (
    <Paper withBorder radius="md" p="md" shadow="xs" component="section" aria-labelledby="reclamos-pedido">
      <Group gap={6} mb="sm">
        <IconMessageReport size={18} aria-hidden />
        <Title order={2} fz="md" id="reclamos-pedido">
          Reclamos
        </Title>
      </Group>
      <Stack gap="sm">
        {reclamos.map((r) => (
          <Paper
            key={r.id}
            withBorder
            radius="sm"
            p="sm"
            bg="gray.0"
            data-testid="reclamo"
            aria-label={`Reclamo ${r.numero}`}
            role="article"
          >
            <Stack gap={6}>
              <ClaimTitle reclamo={r} aside={claimActions?.(r)} />
              <ClaimDetails reclamo={r} photoHref={photoHref} />
            </Stack>
          </Paper>
        ))}
      </Stack>
    </Paper>
  );
}
