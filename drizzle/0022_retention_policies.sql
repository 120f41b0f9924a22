CREATE TABLE "retention_policies" (
	"event_id" integer PRIMARY KEY NOT NULL,
	"categories" text[] NOT NULL,
	"days_after_end" integer NOT NULL,
	"applied_at" timestamp(6) with time zone,
	"created_at" timestamp(6) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp(6) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "retention_days_range" CHECK ("retention_policies"."days_after_end" BETWEEN 0 AND 3650)
);
--> statement-breakpoint
ALTER TABLE "retention_policies" ADD CONSTRAINT "retention_policies_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;