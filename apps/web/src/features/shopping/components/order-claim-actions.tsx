/**
 * The buyer's receipts and claims on their order (decision 0127): «Confirmar recepción» on each shipment not
 * received yet and «Abrir reclamo» while some line has units to claim. Their dialogs are loaded when opened.
 */
import { Button } from '@mantine/core';
import type { OrderDetailDto, OrderShipmentDto } from '@portal/shared/schemas/orders';
import { IconMessageReport, IconPackageImport } from '@tabler/icons-react';
import { lazy, Suspense, useState } from 'react';
import { canReceiveShipment, claimableLines, receiptLines } from '../lib/claims';

const ReceiptDialog = lazy(() => import('./receipt-dialog'));
const ClaimDialog = lazy(() => import('./claim-dialog'));

type Open = { kind: 'recepcion'; envio: OrderShipmentDto } | { kind: 'reclamo' } | null;

export function useClaimActions(pedido: OrderDetailDto | undefined) {
  const [open, setOpen] = useState<Open>(null);
  const close = () => setOpen(null);

  const receiptAction = (envio: OrderShipmentDto) =>
    pedido && canReceiveShipment(pedido, envio) ? (
      <Button
        size="xs"
        color="teal"
        leftSection={<IconPackageImport size={14} aria-hidden />}
        onClick={() => setOpen({ kind: 'recepcion', envio })}
        aria-label={`Confirmar recepción del envío ${envio.numero}`}
        data-testid="confirmar-recepcion"
      >
        Confirmar recepción
      </Button>
    ) : null;

  const claimButton =
    pedido && claimableLines(pedido).length > 0 ? (
      <Button
        variant="light"
        color="orange"
        leftSection={<IconMessageReport size={16} aria-hidden />}
        onClick={() => setOpen({ kind: 'reclamo' })}
        data-testid="abrir-reclamo"
      >
        Abrir reclamo
      </Button>
    ) : null;

  const dialogs =
    !pedido || !open ? null : (
      <Suspense fallback={null}>
        {open.kind === 'recepcion' ? (
          <ReceiptDialog
            idPedido={pedido.id}
            envio={open.envio}
            lines={receiptLines(open.envio, pedido.lineas)}
            onClose={close}
          />
        ) : (
          <ClaimDialog pedido={pedido} onClose={close} />
        )}
      </Suspense>
    );

  return { receiptAction, claimButton, dialogs };
}
