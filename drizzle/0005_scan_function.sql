-- Hand-written (custom migration): POST /events/{e}/scans as ONE statement, `SELECT muster_scan(...)`.
-- It does what the former transaction did in 6 round trips (BEGIN, lock, state, insert, feed +
-- response, COMMIT), so a scan costs one round trip to PostgreSQL instead of six
-- (bench/README.md "Check-in"). Called as an autocommit statement, or inside the caller's
-- transaction when the caller must write more in it (the travel-pickup push job).
--
-- Concurrency: the function is VOLATILE, so under READ COMMITTED every statement below takes a
-- fresh snapshot. The `FOR UPDATE` row lock on the registration makes scans of one registration
-- serial; the state read after it sees every scan committed before the lock was granted, so exactly
-- one scan per (registration, context) is `scanned`. Two identical requests (same client_scan_id)
-- racing: the second waits on the lock and then finds the first's row (deduplicated); should the
-- unique index (registration_id, client_scan_id) still refuse an insert, the statement fails as a
-- whole (nothing written) with 23505 and the caller retries, which then answers from the stored row.
--
-- Result (json): NULL when the registration is not in the event (404); otherwise
--   {"deduplicated": bool, "picked": int, "first_at": text, "scan": {ScanRow}}
-- where ScanRow has the columns of checkin.service.ts SCAN_COLUMNS (timestamps as timestamptz text)
-- and first_at is the first scanned_at of the registration in the scan's context (text).
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
  p_badge_token text           -- fresh random token, stored only if a first check-in needs one
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
    INSERT INTO scans (event_id, registration_id, scan_context_id, scanner_user_id, source, client_scan_id, outcome, scanned_at)
    VALUES (p_event_id, p_registration_id, p_context_id, p_scanner_user_id, p_source, p_client_scan_id,
            CASE WHEN v_first THEN 'scanned' ELSE 'already_scanned' END, COALESCE(p_scanned_at, now()))
    RETURNING * INTO v_scan;

    IF v_first AND (p_checks_in OR p_is_travel_pickup) THEN
      -- The inbound travel's final leg is marked picked up once (at the scan's time).
      UPDATE travel_legs l SET travel_picked_up_at = v_scan.scanned_at
       WHERE l.travel_picked_up_at IS NULL AND l.id = (
         SELECT l2.id FROM travel_legs l2 JOIN travels t ON t.id = l2.travel_id
          WHERE t.registration_id = p_registration_id AND t.direction = 'inbound'
          ORDER BY l2.position DESC, l2.id DESC LIMIT 1);
      GET DIAGNOSTICS v_picked = ROW_COUNT;
    END IF;

    IF v_first AND p_checks_in AND v_nfc AND NOT v_has_token THEN
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
      'scanner_name', v_scanner_name));
END;
$$;
