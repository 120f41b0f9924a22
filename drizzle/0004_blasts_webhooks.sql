CREATE TABLE "email_suppressions" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"reason" text NOT NULL,
	"email_log_id" bigint,
	"created_at" timestamp(6) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "helpdesk_conversations" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"conversation_id" text NOT NULL,
	"customer_email" text,
	"user_id" integer,
	"subject" text,
	"status" text,
	"created_at" timestamp(6) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp(6) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "helpdesk_conversations_conversation_id_unique" UNIQUE("conversation_id")
);
--> statement-breakpoint
CREATE TABLE "webhook_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"provider" text NOT NULL,
	"event_id" text NOT NULL,
	"event_type" text NOT NULL,
	"payload" jsonb NOT NULL,
	"outcome" text,
	"created_at" timestamp(6) with time zone DEFAULT now() NOT NULL,
	"processed_at" timestamp(6) with time zone
);
--> statement-breakpoint
ALTER TABLE "chat_blast_recipients" ADD COLUMN "claimed_at" timestamp(6) with time zone;--> statement-breakpoint
ALTER TABLE "chat_blast_recipients" ADD COLUMN "available_at" timestamp(6) with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "chat_blast_recipients" ADD COLUMN "message_ts" text;--> statement-breakpoint
ALTER TABLE "email_log" ADD COLUMN "delivered_at" timestamp(6) with time zone;--> statement-breakpoint
ALTER TABLE "email_log" ADD COLUMN "opened_at" timestamp(6) with time zone;--> statement-breakpoint
ALTER TABLE "email_log" ADD COLUMN "bounced_at" timestamp(6) with time zone;--> statement-breakpoint
ALTER TABLE "helpdesk_conversations" ADD CONSTRAINT "helpdesk_conversations_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "email_suppressions_email_key" ON "email_suppressions" USING btree (lower("email"));--> statement-breakpoint
CREATE INDEX "helpdesk_conversations_user_id_index" ON "helpdesk_conversations" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "webhook_events_provider_event" ON "webhook_events" USING btree ("provider","event_id");--> statement-breakpoint
CREATE INDEX "chat_blast_recipients_pending" ON "chat_blast_recipients" USING btree ("blast_id","available_at") WHERE status = 'pending';