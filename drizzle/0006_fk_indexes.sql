CREATE INDEX "push_tokens_user_id_index" ON "push_tokens" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "chat_blast_recipients_registration_id_index" ON "chat_blast_recipients" USING btree ("registration_id");--> statement-breakpoint
CREATE INDEX "emergency_contacts_guardian_id_index" ON "emergency_contacts" USING btree ("guardian_id");--> statement-breakpoint
CREATE INDEX "invitations_registration_id_index" ON "invitations" USING btree ("registration_id");