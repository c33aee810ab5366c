CREATE TABLE "delegations" (
	"delegator_id" integer PRIMARY KEY NOT NULL,
	"delegate_id" integer NOT NULL,
	"desde" date NOT NULL,
	"hasta" date NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "delegations_not_self" CHECK ("delegations"."delegator_id" <> "delegations"."delegate_id"),
	CONSTRAINT "delegations_window" CHECK ("delegations"."desde" <= "delegations"."hasta")
);
--> statement-breakpoint
ALTER TABLE "order_events" ADD COLUMN "on_behalf_of_id" integer;--> statement-breakpoint
ALTER TABLE "delegations" ADD CONSTRAINT "delegations_delegator_id_users_id_fk" FOREIGN KEY ("delegator_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "delegations" ADD CONSTRAINT "delegations_delegate_id_users_id_fk" FOREIGN KEY ("delegate_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "delegations" ADD CONSTRAINT "delegations_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "delegations_delegate_idx" ON "delegations" USING btree ("delegate_id","hasta");--> statement-breakpoint
ALTER TABLE "order_events" ADD CONSTRAINT "order_events_on_behalf_of_id_users_id_fk" FOREIGN KEY ("on_behalf_of_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;