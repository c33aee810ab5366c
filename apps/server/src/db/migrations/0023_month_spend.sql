CREATE TABLE "user_month_spend" (
	"id_user" integer NOT NULL,
	"mes" date NOT NULL,
	"id_categoria" integer NOT NULL,
	"importe" bigint NOT NULL,
	"compras" integer NOT NULL,
	CONSTRAINT "user_month_spend_id_user_mes_id_categoria_pk" PRIMARY KEY("id_user","mes","id_categoria")
);

--> statement-breakpoint
-- Filled from the existing orders in the business time zone the sales summary was built for (db/order-totals.ts
-- rebuilds both at start when that zone differs from the configured one, or was never set).
INSERT INTO "user_month_spend" ("id_user", "mes", "id_categoria", "importe", "compras")
SELECT id_user, mes, id_categoria, sum(importe)::bigint, count(*)::int
FROM (
  SELECT o."id_user", (date_trunc('month', o."transaction_date" AT TIME ZONE
      coalesce((SELECT "tz" FROM "sales_state" WHERE "id" = 1), 'UTC')))::date AS mes,
    0 AS id_categoria, o."total" AS importe
  FROM "orders" o WHERE o."status" <> 'cancelado'
  UNION ALL
  SELECT o."id_user", (date_trunc('month', o."transaction_date" AT TIME ZONE
      coalesce((SELECT "tz" FROM "sales_state" WHERE "id" = 1), 'UTC')))::date,
    l."id_categoria",
    sum(l."precio" * l."cantidad")::bigint
      + (sum(CASE WHEN l."impuesto" THEN l."precio" * l."cantidad" ELSE 0 END)::bigint * 16 + 50) / 100
  FROM "order_lines" l INNER JOIN "orders" o ON o."id" = l."order_id"
  WHERE o."status" <> 'cancelado'
  GROUP BY o."id", o."id_user", 2, l."id_categoria"
) c
GROUP BY 1, 2, 3;
