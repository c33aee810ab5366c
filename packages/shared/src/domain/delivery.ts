/**
 * An order's delivery address, copied from the buyer's profile by the purchase's own statement
 * (`orders.entrega`, docs/domain.md "Fulfilment", decision 0094): a part not given is '' or absent.
 */
export interface OrderDelivery {
  direccion_entrega?: string;
  calle?: string;
  colonia?: string;
  ciudad?: string;
  estado?: string;
  cp?: string;
}

/** The parts of a delivery address, in the order a document prints them. */
export const DELIVERY_PARTS = ['direccion_entrega', 'calle', 'colonia', 'ciudad', 'estado', 'cp'] as const;

/**
 * The full delivery address on one line, as the purchase order, the export and the API print it: the
 * free-text address, then street, colonia, city, state and "C.P. 64000", each part once (a part the free
 * text already holds is not repeated), empty parts left out.
 */
export function deliveryAddress(entrega: OrderDelivery): string {
  const free = entrega.direccion_entrega?.trim() ?? '';
  const known = free.toLowerCase();
  const parts = [entrega.calle, entrega.colonia, entrega.ciudad, entrega.estado]
    .map((p) => p?.trim() ?? '')
    .filter((p) => p !== '' && !known.includes(p.toLowerCase()));
  const cp = entrega.cp?.trim() ?? '';
  if (cp !== '' && !known.includes(cp)) parts.push(`C.P. ${cp}`);
  return [free, ...parts].filter(Boolean).join(', ');
}
