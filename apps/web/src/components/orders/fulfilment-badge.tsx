import { Alert, Badge, type BadgeProps, Stack, Text } from '@mantine/core';
import { FULFILMENT_COLORS, FULFILMENT_LABELS, type FulfilmentState } from '@portal/shared/domain/fulfilment';
import { IconTruckDelivery } from '@tabler/icons-react';
import { GuiaLink } from './guia-link';

/** The fulfilment state of an approved order, the second badge beside its status (decision 0058). */
export function FulfilmentBadge({
  surtido,
  ...props
}: { surtido: FulfilmentState | null | undefined } & Omit<BadgeProps, 'color' | 'children'>) {
  if (!surtido) return null;
  return (
    <Badge color={FULFILMENT_COLORS[surtido]} variant="outline" radius="sm" miw="max-content" {...props}>
      {FULFILMENT_LABELS[surtido]}
    </Badge>
  );
}

/** The shipment as the order screens show it: the state, the carrier's reference and the buyer's receipt note. */
export function FulfilmentInfo({
  surtido,
  guia,
  paqueteria,
  notaRecepcion,
}: {
  surtido: FulfilmentState | null | undefined;
  guia: string | null | undefined;
  /** The carrier named apart from the guía (the guías file). */
  paqueteria?: string | null;
  notaRecepcion: string | null | undefined;
}) {
  if (!surtido || (surtido !== 'enviado' && surtido !== 'entregado')) return null;
  return (
    <Alert
      color={FULFILMENT_COLORS[surtido]}
      variant="light"
      icon={<IconTruckDelivery size={18} aria-hidden />}
      title={surtido === 'enviado' ? 'Pedido en camino' : 'Pedido entregado'}
      data-testid="surtido-info"
    >
      <Stack gap={2}>
        <Text size="sm">
          {guia ? (
            <>
              Guía de envío: <GuiaLink guia={guia} paqueteria={paqueteria} />
            </>
          ) : (
            'Sin guía de rastreo.'
          )}
        </Text>
        {notaRecepcion ? (
          <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
            Nota de recepción: {notaRecepcion}
          </Text>
        ) : null}
      </Stack>
    </Alert>
  );
}
