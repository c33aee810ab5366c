/**
 * What a receiver (users.receptor, decision 0130) reaches: the orders sent to the addresses it is limited to
 * (`receiver_addresses`), or, when it is limited to none, every order of its client. The client itself is
 * the caller's condition (orders.id_cliente), as for every other reader of the client's orders.
 */
import { type Placeholder, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { orders, receiverAddresses } from './schema/index.ts';

/** The address book entry an order was sent to (its copy's `id_direccion`), as the receivers' index reads it. */
export const orderAddressId = sql<number | null>`((${orders.entrega} ->> 'id_direccion')::int)`;

/**
 * The order is within the receiver's addresses (no addresses named: any). `address` is where the address id
 * is read: the order's copy, or a shipment's (`order_shipments.id_direccion`, decision 0139).
 */
export function receiverReach(
  userId: number | Placeholder,
  address: SQL | AnyPgColumn = orderAddressId,
): SQL {
  const mine = sql`select ${receiverAddresses.addressId} from ${receiverAddresses} where ${receiverAddresses.userId} = ${userId}`;
  return sql`(not exists (${mine}) or ${address} in (${mine}))`;
}
