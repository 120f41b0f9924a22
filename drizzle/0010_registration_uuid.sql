-- registration_uuid (contract §10): every registration, existing ones included, gets its own random
-- public UUID (the volatile default is evaluated per row); the tickets' QR payload.
ALTER TABLE "registrations" ADD COLUMN "uuid" uuid DEFAULT gen_random_uuid() NOT NULL;--> statement-breakpoint
ALTER TABLE "registrations" ADD CONSTRAINT "registrations_uuid_unique" UNIQUE("uuid");