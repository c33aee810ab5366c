/**
 * Receipts and claims in the order's history (decision 0127): «Recepción del envío 1 registrada» with the
 * differences and the note, «Reclamo 1 abierto» with its lines and what it asks for, «Reclamo 1 aceptado»
 * with what was granted (the credit's amount, the replacement shipment), «Reclamo 1 rechazado», «Reclamo 1:
 * devolución solicitada» with the return guía.
 */
import { Text } from '@mantine/core';
import {
  CLAIM_REASON_LABELS,
  CLAIM_RESOLUTION_LABELS,
  type ClaimReason,
  type ClaimResolution,
} from '@portal/shared/domain/claims';
import type { OrderEventDto } from '@portal/shared/schemas/orders';
import {
  IconArrowBackUp,
  IconBan,
  IconCheck,
  IconMessageReport,
  IconPackageImport,
} from '@tabler/icons-react';
import { formatCentavos } from '../../lib/format';
import { GuiaLink } from './guia-link';

export const CLAIM_EVENTS = new Set([
  'recepcion',
  'reclamo',
  'reclamo_aceptado',
  'reclamo_rechazado',
  'reclamo_devolucion',
]);

interface ClaimChanges {
  envio?: number;
  /** The receipt of a claim's replacement shipment. */
  reposicion?: boolean;
  reclamo?: number;
  resolucion?: ClaimResolution;
  /** Centavos given back by an accepted credit. */
  credito?: number;
  guia?: string;
  paqueteria?: string;
  nota?: string;
  /** A receipt's differences, a claim's lines. */
  lineas?: { producto?: string; cantidad?: number; motivo?: ClaimReason }[];
}

const changesOf = (e: OrderEventDto) => (e.cambios ?? {}) as ClaimChanges;

export function ClaimEventIcon({ tipo }: { tipo: string }) {
  if (tipo === 'recepcion') return <IconPackageImport size={14} />;
  if (tipo === 'reclamo_aceptado') return <IconCheck size={14} />;
  if (tipo === 'reclamo_rechazado') return <IconBan size={14} />;
  if (tipo === 'reclamo_devolucion') return <IconArrowBackUp size={14} />;
  return <IconMessageReport size={14} />;
}

const CLAIM_STEP: Record<string, string> = {
  reclamo: 'abierto',
  reclamo_aceptado: 'aceptado',
  reclamo_rechazado: 'rechazado',
  reclamo_devolucion: 'devolución solicitada',
};

/** «Recepción registrada», «Reclamo abierto», «Reclamo aceptado»… (with the shipment's or claim's number). */
export function claimEventTitle(e: OrderEventDto): string {
  const c = changesOf(e);
  if (e.tipo === 'recepcion') {
    const which = c.envio ? ` del envío ${c.envio}` : '';
    return `Recepción${which} registrada${c.reposicion ? ' (reposición)' : ''}`;
  }
  const step = CLAIM_STEP[e.tipo] ?? 'actualizado';
  if (!c.reclamo) return e.tipo === 'reclamo_devolucion' ? 'Devolución solicitada' : `Reclamo ${step}`;
  return e.tipo === 'reclamo_devolucion'
    ? `Reclamo ${c.reclamo}: devolución solicitada`
    : `Reclamo ${c.reclamo} ${step}`;
}

/** The event's free text: the refusal's reason, the others' note. */
export function reasonLabel(tipo: string): string {
  return tipo === 'reclamo' || tipo === 'reclamo_aceptado' || tipo === 'reclamo_devolucion'
    ? 'Nota'
    : 'Motivo';
}

/** What an accepted claim granted: «Crédito de $580.00 MXN», «Reposición en el envío 2». */
function granted(c: ClaimChanges): string | null {
  if (c.resolucion === 'credito')
    return c.credito ? `Crédito de ${formatCentavos(c.credito)}` : CLAIM_RESOLUTION_LABELS.credito;
  if (c.resolucion === 'reposicion')
    return c.envio ? `Reposición en el envío ${c.envio}` : CLAIM_RESOLUTION_LABELS.reposicion;
  return null;
}

export function ClaimEventBody({ event: e }: { event: OrderEventDto }) {
  const c = changesOf(e);
  const lineas = Array.isArray(c.lineas) ? c.lineas : [];
  return (
    <>
      {lineas.map((l, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the event's lines never move
        <Text size="sm" key={i} c={e.tipo === 'recepcion' ? 'red.8' : undefined}>
          {l.cantidad ?? 0} × {l.producto ?? 'producto'}
          {l.motivo ? ` — ${CLAIM_REASON_LABELS[l.motivo] ?? l.motivo}` : ''}
        </Text>
      ))}
      {e.tipo === 'recepcion' && lineas.length === 0 ? (
        <Text size="sm">Completo y en buen estado</Text>
      ) : null}
      {e.tipo === 'reclamo' && c.resolucion ? (
        <Text size="sm">Solicita: {CLAIM_RESOLUTION_LABELS[c.resolucion] ?? c.resolucion}</Text>
      ) : null}
      {e.tipo === 'reclamo_aceptado' && granted(c) ? <Text size="sm">Se otorgó: {granted(c)}</Text> : null}
      {e.tipo === 'reclamo_devolucion' && c.guia ? (
        <Text size="sm">
          Guía de devolución: <GuiaLink guia={c.guia} paqueteria={c.paqueteria} />
        </Text>
      ) : null}
      {e.tipo === 'recepcion' && c.nota ? (
        <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
          Nota: {c.nota}
        </Text>
      ) : null}
    </>
  );
}
