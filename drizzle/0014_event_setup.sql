CREATE TABLE "event_consent_documents" (
	"id" serial PRIMARY KEY NOT NULL,
	"event_id" integer NOT NULL,
	"consent_type" text NOT NULL,
	"version" integer NOT NULL,
	"title" text NOT NULL,
	"body" text NOT NULL,
	"created_at" timestamp(6) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp(6) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "media_files" (
	"id" serial PRIMARY KEY NOT NULL,
	"sha256" text NOT NULL,
	"content_type" text NOT NULL,
	"size" integer NOT NULL,
	"data" "bytea" NOT NULL,
	"event_id" integer NOT NULL,
	"created_at" timestamp(6) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "consents" ADD COLUMN "document_id" integer;--> statement-breakpoint
ALTER TABLE "event_consent_documents" ADD CONSTRAINT "event_consent_documents_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "media_files" ADD CONSTRAINT "media_files_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "event_consent_documents_version" ON "event_consent_documents" USING btree ("event_id","consent_type","version");--> statement-breakpoint
CREATE UNIQUE INDEX "media_files_event_sha256" ON "media_files" USING btree ("event_id","sha256");--> statement-breakpoint
CREATE INDEX "media_files_sha256_index" ON "media_files" USING btree ("sha256");--> statement-breakpoint
ALTER TABLE "consents" ADD CONSTRAINT "consents_document_id_event_consent_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."event_consent_documents"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "consents_document_id_index" ON "consents" USING btree ("document_id");