CREATE TABLE "series" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"slug" text NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"created_at" timestamp(6) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp(6) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "series_slug_unique" UNIQUE("slug")
);
--> statement-breakpoint
CREATE TABLE "series_roles" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"series_id" uuid NOT NULL,
	"role" text NOT NULL,
	"created_at" timestamp(6) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" serial PRIMARY KEY NOT NULL,
	"uuid" uuid DEFAULT gen_random_uuid() NOT NULL,
	"email" text NOT NULL,
	"name" text NOT NULL,
	"global_admin" boolean DEFAULT false NOT NULL,
	"email_bounced_at" timestamp(6) with time zone,
	"helpdesk_customer_id" text,
	"created_at" timestamp(6) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp(6) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "users_uuid_unique" UNIQUE("uuid")
);
--> statement-breakpoint
CREATE TABLE "audit_log" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"action" text NOT NULL,
	"actor_user_id" integer,
	"credential_kind" text,
	"credential_id" text,
	"credential_name" text,
	"event_id" integer,
	"series_id" uuid,
	"target_type" text,
	"target_id" text,
	"metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp(6) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "push_tokens" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"token" text NOT NULL,
	"platform" text NOT NULL,
	"created_at" timestamp(6) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp(6) with time zone DEFAULT now() NOT NULL,
	"last_used_at" timestamp(6) with time zone,
	CONSTRAINT "push_tokens_token_unique" UNIQUE("token")
);
--> statement-breakpoint
CREATE TABLE "scans" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"event_id" integer NOT NULL,
	"registration_id" integer NOT NULL,
	"scan_context_id" integer NOT NULL,
	"scanner_user_id" integer,
	"source" text DEFAULT 'qr' NOT NULL,
	"client_scan_id" text,
	"outcome" text NOT NULL,
	"scanned_at" timestamp(6) with time zone NOT NULL,
	"created_at" timestamp(6) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "event_api_keys" (
	"id" serial PRIMARY KEY NOT NULL,
	"uuid" uuid DEFAULT gen_random_uuid() NOT NULL,
	"event_id" integer NOT NULL,
	"owner_user_id" integer,
	"name" text NOT NULL,
	"token_digest" text NOT NULL,
	"revoked_at" timestamp(6) with time zone,
	"last_used_at" timestamp(6) with time zone,
	"created_at" timestamp(6) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "event_api_keys_uuid_unique" UNIQUE("uuid"),
	CONSTRAINT "event_api_keys_token_digest_unique" UNIQUE("token_digest")
);
--> statement-breakpoint
CREATE TABLE "global_api_tokens" (
	"id" serial PRIMARY KEY NOT NULL,
	"uuid" uuid DEFAULT gen_random_uuid() NOT NULL,
	"user_id" integer NOT NULL,
	"name" text NOT NULL,
	"token_digest" text NOT NULL,
	"scopes" text[] DEFAULT '{}' NOT NULL,
	"expires_at" timestamp(6) with time zone,
	"revoked_at" timestamp(6) with time zone,
	"last_used_at" timestamp(6) with time zone,
	"created_at" timestamp(6) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "global_api_tokens_uuid_unique" UNIQUE("uuid"),
	CONSTRAINT "global_api_tokens_token_digest_unique" UNIQUE("token_digest")
);
--> statement-breakpoint
CREATE TABLE "mobile_tokens" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"token_digest" text NOT NULL,
	"device_name" text,
	"expires_at" timestamp(6) with time zone NOT NULL,
	"revoked_at" timestamp(6) with time zone,
	"replaced_by_id" integer,
	"last_used_at" timestamp(6) with time zone,
	"created_at" timestamp(6) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "mobile_tokens_token_digest_unique" UNIQUE("token_digest")
);
--> statement-breakpoint
CREATE TABLE "series_api_keys" (
	"id" serial PRIMARY KEY NOT NULL,
	"uuid" uuid DEFAULT gen_random_uuid() NOT NULL,
	"series_id" uuid NOT NULL,
	"owner_user_id" integer,
	"name" text NOT NULL,
	"token_digest" text NOT NULL,
	"revoked_at" timestamp(6) with time zone,
	"last_used_at" timestamp(6) with time zone,
	"created_at" timestamp(6) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "series_api_keys_uuid_unique" UNIQUE("uuid"),
	CONSTRAINT "series_api_keys_token_digest_unique" UNIQUE("token_digest")
);
--> statement-breakpoint
CREATE TABLE "event_roles" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"event_id" integer NOT NULL,
	"role" text NOT NULL,
	"created_at" timestamp(6) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "events" (
	"id" serial PRIMARY KEY NOT NULL,
	"uuid" uuid DEFAULT gen_random_uuid() NOT NULL,
	"series_id" uuid NOT NULL,
	"slug" text NOT NULL,
	"name" text NOT NULL,
	"support_email" text,
	"timezone" text DEFAULT 'UTC' NOT NULL,
	"starts_at" timestamp(6) with time zone,
	"ends_at" timestamp(6) with time zone,
	"registration_open_at" timestamp(6) with time zone,
	"registration_close_at" timestamp(6) with time zone,
	"venue_name" text,
	"location_city" text,
	"location_country" text,
	"location_address" text,
	"location_latitude" double precision,
	"location_longitude" double precision,
	"logo_url" text,
	"banner_url" text,
	"setup_complete" boolean DEFAULT false NOT NULL,
	"modules" jsonb NOT NULL,
	"hotel_scan_context_id" uuid,
	"legacy_api_key_digest" text,
	"legacy_api_key_name" text,
	"created_at" timestamp(6) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp(6) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "events_uuid_unique" UNIQUE("uuid"),
	CONSTRAINT "events_slug_unique" UNIQUE("slug"),
	CONSTRAINT "events_legacy_api_key_digest_unique" UNIQUE("legacy_api_key_digest")
);
--> statement-breakpoint
CREATE TABLE "scan_contexts" (
	"id" serial PRIMARY KEY NOT NULL,
	"uuid" uuid DEFAULT gen_random_uuid() NOT NULL,
	"event_id" integer NOT NULL,
	"name" text NOT NULL,
	"checks_in" boolean DEFAULT false NOT NULL,
	"is_travel_pickup" boolean DEFAULT false NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"starts_at" timestamp(6) with time zone,
	"ends_at" timestamp(6) with time zone,
	"created_at" timestamp(6) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp(6) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "scan_contexts_uuid_unique" UNIQUE("uuid")
);
--> statement-breakpoint
CREATE TABLE "ban_emails" (
	"id" serial PRIMARY KEY NOT NULL,
	"ban_id" uuid NOT NULL,
	"email" text NOT NULL,
	CONSTRAINT "ban_emails_email_unique" UNIQUE("email")
);
--> statement-breakpoint
CREATE TABLE "bans" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"reason" text DEFAULT '' NOT NULL,
	"expires_at" timestamp(6) with time zone,
	"revoked_at" timestamp(6) with time zone,
	"created_by_user_id" integer,
	"created_at" timestamp(6) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp(6) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "chat_accounts" (
	"id" serial PRIMARY KEY NOT NULL,
	"chat_user_id" text NOT NULL,
	"email" text,
	"display_name" text,
	"created_at" timestamp(6) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp(6) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "chat_accounts_chat_user_id_unique" UNIQUE("chat_user_id")
);
--> statement-breakpoint
CREATE TABLE "chat_blast_recipients" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"blast_id" integer NOT NULL,
	"registration_id" integer,
	"chat_user_id" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"error" text,
	"sent_at" timestamp(6) with time zone,
	"updated_at" timestamp(6) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "chat_blasts" (
	"id" serial PRIMARY KEY NOT NULL,
	"event_id" integer NOT NULL,
	"message" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"sent_by_user_id" integer,
	"sent_by" text NOT NULL,
	"recipient_count" integer DEFAULT 0 NOT NULL,
	"started_at" timestamp(6) with time zone,
	"completed_at" timestamp(6) with time zone,
	"created_at" timestamp(6) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp(6) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "email_log" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"to_email" text NOT NULL,
	"from_email" text NOT NULL,
	"template" text NOT NULL,
	"subject" text NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"provider_message_id" text,
	"event_id" integer,
	"error" text,
	"created_at" timestamp(6) with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp(6) with time zone,
	"updated_at" timestamp(6) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "registration_accessibility" (
	"registration_id" integer PRIMARY KEY NOT NULL,
	"data" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"updated_at" timestamp(6) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "registration_accommodations" (
	"registration_id" integer PRIMARY KEY NOT NULL,
	"check_in_date" date,
	"check_out_date" date,
	"gender_identity" text,
	"gender_identity_other" text,
	"assigned_room" text,
	"rooming_exempt" boolean DEFAULT false NOT NULL,
	"venue_name" text,
	"preferred_roommate_genders" text,
	"roommate_preferences" text,
	"roommate_exclusions" text,
	"quiet_room_preference" text,
	"room_type_preference" text,
	"accessibility_needs" text,
	"notes" text,
	"updated_at" timestamp(6) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "registration_dietary" (
	"registration_id" integer PRIMARY KEY NOT NULL,
	"diet_type" text,
	"intolerances" text,
	"notes" text,
	"cross_contamination_risk" boolean DEFAULT false NOT NULL,
	"updated_at" timestamp(6) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "registration_medical" (
	"registration_id" integer PRIMARY KEY NOT NULL,
	"allergies" text,
	"medical_conditions" text,
	"medications" text,
	"life_threatening_allergies" text,
	"allergy_severity" text,
	"emergency_action_plan" text,
	"additional_notes" text,
	"has_anaphylaxis_risk" boolean DEFAULT false NOT NULL,
	"requires_refrigeration" boolean DEFAULT false NOT NULL,
	"updated_at" timestamp(6) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "people" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer,
	"email" text NOT NULL,
	"legal_first_name" text NOT NULL,
	"legal_last_name" text NOT NULL,
	"preferred_name" text,
	"pronouns" text,
	"phone" text,
	"date_of_birth" date,
	"headshot_url" text,
	"chat_user_id" text,
	"address" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp(6) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp(6) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "registrations" (
	"id" serial PRIMARY KEY NOT NULL,
	"event_id" integer NOT NULL,
	"person_id" integer NOT NULL,
	"status" text DEFAULT 'invited' NOT NULL,
	"tshirt_size" text,
	"engagement_preference" text,
	"engagement_notes" text,
	"freedom_waiver_granted" boolean DEFAULT false NOT NULL,
	"nfc_badge_token" text,
	"nfc_badge_assigned_at" timestamp(6) with time zone,
	"submitted_at" timestamp(6) with time zone,
	"completed_at" timestamp(6) with time zone,
	"withdrawn_at" timestamp(6) with time zone,
	"created_at" timestamp(6) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp(6) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "registration_safeguarding" (
	"registration_id" integer PRIMARY KEY NOT NULL,
	"high_support_notes" text,
	"authorized_pickup_adults" text,
	"other_instructions" text,
	"curfew_acknowledged" boolean DEFAULT false NOT NULL,
	"overnight_rules_acknowledged" boolean DEFAULT false NOT NULL,
	"high_support_flag" boolean DEFAULT false NOT NULL,
	"can_leave_unaccompanied" boolean DEFAULT false NOT NULL,
	"updated_at" timestamp(6) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "consents" (
	"id" serial PRIMARY KEY NOT NULL,
	"registration_id" integer NOT NULL,
	"consent_type" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"pending_on" text,
	"sent_at" timestamp(6) with time zone,
	"viewed_at" timestamp(6) with time zone,
	"participant_signed_at" timestamp(6) with time zone,
	"guardian_signed_at" timestamp(6) with time zone,
	"signed_at" timestamp(6) with time zone,
	"document_url" text,
	"failure_reason" text,
	"signature_name" text,
	"signature_ip" text,
	"esign_submission_id" text,
	"created_at" timestamp(6) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp(6) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "emergency_contacts" (
	"id" serial PRIMARY KEY NOT NULL,
	"registration_id" integer NOT NULL,
	"guardian_id" integer,
	"name" text NOT NULL,
	"phone" text NOT NULL,
	"email" text,
	"relationship" text NOT NULL,
	"priority" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp(6) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "guardians" (
	"id" serial PRIMARY KEY NOT NULL,
	"registration_id" integer NOT NULL,
	"guardian_user_id" integer,
	"name" text,
	"email" text,
	"phone" text,
	"relationship" text,
	"is_primary" boolean DEFAULT false NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"accepted_at" timestamp(6) with time zone,
	"completed_at" timestamp(6) with time zone,
	"invite_token_sent_at" timestamp(6) with time zone,
	"invite_token_digest" text,
	"invite_expires_at" timestamp(6) with time zone,
	"invited_via_email" text,
	"media_permission" text,
	"photo_permission" text,
	"travel_permission" text,
	"emergency_medical_consent" text,
	"otc_medication_consent" text,
	"created_at" timestamp(6) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp(6) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "guardians_invite_token_digest_unique" UNIQUE("invite_token_digest")
);
--> statement-breakpoint
CREATE TABLE "invitations" (
	"id" serial PRIMARY KEY NOT NULL,
	"event_id" integer NOT NULL,
	"email" text NOT NULL,
	"first_name" text,
	"last_name" text,
	"token_digest" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"expires_at" timestamp(6) with time zone NOT NULL,
	"accepted_at" timestamp(6) with time zone,
	"registration_id" integer,
	"invited_by_user_id" integer,
	"credential_kind" text,
	"credential_id" text,
	"created_at" timestamp(6) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "invitations_token_digest_unique" UNIQUE("token_digest")
);
--> statement-breakpoint
CREATE TABLE "notes" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"event_id" integer NOT NULL,
	"registration_id" integer NOT NULL,
	"author_user_id" integer,
	"content" text NOT NULL,
	"note_type" text DEFAULT 'ops' NOT NULL,
	"sensitivity" text DEFAULT 'normal' NOT NULL,
	"created_at" timestamp(6) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "travel_legs" (
	"id" serial PRIMARY KEY NOT NULL,
	"travel_id" integer NOT NULL,
	"position" integer NOT NULL,
	"flight_code" text,
	"departure_airport" text,
	"arrival_airport" text,
	"departure_time" timestamp(6) with time zone,
	"arrival_time" timestamp(6) with time zone,
	"live_status" text,
	"live_departure_time" timestamp(6) with time zone,
	"live_arrival_time" timestamp(6) with time zone,
	"travel_picked_up_at" timestamp(6) with time zone,
	"updated_at" timestamp(6) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "travels" (
	"id" serial PRIMARY KEY NOT NULL,
	"registration_id" integer NOT NULL,
	"direction" text NOT NULL,
	"mode" text NOT NULL,
	"visa_required" boolean,
	"visa_status" text,
	"visa_type" text,
	"visa_number" text,
	"passport_nationality" text,
	"is_unaccompanied_minor" boolean DEFAULT false NOT NULL,
	"carrier" text,
	"flight_number" text,
	"train_departure_station" text,
	"train_arrival_station" text,
	"departure_station" text,
	"arrival_station" text,
	"departure_city" text,
	"arrival_city" text,
	"departure_time" timestamp(6) with time zone,
	"arrival_time" timestamp(6) with time zone,
	"expected_arrival_time" timestamp(6) with time zone,
	"bus_departure_location" text,
	"bus_arrival_location" text,
	"origin_address" text,
	"other_details" text,
	"notes" text,
	"pickup_dismissed_at" timestamp(6) with time zone,
	"created_at" timestamp(6) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp(6) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "series_roles" ADD CONSTRAINT "series_roles_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "series_roles" ADD CONSTRAINT "series_roles_series_id_series_id_fk" FOREIGN KEY ("series_id") REFERENCES "public"."series"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "push_tokens" ADD CONSTRAINT "push_tokens_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scans" ADD CONSTRAINT "scans_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scans" ADD CONSTRAINT "scans_registration_id_registrations_id_fk" FOREIGN KEY ("registration_id") REFERENCES "public"."registrations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scans" ADD CONSTRAINT "scans_scan_context_id_scan_contexts_id_fk" FOREIGN KEY ("scan_context_id") REFERENCES "public"."scan_contexts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scans" ADD CONSTRAINT "scans_scanner_user_id_users_id_fk" FOREIGN KEY ("scanner_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_api_keys" ADD CONSTRAINT "event_api_keys_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_api_keys" ADD CONSTRAINT "event_api_keys_owner_user_id_users_id_fk" FOREIGN KEY ("owner_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "global_api_tokens" ADD CONSTRAINT "global_api_tokens_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mobile_tokens" ADD CONSTRAINT "mobile_tokens_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "series_api_keys" ADD CONSTRAINT "series_api_keys_series_id_series_id_fk" FOREIGN KEY ("series_id") REFERENCES "public"."series"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "series_api_keys" ADD CONSTRAINT "series_api_keys_owner_user_id_users_id_fk" FOREIGN KEY ("owner_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_roles" ADD CONSTRAINT "event_roles_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_roles" ADD CONSTRAINT "event_roles_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_series_id_series_id_fk" FOREIGN KEY ("series_id") REFERENCES "public"."series"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scan_contexts" ADD CONSTRAINT "scan_contexts_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ban_emails" ADD CONSTRAINT "ban_emails_ban_id_bans_id_fk" FOREIGN KEY ("ban_id") REFERENCES "public"."bans"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bans" ADD CONSTRAINT "bans_created_by_user_id_users_id_fk" FOREIGN KEY ("created_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_blast_recipients" ADD CONSTRAINT "chat_blast_recipients_blast_id_chat_blasts_id_fk" FOREIGN KEY ("blast_id") REFERENCES "public"."chat_blasts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_blast_recipients" ADD CONSTRAINT "chat_blast_recipients_registration_id_registrations_id_fk" FOREIGN KEY ("registration_id") REFERENCES "public"."registrations"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_blasts" ADD CONSTRAINT "chat_blasts_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_blasts" ADD CONSTRAINT "chat_blasts_sent_by_user_id_users_id_fk" FOREIGN KEY ("sent_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "email_log" ADD CONSTRAINT "email_log_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "registration_accessibility" ADD CONSTRAINT "registration_accessibility_registration_id_registrations_id_fk" FOREIGN KEY ("registration_id") REFERENCES "public"."registrations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "registration_accommodations" ADD CONSTRAINT "registration_accommodations_registration_id_registrations_id_fk" FOREIGN KEY ("registration_id") REFERENCES "public"."registrations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "registration_dietary" ADD CONSTRAINT "registration_dietary_registration_id_registrations_id_fk" FOREIGN KEY ("registration_id") REFERENCES "public"."registrations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "registration_medical" ADD CONSTRAINT "registration_medical_registration_id_registrations_id_fk" FOREIGN KEY ("registration_id") REFERENCES "public"."registrations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "people" ADD CONSTRAINT "people_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "registrations" ADD CONSTRAINT "registrations_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "registrations" ADD CONSTRAINT "registrations_person_id_people_id_fk" FOREIGN KEY ("person_id") REFERENCES "public"."people"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "registration_safeguarding" ADD CONSTRAINT "registration_safeguarding_registration_id_registrations_id_fk" FOREIGN KEY ("registration_id") REFERENCES "public"."registrations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consents" ADD CONSTRAINT "consents_registration_id_registrations_id_fk" FOREIGN KEY ("registration_id") REFERENCES "public"."registrations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "emergency_contacts" ADD CONSTRAINT "emergency_contacts_registration_id_registrations_id_fk" FOREIGN KEY ("registration_id") REFERENCES "public"."registrations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "emergency_contacts" ADD CONSTRAINT "emergency_contacts_guardian_id_guardians_id_fk" FOREIGN KEY ("guardian_id") REFERENCES "public"."guardians"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "guardians" ADD CONSTRAINT "guardians_registration_id_registrations_id_fk" FOREIGN KEY ("registration_id") REFERENCES "public"."registrations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "guardians" ADD CONSTRAINT "guardians_guardian_user_id_users_id_fk" FOREIGN KEY ("guardian_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invitations" ADD CONSTRAINT "invitations_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invitations" ADD CONSTRAINT "invitations_registration_id_registrations_id_fk" FOREIGN KEY ("registration_id") REFERENCES "public"."registrations"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invitations" ADD CONSTRAINT "invitations_invited_by_user_id_users_id_fk" FOREIGN KEY ("invited_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notes" ADD CONSTRAINT "notes_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notes" ADD CONSTRAINT "notes_registration_id_registrations_id_fk" FOREIGN KEY ("registration_id") REFERENCES "public"."registrations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notes" ADD CONSTRAINT "notes_author_user_id_users_id_fk" FOREIGN KEY ("author_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "travel_legs" ADD CONSTRAINT "travel_legs_travel_id_travels_id_fk" FOREIGN KEY ("travel_id") REFERENCES "public"."travels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "travels" ADD CONSTRAINT "travels_registration_id_registrations_id_fk" FOREIGN KEY ("registration_id") REFERENCES "public"."registrations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "series_roles_unique" ON "series_roles" USING btree ("user_id","series_id","role");--> statement-breakpoint
CREATE INDEX "series_roles_series_id_index" ON "series_roles" USING btree ("series_id");--> statement-breakpoint
CREATE UNIQUE INDEX "users_email_key" ON "users" USING btree (lower("email"));--> statement-breakpoint
CREATE INDEX "audit_log_event_id_created_at_index" ON "audit_log" USING btree ("event_id","created_at");--> statement-breakpoint
CREATE INDEX "audit_log_action_index" ON "audit_log" USING btree ("action");--> statement-breakpoint
CREATE INDEX "scans_registration_context" ON "scans" USING btree ("registration_id","scan_context_id","scanned_at");--> statement-breakpoint
CREATE INDEX "scans_event_created" ON "scans" USING btree ("event_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "scans_registration_client_scan_id" ON "scans" USING btree ("registration_id","client_scan_id") WHERE client_scan_id IS NOT NULL;--> statement-breakpoint
CREATE INDEX "mobile_tokens_user_id_index" ON "mobile_tokens" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "event_roles_unique" ON "event_roles" USING btree ("user_id","event_id","role");--> statement-breakpoint
CREATE INDEX "event_roles_event_id_index" ON "event_roles" USING btree ("event_id");--> statement-breakpoint
CREATE INDEX "events_series_id_starts_at_index" ON "events" USING btree ("series_id","starts_at");--> statement-breakpoint
CREATE INDEX "scan_contexts_event_id_position_index" ON "scan_contexts" USING btree ("event_id","position");--> statement-breakpoint
CREATE UNIQUE INDEX "scan_contexts_event_name" ON "scan_contexts" USING btree ("event_id",lower("name"));--> statement-breakpoint
CREATE INDEX "ban_emails_ban_id_index" ON "ban_emails" USING btree ("ban_id");--> statement-breakpoint
CREATE UNIQUE INDEX "chat_blast_recipients_unique" ON "chat_blast_recipients" USING btree ("blast_id","registration_id");--> statement-breakpoint
CREATE INDEX "chat_blast_recipients_blast_id_status_index" ON "chat_blast_recipients" USING btree ("blast_id","status");--> statement-breakpoint
CREATE INDEX "chat_blasts_event_id_created_at_index" ON "chat_blasts" USING btree ("event_id","created_at");--> statement-breakpoint
CREATE INDEX "email_log_to_email_index" ON "email_log" USING btree ("to_email");--> statement-breakpoint
CREATE INDEX "email_log_provider_message_id_index" ON "email_log" USING btree ("provider_message_id");--> statement-breakpoint
CREATE UNIQUE INDEX "people_email_key" ON "people" USING btree (lower("email"));--> statement-breakpoint
CREATE INDEX "people_user_id_index" ON "people" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "registrations_event_person" ON "registrations" USING btree ("event_id","person_id");--> statement-breakpoint
CREATE UNIQUE INDEX "registrations_event_badge" ON "registrations" USING btree ("event_id","nfc_badge_token");--> statement-breakpoint
CREATE INDEX "registrations_event_updated" ON "registrations" USING btree ("event_id","updated_at");--> statement-breakpoint
CREATE INDEX "registrations_person_id_index" ON "registrations" USING btree ("person_id");--> statement-breakpoint
CREATE UNIQUE INDEX "consents_registration_type" ON "consents" USING btree ("registration_id","consent_type");--> statement-breakpoint
CREATE INDEX "emergency_contacts_registration_id_index" ON "emergency_contacts" USING btree ("registration_id");--> statement-breakpoint
CREATE INDEX "guardians_registration_id_index" ON "guardians" USING btree ("registration_id");--> statement-breakpoint
CREATE UNIQUE INDEX "invitations_event_email_pending" ON "invitations" USING btree ("event_id","email") WHERE status = 'pending';--> statement-breakpoint
CREATE INDEX "notes_registration_id_created_at_index" ON "notes" USING btree ("registration_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "travel_legs_position" ON "travel_legs" USING btree ("travel_id","position");--> statement-breakpoint
CREATE UNIQUE INDEX "travels_registration_direction" ON "travels" USING btree ("registration_id","direction");