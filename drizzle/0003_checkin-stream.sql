CREATE TABLE "scan_feed" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"event_id" integer NOT NULL,
	"kind" text NOT NULL,
	"scan_id" bigint NOT NULL,
	"scan_context_id" integer NOT NULL,
	"payload" json NOT NULL,
	"created_at" timestamp(6) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "scan_feed" ADD CONSTRAINT "scan_feed_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "scan_feed_event_created" ON "scan_feed" USING btree ("event_id","created_at","id");