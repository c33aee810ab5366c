-- The receivers' search by guía (decision 0139, docs/benchmarks.md finding 66): the folded guía's trigrams of the
-- shipments still to receive. A search with a trigram reads the shipments it matches; before, it folded the guía
-- of every shipment of the client still to receive (12 ms a page on xlarge, finding 65).
CREATE INDEX "order_shipments_guia_trgm_idx" ON "order_shipments" USING gin (portal_fold("guia") gin_trgm_ops) WHERE not "order_shipments"."recibido";