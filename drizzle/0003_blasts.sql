ALTER TABLE "chat_blast_recipients" ADD COLUMN "claimed_at" timestamp(6) with time zone;--> statement-breakpoint
ALTER TABLE "chat_blast_recipients" ADD COLUMN "available_at" timestamp(6) with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "chat_blast_recipients" ADD COLUMN "message_ts" text;--> statement-breakpoint
CREATE INDEX "chat_blast_recipients_pending" ON "chat_blast_recipients" USING btree ("blast_id","available_at") WHERE status = 'pending';