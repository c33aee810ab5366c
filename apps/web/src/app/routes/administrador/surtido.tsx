import { FulfilmentPage } from '../../../features/admin/fulfilment/fulfilment-page';

/** 'Surtido': the approved orders of every client to fulfil (decision 0058). */
export function Surtido() {
  return <FulfilmentPage />;
}
