// Live lists (the roll call, docs/checkin.md "Roll call", and the pickup run sheet, "Pickup run
// sheet"): the page's root element `[data-live-lists]` names the scan stream to listen to
// (`data-stream`, the desk's …/checkin/stream), the stream events that change the lists
// (`data-events`, space-separated: scan, scan_undone, flight_landed), the element to swap
// (`data-swap`), the status text (`data-status`) and, optionally, a periodic refresh in seconds
// (`data-refresh`). On each such event from any device it fetches the page again and swaps in the
// fresh lists, without moving focus. Without JavaScript the page is the same lists, reloaded by hand.
const root = document.querySelector('[data-live-lists]');

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
      const fresh = doc.getElementById(root.dataset.swap);
      if (fresh) document.getElementById(root.dataset.swap)?.replaceWith(fresh);
      root.dataset.updated = String(Date.now());
    } while (again);
  })().finally(() => {
    reloading = null;
  });
}

if (root?.dataset.stream && document.getElementById(root.dataset.swap)) {
  const live = document.getElementById(root.dataset.status);
  const feed = new EventSource(root.dataset.stream);
  feed.addEventListener('open', () => {
    live.textContent = globalThis.musterStrings.t('scripts.live.live');
  });
  feed.addEventListener('error', () => {
    live.textContent = globalThis.musterStrings.t('scripts.live.reconnecting');
  });
  for (const name of (root.dataset.events ?? 'scan scan_undone').split(' ').filter(Boolean)) {
    feed.addEventListener(name, reload);
  }
  const seconds = Number(root.dataset.refresh);
  if (seconds >= 2) setInterval(reload, seconds * 1000);
}
