-- Hand-written (custom migration): several POST /events/{e}/scans requests that arrive together are
-- recorded by ONE statement and ONE transaction (group commit; src/modules/checkin/scan-batch.ts).
-- The statement resolves every item's context and registration, then calls this function once; it
-- runs muster_scan() (0005_scan_function.sql) for each item in turn.
--
-- Order: items are processed by registration id, then by their position in the batch. Every batch
-- takes its registration row locks in ascending id order, so two batches in flight at once wait
-- for each other but never deadlock; two items of one registration keep their arrival order (the
-- first in a context is `scanned`, the next `already_scanned`; a repeated client_scan_id sees the
-- earlier item's row, written in this same transaction, and is deduplicated).
--
-- p_items (json array), one object per item to record; `i` is the item's arrival position:
--   {"i": int, "reg_id": int, "context_id": int, "checks_in": bool, "scanner": int|null,
--    "source": text, "client_scan_id": text|null, "scanned_at": timestamptz text|null, "token": text}
-- Result (json array, in processing order): [{"i": int, "r": <muster_scan() result>}, ...].
-- Travel-pickup contexts are not passed here: the caller records them one by one in a transaction
-- that also enqueues the staff push.
CREATE OR REPLACE FUNCTION muster_scan_items(p_event_id integer, p_items json) RETURNS json
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  it record;
  v_results json[] := '{}';
BEGIN
  FOR it IN
    SELECT x.* FROM json_to_recordset(p_items)
             AS x(i integer, reg_id integer, context_id integer, checks_in boolean, scanner integer,
                  source text, client_scan_id text, scanned_at timestamptz, token text)
     ORDER BY x.reg_id, x.i
  LOOP
    v_results := v_results || json_build_object('i', it.i, 'r', muster_scan(
      p_event_id, it.reg_id, it.context_id, it.checks_in, false, it.scanner, it.source,
      it.client_scan_id, it.scanned_at, it.token));
  END LOOP;
  RETURN array_to_json(v_results);
END;
$$;
