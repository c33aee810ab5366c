import '@mantine/core/styles/Timeline.css';
import { Paper, Text, Timeline, Title } from '@mantine/core';
import { actorOnBehalf } from '@portal/shared/domain/delegation';
import { FULFILMENT_LABELS, type FulfilmentState } from '@portal/shared/domain/fulfilment';
import { INVOICE_TYPE_LABELS, type InvoiceType } from '@portal/shared/domain/invoices';
import type { OrderEventDto } from '@portal/shared/schemas/orders';
import {
  IconArrowBackUp,
  IconBan,
  IconCalendarEvent,
  IconCheck,
  IconClock,
  IconCreditCard,
  IconEdit,
  IconFileInvoice,
  IconHourglassHigh,
  IconLockOpen,
  IconPackage,
  IconShoppingCart,
  IconTruckDelivery,
} from '@tabler/icons-react';
import { formatCentavos, formatDateTime, formatIsoDate, plural, titleCase } from '../../lib/format';
import { CLAIM_EVENTS, ClaimEventBody, ClaimEventIcon, claimEventTitle, reasonLabel } from './claim-events';
import { GuiaLink } from './guia-link';

interface Changes {
  /** The client's rule by amount that decided an approval (decision 0049). */
  regla?: 'aprobacion_automatica' | 'segundo_nivel';
  hasta?: number;
  desde?: number;
  /** What the buyer placed in the client's window before the order, added by the rule (decision 0100). */
  previos?: number;
  cantidades?: { nombre: string; antes: number; despues: number }[];
  eliminados?: { nombre: string; cantidad: number }[];
  /** An edit's totals; a line's cancellation sends the new total alone (centavos). */
  total?: { antes: number; despues: number } | number;
  /** A fulfilment move (decision 0058): the carrier's reference, the operator's comment, the receipt note. */
  guia?: string;
  /** The carrier named apart from the guía (the guías file, decision 0094). */
  paqueteria?: string;
  comentario?: string;
  nota?: string;
  /** An escalation (decision 0113): the whole hours the order had waited on its level. */
  horas?: number;
  /** A shipment (decision 0125): its number within the order and its units per line. */
  envio?: number;
  lineas?: unknown;
  /** A line's units cancelled as unavailable: the product, how many, the order's total before and after. */
  producto?: string;
  cantidad?: number;
  total_anterior?: number;
  /** A promised date (YYYY-MM-DD) set by the operator. */
  fecha?: string;
  /** A withdrawal because the buyer's account was closed (SCIM, the HR list). */
  baja?: boolean;
}

/** Events whose from → to are fulfilment states. */
const FULFILMENT_EVENTS = new Set(['surtido', 'envio', 'linea_cancelada']);
const fulfilmentLabel = (s: string | null) => FULFILMENT_LABELS[s as FulfilmentState] ?? s ?? '';

function icon(tipo: string, to: string | null) {
  if (tipo === 'creado') return <IconShoppingCart size={14} />;
  if (tipo === 'editado') return <IconEdit size={14} />;
  if (tipo === 'cancelado') return <IconBan size={14} />;
  if (tipo === 'retirado' || tipo === 'devuelto') return <IconArrowBackUp size={14} />;
  if (tipo === 'escalado') return <IconHourglassHigh size={14} />;
  if (tipo === 'surtido')
    return to === 'enviado' ? <IconTruckDelivery size={14} /> : <IconPackage size={14} />;
  if (tipo === 'envio') return <IconTruckDelivery size={14} />;
  if (tipo === 'linea_cancelada') return <IconBan size={14} />;
  if (tipo === 'promesa') return <IconCalendarEvent size={14} />;
  if (CLAIM_EVENTS.has(tipo)) return <ClaimEventIcon tipo={tipo} />;
  if (tipo === 'factura' || tipo === 'factura_aplicada' || tipo === 'factura_cotejo')
    return <IconFileInvoice size={14} />;
  if (tipo === 'retenido_credito' || tipo === 'aviso_credito') return <IconCreditCard size={14} />;
  if (tipo === 'liberado_credito') return <IconLockOpen size={14} />;
  if (to === 'espera') return <IconClock size={14} />;
  return <IconCheck size={14} />;
}

