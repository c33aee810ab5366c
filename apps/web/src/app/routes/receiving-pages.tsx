/**
 * The receiver's screens (decision 0130), in each area where a receiver can be (rol 1 under /usuario, roles
 * 2–3 under /autorizador): the list and one shipment, whose receipt form is the buyer's own (shopping's
 * dialog, loaded when opened) on the receiver's routes.
 */
import { lazy } from 'react';
import { Navigate, useParams } from 'react-router';
import { ReceivingPage } from '../../features/receiving/components/receiving-page';
import { ShipmentPage } from '../../features/receiving/components/shipment-page';
import { positiveId } from './params';

const ReceiptDialog = lazy(() => import('../../features/shopping/components/receipt-dialog'));

export function ReceivingList({ base }: { base: string }) {
  return <ReceivingPage base={base} />;
}

export function ReceivingShipment({ base }: { base: string }) {
  const params = useParams();
  const id = positiveId(params.id);
  const numero = positiveId(params.numero);
  if (!id || !numero) return <Navigate to={base} replace />;
  return (
    <ShipmentPage
      key={`${id}-${numero}`}
      id={id}
      numero={numero}
      base={base}
      receiptForm={(input) => <ReceiptDialog {...input} routes="/api/recepcion" />}
    />
  );
}
