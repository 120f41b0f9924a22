// The roll call page (/staff/events/{e}/roll-call): listens to the event's scan stream (the desk's
// …/checkin/stream, filtered to this context) and, on every scan or undo from any device, reloads
// the page and swaps in its lists (#roll-lists), so who is inside stays current without a reload.
const root = document.getElementById('roll-call');
const contextId = root?.dataset.contextId;

let reloading = null;
let again = false;
/** Fetches this page again and replaces the lists (one fetch at a time; changes meanwhile run once more). */
async function reload() {
  if (reloading) {
    again = true;
    return;
  }
  reloading = (async () => {
    do {
      again = false;
      const res = await fetch(location.href, { headers: { accept: 'text/html' } }).catch(() => null);
      if (!res?.ok) return;
      const doc = new DOMParser().parseFromString(await res.text(), 'text/html');
      const fresh = doc.getElementById('roll-lists');
      if (fresh) document.getElementById('roll-lists').replaceWith(fresh);
      root.dataset.updated = String(Date.now());
    } while (again);
  })().finally(() => {
    reloading = null;
  });
}

if (contextId) {
  const live = document.getElementById('roll-live');
  const feed = new EventSource(`/staff/events/${root.dataset.eventId}/checkin/stream?scan_context_id=${contextId}`);
  feed.addEventListener('open', () => {
    live.textContent = 'Live';
  });
  feed.addEventListener('error', () => {
    live.textContent = 'Reconnecting…';
  });
  feed.addEventListener('scan', reload);
  feed.addEventListener('scan_undone', reload);
}
