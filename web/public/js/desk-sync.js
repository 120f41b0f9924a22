// Sends the desk's queued scans to the server: POST /staff/events/{e}/checkin/scans with the
// session cookie and the page's CSRF token (X-CSRF-Token header) (the API's bulk replay, up to 500 scans a request).
// Every scan carries its client_scan_id, so sending one twice (a reply lost on the way back)
// stores it once. A "Let in anyway" made offline carries its `force` and `reason` in the scan, so
// the replay stores it forced and audits the reason. A scan leaves the queue only when the server has answered for it:
//   status "ok"     → stored (or already stored): removed; its verdict and attention reported
//                     (a scan that waited offline shows the server's verdict once sent);
//   status "error"  → refused for good (unknown participant, bad context): removed, reported;
//   network failure → kept, retried when the browser is back online;
//   401 / 403       → kept; the desk says to sign in again (or that access was withdrawn).

const CHUNK = 500;

/**
 * Replays the queue of `eventId` once. Returns { sent, answers: [{item, result}], repeats: [item],
 * failed: [{item, error}], stop }: `answers` are the stored scans with their bulk result (verdict,
 * attention, forced);
 * `repeats` were stored as `already_scanned` (the person was already scanned in that context);
 * `stop` is null, 'offline', 'signed_out', 'forbidden' or 'rejected'.
 */
export async function replay(store, { eventId, url, csrf }) {
  const result = { sent: 0, answers: [], repeats: [], failed: [], stop: null };
  const items = await store.queued(eventId);
  for (let i = 0; i < items.length; i += CHUNK) {
    const chunk = items.slice(i, i + CHUNK);
    let response;
    try {
      response = await fetch(url, {
        method: 'POST',
        credentials: 'same-origin',
        redirect: 'manual',
        headers: { 'content-type': 'application/json', 'x-csrf-token': csrf },
        body: JSON.stringify({ scans: chunk.map((q) => q.scan) }),
      });
    } catch {
      result.stop = 'offline';
      return result;
    }
    if (response.status === 401 || response.type === 'opaqueredirect') result.stop = 'signed_out';
    else if (response.status === 403) result.stop = 'forbidden';
    // A server hiccup: try again later. Another refusal of the whole request: say so, keep the queue.
    else if (!response.ok) result.stop = response.status >= 500 ? 'offline' : 'rejected';
    if (result.stop) return result;
    const { results } = await response.json();
    const byId = new Map(chunk.map((q) => [q.client_scan_id, q]));
    for (const r of results) {
      if (r.status === 'ok') {
        result.sent++;
        result.answers.push({ item: byId.get(r.client_scan_id), result: r });
        if (r.outcome === 'already_scanned' && !r.deduplicated) result.repeats.push(byId.get(r.client_scan_id));
      } else result.failed.push({ item: byId.get(r.client_scan_id), error: r.error });
    }
    await store.dequeue(results.map((r) => r.client_scan_id));
  }
  return result;
}