function title(e: OrderEventDto): string {
  // 'Enviado' alone is the shipping state (decision 0098).
  if (e.tipo === 'creado') return 'Enviado a revisión';
  if (e.tipo === 'editado') return 'Pedido modificado';
  if (e.tipo === 'cancelado') return 'Pedido cancelado';
  if (e.tipo === 'retirado')
    return (e.cambios as Changes | null)?.baja === true
      ? 'Pedido retirado: el comprador fue dado de baja'
      : 'Pedido retirado por el comprador';
  if (e.tipo === 'devuelto') return 'Devuelto al primer nivel';
  if (e.tipo === 'escalado') {
    const horas = (e.cambios as Changes | null)?.horas;
    return horas === undefined ? 'Escalado por su espera' : `Escalado tras ${horas} h de espera`;
  }
  if (e.tipo === 'surtido') return `Surtido: ${fulfilmentLabel(e.a)}`;
  if (e.tipo === 'envio' || e.tipo === 'linea_cancelada' || e.tipo === 'promesa') return lineTitle(e);
  if (CLAIM_EVENTS.has(e.tipo)) return claimEventTitle(e);
  if (e.tipo === 'factura' || e.tipo === 'factura_aplicada' || e.tipo === 'factura_cotejo')
    return invoiceTitle(e);
  // Credit at the final approval, and the operator's release (decision 0134); the reason is the event's.
  if (e.tipo === 'retenido_credito') return 'Retenido por crédito';
  if (e.tipo === 'aviso_credito') return 'Aprobado con aviso de crédito';
  if (e.tipo === 'liberado_credito') return 'Liberado de la retención por crédito';
  if (e.a === 'espera') return 'Autorizado, en espera de aprobación final';
  if ((e.cambios as Changes | null)?.regla === 'aprobacion_automatica') return 'Aprobado automáticamente';
  return 'Pedido aprobado';
}

/** A CFDI registered for the order, or one registered for another order applied to its invoice (decision 0131). */
function invoiceTitle(e: OrderEventDto): string {
  const c = (e.cambios ?? {}) as {
    tipo?: InvoiceType;
    serie?: string | null;
    folio?: string | null;
    uuid?: string;
    cotejo?: string;
    motivo?: string;
  };
  const name = [c.serie, c.folio].filter(Boolean).join('-') || c.uuid || '';
  const label = INVOICE_TYPE_LABELS[c.tipo ?? 'I'];
  // The operator accepted the match's differences (decision 0133).
  if (e.tipo === 'factura_cotejo') return `Diferencia de la factura ${name} aceptada: ${c.motivo ?? ''}`;
  if (e.tipo === 'factura' && c.cotejo === 'con_diferencias')
    return `CFDI registrado: ${label} ${name}, con diferencias`;
  return e.tipo === 'factura'
    ? `CFDI registrado: ${label} ${name}`
    : `${label} ${name} aplicada a una factura de este pedido`;
}

/** Shipments, cancelled units and promised dates (decision 0125). */
function lineTitle(e: OrderEventDto): string {
  const changes = (e.cambios ?? {}) as Changes;
  if (e.tipo === 'envio') return changes.envio ? `Envío ${changes.envio} registrado` : 'Envío registrado';
  if (e.tipo === 'promesa')
    return changes.fecha
      ? `Fecha prometida cambiada al ${formatIsoDate(changes.fecha)}`
      : 'Fecha prometida cambiada';
  const n = changes.cantidad ?? 0;
  const producto = changes.producto ? `«${changes.producto}»` : 'un producto';
  return `${n === 1 ? 'Se canceló' : 'Se cancelaron'} ${n} de ${producto} por falta de existencia`;
}

/** Units in a shipment's event. */
function shippedUnits(lineas: unknown): number {
  if (!Array.isArray(lineas)) return 0;
  return lineas.reduce((sum: number, l) => sum + (typeof l?.cantidad === 'number' ? l.cantidad : 0), 0);
}

/** The rule by amount that decided an approval, in words. */
function ruleText(changes: Changes): string | null {
  const added = changes.previos
    ? ` Se sumaron ${formatCentavos(changes.previos)} de pedidos anteriores del comprador.`
    : '';
  if (changes.regla === 'aprobacion_automatica' && changes.hasta !== undefined)
    return `Regla del cliente: pedidos hasta ${formatCentavos(changes.hasta)} se aprueban solos.${added}`;
  if (changes.regla === 'segundo_nivel' && changes.desde !== undefined)
    return `Regla del cliente: un total menor a ${formatCentavos(changes.desde)} no requiere Super Autorizador.${added}`;
  return null;
}

