CREATE INDEX "approval_reminders_sent_idx" ON "approval_reminders" USING btree ("sent_at");--> statement-breakpoint
CREATE INDEX "auth_attempts_created_idx" ON "auth_attempts" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "budget_alerts_sent_idx" ON "budget_alerts" USING btree ("sent_at");--> statement-breakpoint
CREATE INDEX "email_outbox_sent_idx" ON "email_outbox" USING btree ("sent_at") WHERE "email_outbox"."status" = 'enviado';--> statement-breakpoint
CREATE INDEX "webhook_events_created_idx" ON "webhook_events" USING btree ("created_at");