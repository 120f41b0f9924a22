CREATE TABLE "webhook_attempts" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"delivery_id" bigint NOT NULL,
	"endpoint_id" integer NOT NULL,
	"attempt" integer NOT NULL,
	"status_code" integer,
	"duration_ms" integer NOT NULL,
	"response_excerpt" text,
	"error" text,
	"created_at" timestamp(6) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "webhook_deliveries" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"endpoint_id" integer NOT NULL,
	"message_id" bigint NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp(6) with time zone DEFAULT now() NOT NULL,
	"last_attempt_at" timestamp(6) with time zone,
	"delivered_at" timestamp(6) with time zone,
	"created_at" timestamp(6) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "webhook_endpoints" (
	"id" serial PRIMARY KEY NOT NULL,
	"event_id" integer,
	"series_id" uuid,
	"url" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"event_types" text[] NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"secret_sealed" text NOT NULL,
	"previous_secret_sealed" text,
	"previous_secret_expires_at" timestamp(6) with time zone,
	"failing_since" timestamp(6) with time zone,
	"disabled_at" timestamp(6) with time zone,
	"disabled_reason" text,
	"created_by_user_id" integer,
	"created_at" timestamp(6) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp(6) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "webhook_endpoints_one_owner" CHECK (("webhook_endpoints"."event_id" IS NULL) <> ("webhook_endpoints"."series_id" IS NULL))
);
--> statement-breakpoint
CREATE TABLE "webhook_messages" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"msg_id" text NOT NULL,
	"event_id" integer,
	"type" text NOT NULL,
	"body" text NOT NULL,
	"created_at" timestamp(6) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "webhook_messages_msg_id_unique" UNIQUE("msg_id")
);
--> statement-breakpoint
ALTER TABLE "webhook_attempts" ADD CONSTRAINT "webhook_attempts_delivery_id_webhook_deliveries_id_fk" FOREIGN KEY ("delivery_id") REFERENCES "public"."webhook_deliveries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_attempts" ADD CONSTRAINT "webhook_attempts_endpoint_id_webhook_endpoints_id_fk" FOREIGN KEY ("endpoint_id") REFERENCES "public"."webhook_endpoints"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_endpoint_id_webhook_endpoints_id_fk" FOREIGN KEY ("endpoint_id") REFERENCES "public"."webhook_endpoints"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_message_id_webhook_messages_id_fk" FOREIGN KEY ("message_id") REFERENCES "public"."webhook_messages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD CONSTRAINT "webhook_endpoints_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD CONSTRAINT "webhook_endpoints_series_id_series_id_fk" FOREIGN KEY ("series_id") REFERENCES "public"."series"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD CONSTRAINT "webhook_endpoints_created_by_user_id_users_id_fk" FOREIGN KEY ("created_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_messages" ADD CONSTRAINT "webhook_messages_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "webhook_attempts_endpoint_id_id_index" ON "webhook_attempts" USING btree ("endpoint_id","id");--> statement-breakpoint
CREATE INDEX "webhook_attempts_delivery_id_index" ON "webhook_attempts" USING btree ("delivery_id");--> statement-breakpoint
CREATE UNIQUE INDEX "webhook_deliveries_endpoint_message" ON "webhook_deliveries" USING btree ("endpoint_id","message_id");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_message_id_index" ON "webhook_deliveries" USING btree ("message_id");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_due" ON "webhook_deliveries" USING btree ("next_attempt_at") WHERE status = 'pending';--> statement-breakpoint
CREATE INDEX "webhook_endpoints_event_id_index" ON "webhook_endpoints" USING btree ("event_id");--> statement-breakpoint
CREATE INDEX "webhook_endpoints_series_id_index" ON "webhook_endpoints" USING btree ("series_id");--> statement-breakpoint
CREATE INDEX "webhook_endpoints_created_by_user_id_index" ON "webhook_endpoints" USING btree ("created_by_user_id");--> statement-breakpoint
CREATE INDEX "webhook_messages_event_id_index" ON "webhook_messages" USING btree ("event_id");--> statement-breakpoint
-- Hand-written: the outbox of outbound webhooks (docs/webhooks.md "Outbound"). Every change that
-- customers may subscribe to calls muster_webhook_emit() in its own transaction, here from row
-- triggers (so every write path of a table emits, whatever code runs it) and from the application
-- for `registration.updated` and `ping`. The message is written only when an enabled endpoint of
-- the event or of its series subscribes to the type, with one pending delivery per such endpoint:
-- an event without endpoints pays one indexed lookup. Payloads carry ids only.
CREATE OR REPLACE FUNCTION muster_webhook_emit(p_event_id integer, p_type text, p_data jsonb) RETURNS void
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  v_series uuid;
  v_msg bigint;
BEGIN
  SELECT e.series_id INTO v_series FROM events e WHERE e.id = p_event_id;
  -- The event itself is being deleted (a cascade): nothing to tell about it any more.
  IF NOT FOUND THEN
    RETURN;
  END IF;
  IF NOT EXISTS (SELECT 1 FROM webhook_endpoints w
                  WHERE (w.event_id = p_event_id OR w.series_id = v_series)
                    AND w.enabled AND p_type = ANY (w.event_types)) THEN
    RETURN;
  END IF;
  INSERT INTO webhook_messages (msg_id, event_id, type, body)
  VALUES ('msg_' || replace(gen_random_uuid()::text, '-', ''), p_event_id, p_type,
          jsonb_build_object(
            'type', p_type,
            'timestamp', to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'),
            'data', jsonb_build_object('event_id', p_event_id) || p_data)::text)
  RETURNING id INTO v_msg;
  INSERT INTO webhook_deliveries (endpoint_id, message_id)
  SELECT w.id, v_msg FROM webhook_endpoints w
   WHERE (w.event_id = p_event_id OR w.series_id = v_series)
     AND w.enabled AND p_type = ANY (w.event_types);
END $$;
--> statement-breakpoint
-- scan.created / scan.deleted: every scan write path (single, batch, offline replay, desk) ends in
-- an INSERT or DELETE on scans. Columns a later migration adds (type, verdict, forced) are read
-- from the row's JSON, so this keeps working whichever exists.
CREATE OR REPLACE FUNCTION muster_webhook_scans() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  v_row jsonb;
BEGIN
  IF TG_OP = 'INSERT' THEN
    v_row := to_jsonb(NEW);
    PERFORM muster_webhook_emit(NEW.event_id, 'scan.created', jsonb_build_object(
      'scan_id', NEW.id,
      'participant_event_id', NEW.registration_id,
      'scan_context_id', NEW.scan_context_id,
      'type', COALESCE(v_row->>'type', 'entry'),
      'verdict', v_row->'verdict',
      'forced', COALESCE((v_row->>'forced')::boolean, false),
      'scanned_at', to_char(NEW.scanned_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')));
    RETURN NULL;
  END IF;
  PERFORM muster_webhook_emit(OLD.event_id, 'scan.deleted', jsonb_build_object(
    'scan_id', OLD.id,
    'participant_event_id', OLD.registration_id,
    'scan_context_id', OLD.scan_context_id));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER scans_webhooks AFTER INSERT OR DELETE ON scans
  FOR EACH ROW EXECUTE FUNCTION muster_webhook_scans();
--> statement-breakpoint
-- registration.created / registration.status_changed.
CREATE OR REPLACE FUNCTION muster_webhook_registrations() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM muster_webhook_emit(NEW.event_id, 'registration.created', jsonb_build_object(
      'participant_event_id', NEW.id, 'participant_id', NEW.person_id, 'status', NEW.status));
  ELSE
    PERFORM muster_webhook_emit(NEW.event_id, 'registration.status_changed', jsonb_build_object(
      'participant_event_id', NEW.id, 'participant_id', NEW.person_id, 'from', OLD.status, 'to', NEW.status));
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER registrations_webhooks_insert AFTER INSERT ON registrations
  FOR EACH ROW EXECUTE FUNCTION muster_webhook_registrations();
--> statement-breakpoint
CREATE TRIGGER registrations_webhooks_status AFTER UPDATE OF status ON registrations
  FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status) EXECUTE FUNCTION muster_webhook_registrations();
--> statement-breakpoint
-- guardian.completed, consent.signed, pickup.collected (a registration's child rows).
CREATE OR REPLACE FUNCTION muster_webhook_records() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  v_reg integer;
  v_event integer;
BEGIN
  IF TG_TABLE_NAME = 'travel_legs' THEN
    SELECT t.registration_id INTO v_reg FROM travels t WHERE t.id = NEW.travel_id;
  ELSE
    v_reg := NEW.registration_id;
  END IF;
  SELECT r.event_id INTO v_event FROM registrations r WHERE r.id = v_reg;
  IF v_event IS NULL THEN
    RETURN NULL;
  END IF;
  IF TG_TABLE_NAME = 'guardians' THEN
    PERFORM muster_webhook_emit(v_event, 'guardian.completed', jsonb_build_object(
      'participant_event_id', v_reg, 'guardian_id', NEW.id));
  ELSIF TG_TABLE_NAME = 'consents' THEN
    PERFORM muster_webhook_emit(v_event, 'consent.signed', jsonb_build_object(
      'participant_event_id', v_reg, 'consent_id', NEW.id, 'consent_type', NEW.consent_type));
  ELSE
    PERFORM muster_webhook_emit(v_event, 'pickup.collected', jsonb_build_object(
      'participant_event_id', v_reg, 'travel_id', NEW.travel_id, 'travel_leg_id', NEW.id));
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER guardians_webhooks_insert AFTER INSERT ON guardians
  FOR EACH ROW WHEN (NEW.status = 'completed') EXECUTE FUNCTION muster_webhook_records();
--> statement-breakpoint
CREATE TRIGGER guardians_webhooks_status AFTER UPDATE OF status ON guardians
  FOR EACH ROW WHEN (NEW.status = 'completed' AND OLD.status IS DISTINCT FROM 'completed')
  EXECUTE FUNCTION muster_webhook_records();
--> statement-breakpoint
CREATE TRIGGER consents_webhooks_insert AFTER INSERT ON consents
  FOR EACH ROW WHEN (NEW.status = 'signed') EXECUTE FUNCTION muster_webhook_records();
--> statement-breakpoint
CREATE TRIGGER consents_webhooks_status AFTER UPDATE OF status ON consents
  FOR EACH ROW WHEN (NEW.status = 'signed' AND OLD.status IS DISTINCT FROM 'signed')
  EXECUTE FUNCTION muster_webhook_records();
--> statement-breakpoint
CREATE TRIGGER travel_legs_webhooks AFTER UPDATE OF travel_picked_up_at ON travel_legs
  FOR EACH ROW WHEN (OLD.travel_picked_up_at IS NULL AND NEW.travel_picked_up_at IS NOT NULL)
  EXECUTE FUNCTION muster_webhook_records();
--> statement-breakpoint
-- invitation.accepted, chat_blast.completed, announcement.sent (rows that carry their event).
CREATE OR REPLACE FUNCTION muster_webhook_event_rows() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'invitations' THEN
    PERFORM muster_webhook_emit(NEW.event_id, 'invitation.accepted', jsonb_build_object(
      'invitation_id', NEW.id, 'participant_event_id', NEW.registration_id));
  ELSIF TG_TABLE_NAME = 'chat_blasts' THEN
    PERFORM muster_webhook_emit(NEW.event_id, 'chat_blast.completed', jsonb_build_object(
      'chat_blast_id', NEW.id, 'status', NEW.status));
  ELSE
    PERFORM muster_webhook_emit(NEW.event_id, 'announcement.sent', jsonb_build_object(
      'announcement_id', NEW.id));
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER invitations_webhooks AFTER UPDATE OF status ON invitations
  FOR EACH ROW WHEN (NEW.status = 'accepted' AND OLD.status IS DISTINCT FROM 'accepted')
  EXECUTE FUNCTION muster_webhook_event_rows();
--> statement-breakpoint
CREATE TRIGGER chat_blasts_webhooks AFTER UPDATE OF status ON chat_blasts
  FOR EACH ROW WHEN (NEW.status IN ('completed', 'failed') AND OLD.status IS DISTINCT FROM NEW.status)
  EXECUTE FUNCTION muster_webhook_event_rows();
--> statement-breakpoint
CREATE TRIGGER announcements_webhooks_insert AFTER INSERT ON announcements
  FOR EACH ROW WHEN (NEW.status = 'sent') EXECUTE FUNCTION muster_webhook_event_rows();
--> statement-breakpoint
CREATE TRIGGER announcements_webhooks_status AFTER UPDATE OF status ON announcements
  FOR EACH ROW WHEN (NEW.status = 'sent' AND OLD.status IS DISTINCT FROM 'sent')
  EXECUTE FUNCTION muster_webhook_event_rows();
