-- What a product search compares with (decision 0077): name and claves folded by portal_fold, one per line,
-- kept by the database on every write.
ALTER TABLE "products" ADD COLUMN "busqueda" text GENERATED ALWAYS AS (portal_fold(nombre) || chr(10) || portal_fold(clave_interna) || chr(10) || portal_fold(clave_cliente)) STORED;
