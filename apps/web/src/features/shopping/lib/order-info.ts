/** What the buyer's cart and order detail say in words: the delivery address and whom an order waits for. */
import type { BuyerOrderResponse, DeliveryAddress } from '@portal/shared/schemas/shopping';
import { formatDateTime } from '../../../lib/format';

/** The address's lines that are not empty: the delivery point, the street, then "colonia, ciudad, C.P. cp". */
export function addressLines(d: DeliveryAddress): string[] {
  const place = [d.colonia.trim(), d.ciudad.trim(), d.cp.trim() ? `C.P. ${d.cp.trim()}` : '']
    .filter(Boolean)
    .join(', ');
  return [d.direccion_entrega.trim(), d.calle.trim(), place].filter(Boolean);
}

/** "En espera del Autorizador (nivel 1) desde el DD/MM/YYYY HH:mm", or null for a final status. */
export function waitingText(enEspera: BuyerOrderResponse['en_espera']): string | null {
  if (!enEspera) return null;
  const who = enEspera.nivel === 1 ? 'Autorizador' : 'Super Autorizador';
  return `En espera del ${who} (nivel ${enEspera.nivel}) desde el ${formatDateTime(enEspera.desde)}`;
}
