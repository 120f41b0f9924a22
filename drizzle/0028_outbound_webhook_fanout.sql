ALTER TABLE "webhook_messages" ADD COLUMN "endpoint_ids" integer[] DEFAULT '{}'::integer[] NOT NULL;--> statement-breakpoint
ALTER TABLE "webhook_messages" ADD COLUMN "awaiting_fanout" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX "webhook_messages_awaiting_fanout" ON "webhook_messages" USING btree ("id") WHERE awaiting_fanout;--> statement-breakpoint
-- Hand-written: one outbox row per change (docs/webhooks.md "Outbound", "Delivery"). Migration
-- 0020's muster_webhook_emit() also wrote one pending delivery per subscribed endpoint in the
-- change's transaction: with 3 endpoints, four rows per scan at the door. Now it writes the message
-- alone, with the ids of the endpoints subscribed at that moment, marked awaiting fan-out; the
-- webhook dispatcher turns awaiting messages into their deliveries in batches, the mark and the
-- deliveries in one statement (src/modules/outbound-webhooks/fanout.ts), so a message is fanned out
-- exactly once whatever process dies when. Still nothing is written when no enabled endpoint of the
-- event or of its series subscribes: an event without endpoints pays one indexed lookup.
CREATE OR REPLACE FUNCTION muster_webhook_emit(p_event_id integer, p_type text, p_data jsonb) RETURNS void
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  v_series uuid;
  v_ids integer[];
BEGIN
  SELECT e.series_id INTO v_series FROM events e WHERE e.id = p_event_id;
  -- The event itself is being deleted (a cascade): nothing to tell about it any more.
  IF NOT FOUND THEN
    RETURN;
  END IF;
  SELECT array_agg(w.id ORDER BY w.id) INTO v_ids FROM webhook_endpoints w
   WHERE (w.event_id = p_event_id OR w.series_id = v_series)
     AND w.enabled AND p_type = ANY (w.event_types);
  IF v_ids IS NULL THEN
    RETURN;
  END IF;
  INSERT INTO webhook_messages (msg_id, event_id, type, body, endpoint_ids, awaiting_fanout)
  VALUES ('msg_' || replace(gen_random_uuid()::text, '-', ''), p_event_id, p_type,
          jsonb_build_object(
            'type', p_type,
            'timestamp', to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'),
            'data', jsonb_build_object('event_id', p_event_id) || p_data)::text,
          v_ids, true);
END $$;