/** The order's history: who (and for whom), when, from → to, and what changed. */
export function OrderEvents({ eventos }: { eventos: OrderEventDto[] }) {
  return (
    <Timeline bulletSize={24} lineWidth={2} active={eventos.length - 1}>
      {eventos.map((e) => {
        const changes = (e.cambios ?? {}) as Changes;
        // A delegate's step names the person they acted for (decision 0053).
        const actor = actorOnBehalf(e.actor, e.en_nombre_de);
        return (
          <Timeline.Item key={e.id} bullet={icon(e.tipo, e.a)} title={title(e)}>
            <Text size="xs" c="dimmed">
              {formatDateTime(e.fecha)}
              {actor ? ` · ${actor}` : ''}
              {e.de && e.a && e.de !== e.a
                ? FULFILMENT_EVENTS.has(e.tipo)
                  ? ` · ${fulfilmentLabel(e.de)} → ${fulfilmentLabel(e.a)}`
                  : ` · ${titleCase(e.de)} → ${titleCase(e.a)}`
                : ''}
            </Text>
            {e.tipo === 'editado' ? (
              <>
                {changes.cantidades?.map((c) => (
                  <Text size="sm" key={`q-${c.nombre}`}>
                    {c.nombre}: {c.antes} → {c.despues}
                  </Text>
                ))}
                {changes.eliminados?.map((c) => (
                  <Text size="sm" key={`r-${c.nombre}`}>
                    {c.nombre}: eliminado ({c.cantidad})
                  </Text>
                ))}
                {typeof changes.total === 'object' ? (
                  <Text size="sm" c="dimmed">
                    Total: {formatCentavos(changes.total.antes)} → {formatCentavos(changes.total.despues)}
                  </Text>
                ) : null}
              </>
            ) : null}
            {e.tipo === 'aprobado' && ruleText(changes) ? (
              <Text size="sm" c="dimmed">
                {ruleText(changes)}
              </Text>
            ) : null}
            {e.tipo === 'surtido' ? (
              <>
                {changes.guia ? (
                  <Text size="sm">
                    Guía: <GuiaLink guia={changes.guia} paqueteria={changes.paqueteria} />
                  </Text>
                ) : null}
                {changes.comentario ? <Text size="sm">{changes.comentario}</Text> : null}
                {changes.nota ? (
                  <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
                    Nota de recepción: {changes.nota}
                  </Text>
                ) : null}
              </>
            ) : null}
            {e.tipo === 'envio' ? (
              <>
                {shippedUnits(changes.lineas) > 0 ? (
                  <Text size="sm">{plural(shippedUnits(changes.lineas), 'unidad', 'unidades')}</Text>
                ) : null}
                {changes.guia ? (
                  <Text size="sm">
                    Guía: <GuiaLink guia={changes.guia} paqueteria={changes.paqueteria} />
                  </Text>
                ) : null}
              </>
            ) : null}
            {e.tipo === 'linea_cancelada' &&
            typeof changes.total === 'number' &&
            changes.total_anterior !== undefined ? (
              <Text size="sm" c="dimmed">
                Total: {formatCentavos(changes.total_anterior)} → {formatCentavos(changes.total)}
              </Text>
            ) : null}
            {CLAIM_EVENTS.has(e.tipo) ? <ClaimEventBody event={e} /> : null}
            {e.motivo ? (
              <Text size="sm" mt={4} style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                {reasonLabel(e.tipo)}: {e.motivo}
              </Text>
            ) : null}
          </Timeline.Item>
        );
      })}
    </Timeline>
  );
}

/** "Historial del pedido": the order's timeline in its own panel, or a line saying there is none yet. */
export function OrderHistoryPanel({ eventos }: { eventos: OrderEventDto[] }) {
  return (
    <Paper withBorder radius="md" p="md" shadow="xs" component="section" aria-labelledby="historial-pedido">
      <Title order={2} fz="md" mb="md" id="historial-pedido">
        Historial del pedido
      </Title>
      {eventos.length > 0 ? (
        <OrderEvents eventos={eventos} />
      ) : (
        <Text size="sm" c="dimmed">
          Sin movimientos registrados.
        </Text>
      )}
    </Paper>
  );
}
