ALTER TABLE "scans" ADD COLUMN "type" text DEFAULT 'entry' NOT NULL;--> statement-breakpoint
ALTER TABLE "scans" ADD COLUMN "verdict" text DEFAULT 'admitted' NOT NULL;--> statement-breakpoint
ALTER TABLE "scans" ADD COLUMN "attention" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "scans" ADD COLUMN "forced" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "scans" ADD COLUMN "collected_by" text;--> statement-breakpoint
ALTER TABLE "scan_contexts" ADD COLUMN "refuse" text[];--> statement-breakpoint
ALTER TABLE "scan_contexts" ADD COLUMN "tracks_presence" boolean DEFAULT false NOT NULL;
--> statement-breakpoint
-- Hand-written. Door verdicts, exits and presence (docs/checkin.md "Door verdicts", "Presence").
-- A scan now stores its type (entry | exit), the verdict and attention codes it was recorded with,
-- whether a refused entry was let in anyway (`forced`) and who collected a minor at an exit.
-- muster_scan() and muster_scan_items() (0005, 0007) take these values; only entries mark the
-- inbound travel picked up and ensure an NFC badge token. The live-feed payload carries `type`,
-- `verdict`, `attention_codes` and `forced` (never `collected_by`: a name, shown only to callers who
-- may read personal data). The verdict itself is computed by the application before the call.
ALTER TABLE scans ADD CONSTRAINT scans_type_check CHECK (type IN ('entry', 'exit'));
--> statement-breakpoint
ALTER TABLE scans ADD CONSTRAINT scans_verdict_check CHECK (verdict IN ('admitted', 'warning', 'refused'));
--> statement-breakpoint
DROP FUNCTION muster_scan_items(integer, json);
--> statement-breakpoint
DROP FUNCTION muster_scan(integer, integer, integer, boolean, boolean, integer, text, text, timestamptz, text);
--> statement-breakpoint
CREATE OR REPLACE FUNCTION muster_scan(
  p_event_id integer,
  p_registration_id integer,
  p_context_id integer,
  p_checks_in boolean,         -- the context checks in (travel pickup + NFC badge on a first scan)
  p_is_travel_pickup boolean,  -- the context is a travel pickup point (travel pickup on a first scan)
  p_scanner_user_id integer,   -- NULL for a non-user principal
  p_source text,
  p_client_scan_id text,       -- NULL when the client sent none
  p_scanned_at timestamptz,    -- NULL: now()
  p_badge_token text,          -- fresh random token, stored only if a first check-in needs one
  p_type text,                 -- entry | exit
  p_verdict text,              -- admitted | warning | refused (src/modules/checkin/verdict.ts)
  p_attention text[],          -- the verdict's attention codes
  p_forced boolean,            -- a refused entry let in anyway
  p_collected_by text          -- the adult who collected a minor at an exit, or NULL
) RETURNS json
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  v_dup_id bigint;
  v_seen boolean;
  v_nfc boolean;
  v_has_token boolean;
  v_first boolean;
  v_picked integer := 0;
  v_scan scans%ROWTYPE;
  v_scanner_id integer;
  v_scanner_name text;
  v_row json;
