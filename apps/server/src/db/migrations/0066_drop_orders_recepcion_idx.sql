-- The receivers' orders by address (decision 0130) had an index of their own; since decision 0139 the list
-- reads the shipments' `order_shipments_por_recibir_idx`, and the receiver's other reads are of one order by
-- its id. No plan used it (finding 50), and every fulfilment move of a shipped order wrote into it.
DROP INDEX IF EXISTS "orders_recepcion_idx";
