CREATE INDEX "announcement_recipients_registration_id_index" ON "announcement_recipients" USING btree ("registration_id");--> statement-breakpoint
CREATE INDEX "email_reminders_registration_id_index" ON "email_reminders" USING btree ("registration_id");--> statement-breakpoint
CREATE INDEX "email_reminders_guardian_id_index" ON "email_reminders" USING btree ("guardian_id");--> statement-breakpoint
CREATE INDEX "email_reminders_email_log_id_index" ON "email_reminders" USING btree ("email_log_id");