CREATE TABLE "approval_reminders" (
	"user_id" integer NOT NULL,
	"fecha" date NOT NULL,
	"pedidos" integer NOT NULL,
	"sent_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "approval_reminders_user_id_fecha_pk" PRIMARY KEY("user_id","fecha")
);
--> statement-breakpoint
ALTER TABLE "clients" ADD COLUMN "recordatorio_horas" integer DEFAULT 24 NOT NULL;--> statement-breakpoint
ALTER TABLE "approval_reminders" ADD CONSTRAINT "approval_reminders_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "clients" ADD CONSTRAINT "clients_recordatorio_horas_range" CHECK ("clients"."recordatorio_horas" between 0 and 720);