BEGIN
  -- 1. The lock: scans of one registration are serial from here to the end of the transaction.
  PERFORM 1 FROM registrations WHERE id = p_registration_id AND event_id = p_event_id FOR UPDATE;
  IF NOT FOUND THEN
    RETURN NULL;
  END IF;

  -- 2. The state under the lock (fresh snapshot): a stored scan with this client_scan_id, whether
  --    the registration was already scanned in the context, the NFC module and badge token.
  SELECT (SELECT s.id FROM scans s WHERE s.registration_id = r.id AND s.client_scan_id = p_client_scan_id),
         EXISTS (SELECT 1 FROM scans s WHERE s.registration_id = r.id AND s.scan_context_id = p_context_id),
         COALESCE((e.modules->>'nfc_badges_enabled')::boolean, false),
         r.nfc_badge_token IS NOT NULL
    INTO v_dup_id, v_seen, v_nfc, v_has_token
    FROM registrations r JOIN events e ON e.id = r.event_id
   WHERE r.id = p_registration_id;

  IF v_dup_id IS NOT NULL THEN
    -- A repeated client_scan_id: answered from the stored row, nothing written.
    SELECT * INTO v_scan FROM scans WHERE id = v_dup_id;
  ELSE
    -- 3. The scan: `scanned` the first time in the context, `already_scanned` after that.
    v_first := NOT v_seen;
    INSERT INTO scans (event_id, registration_id, scan_context_id, scanner_user_id, source, client_scan_id, outcome,
                       type, verdict, attention, forced, collected_by, scanned_at)
    VALUES (p_event_id, p_registration_id, p_context_id, p_scanner_user_id, p_source, p_client_scan_id,
            CASE WHEN v_first THEN 'scanned' ELSE 'already_scanned' END,
            p_type, p_verdict, p_attention, p_forced, p_collected_by, COALESCE(p_scanned_at, now()))
    RETURNING * INTO v_scan;

    IF v_first AND p_type = 'entry' AND (p_checks_in OR p_is_travel_pickup) THEN
      -- The inbound travel's final leg is marked picked up once (at the scan's time).
      UPDATE travel_legs l SET travel_picked_up_at = v_scan.scanned_at
       WHERE l.travel_picked_up_at IS NULL AND l.id = (
         SELECT l2.id FROM travel_legs l2 JOIN travels t ON t.id = l2.travel_id
          WHERE t.registration_id = p_registration_id AND t.direction = 'inbound'
          ORDER BY l2.position DESC, l2.id DESC LIMIT 1);
      GET DIAGNOSTICS v_picked = ROW_COUNT;
    END IF;

    IF v_first AND p_type = 'entry' AND p_checks_in AND v_nfc AND NOT v_has_token THEN
      -- With the NFC module on, a first check-in ensures a badge token (unique per event: a
      -- collision fails the statement with 23505 and the caller retries with a new token).
      UPDATE registrations SET nfc_badge_token = p_badge_token
       WHERE id = p_registration_id AND event_id = p_event_id AND nfc_badge_token IS NULL;
    END IF;
  END IF;

  -- The scanner as SCAN_FROM's LEFT JOIN users reads it (NULL when there is none).
  SELECT u.id, u.name INTO v_scanner_id, v_scanner_name FROM users u WHERE u.id = v_scan.scanner_user_id;

  IF v_dup_id IS NULL THEN
    -- 4. The live-feed entry: the scan exactly as GET /scans shows it (scanJson() in
    --    checkin.service.ts), as compact JSON text in the same key order (the column is json).
    INSERT INTO scan_feed (event_id, kind, scan_id, scan_context_id, payload)
    VALUES (p_event_id, 'scan', v_scan.id, v_scan.scan_context_id, (
      '{"id":' || v_scan.id
      || ',"participant_event_id":' || v_scan.registration_id
      || ',"scan_context_id":' || v_scan.scan_context_id
      || ',"source":' || to_json(v_scan.source)::text
      || ',"client_scan_id":' || COALESCE(to_json(v_scan.client_scan_id)::text, 'null')
      || ',"scanned_at":' || to_json(to_char(v_scan.scanned_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'))::text
      || ',"created_at":' || to_json(to_char(v_scan.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'))::text
      || ',"scanner":' || CASE WHEN v_scanner_id IS NULL THEN 'null'
                              ELSE '{"id":' || v_scanner_id || ',"name":' || to_json(COALESCE(v_scanner_name, ''))::text || '}' END
      || ',"type":' || to_json(v_scan.type)::text
      || ',"verdict":' || to_json(v_scan.verdict)::text
      || ',"attention_codes":' || array_to_json(v_scan.attention)::text
      || ',"forced":' || CASE WHEN v_scan.forced THEN 'true' ELSE 'false' END
      || '}')::json);
  END IF;

  -- 5. The result: the scan row as SCAN_COLUMNS reads it, plus the first scan time in its context.
  RETURN json_build_object(
    'deduplicated', v_dup_id IS NOT NULL,
    'picked', v_picked,
    'first_at', (SELECT min(s.scanned_at)::text FROM scans s
                  WHERE s.registration_id = v_scan.registration_id AND s.scan_context_id = v_scan.scan_context_id),
    'scan', json_build_object(
      'id', v_scan.id::int,
      'registration_id', v_scan.registration_id,
      'scan_context_id', v_scan.scan_context_id,
      'source', v_scan.source,
      'client_scan_id', v_scan.client_scan_id,
      'outcome', v_scan.outcome,
      'scanned_at', v_scan.scanned_at::text,
      'created_at', v_scan.created_at::text,
      'scanner_id', v_scanner_id,
      'scanner_name', v_scanner_name,
      'type', v_scan.type,
      'verdict', v_scan.verdict,
      'attention', v_scan.attention,
      'forced', v_scan.forced,
      'collected_by', v_scan.collected_by));
END;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION muster_scan_items(p_event_id integer, p_items json) RETURNS json
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  it record;
  v_results json[] := '{}';
BEGIN
  FOR it IN
    SELECT x.* FROM json_to_recordset(p_items)
             AS x(i integer, reg_id integer, context_id integer, checks_in boolean, scanner integer,
                  source text, client_scan_id text, scanned_at timestamptz, token text,
                  pickup boolean, type text, verdict text, attention text[], forced boolean, collected_by text)
     ORDER BY x.reg_id, x.i
  LOOP
    v_results := v_results || json_build_object('i', it.i, 'r', muster_scan(
      p_event_id, it.reg_id, it.context_id, it.checks_in, COALESCE(it.pickup, false), it.scanner, it.source,
      it.client_scan_id, it.scanned_at, it.token, it.type, it.verdict, it.attention, it.forced, it.collected_by));
  END LOOP;
  RETURN array_to_json(v_results);
END;
$$;
