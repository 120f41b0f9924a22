// The check-in desk page (/staff/events/{e}/checkin). Every check-in goes through the queue in
// IndexedDB (desk-store.js) and is then sent (desk-sync.js): online that is immediate, offline the
// scans wait on this device, with their count on screen, until the network returns. Search asks
// the server, or the cached participant list when offline (desk-find.js). The live feed is the
// event's scan stream (Server-Sent Events, read with the session cookie). QR codes: desk-qr.js.
import { searchRoster } from './desk-find.js';
import { setUpQr } from './desk-qr.js';
import { loadDecoder } from './desk-scanner.js';
import { forgetAll, newScanId, openStore } from './desk-store.js';
import { replay } from './desk-sync.js';
import { createView } from './desk-view.js';

const root = document.getElementById('desk');
const cfg = {
  eventId: Number(root.dataset.eventId),
  userId: Number(root.dataset.userId),
  csrf: root.dataset.csrf,
  canCache: root.dataset.canCache === 'true',
  base: `/staff/events/${root.dataset.eventId}/checkin`,
};
const $ = (id) => document.getElementById(id);
const RETRY_MS = 30_000;
const contextSelect = $('desk-context');
const contextName = (id) => [...contextSelect.options].find((o) => Number(o.value) === id)?.text ?? `#${id}`;
const state = { contextId: Number(contextSelect?.value), term: '', roster: [], results: [], last: null, store: null };
const view = createView({ contextName, onCheckIn: checkIn, onUndo: undo });

/** The participant with registration id `pe`, from what this page has seen. */
function known(pe) {
  return [...state.results, ...state.roster].find((p) => p.participant_event_id === pe);
}

/** Marks `pe` scanned (or not) in a context in every list the page holds, then redraws. */
function markScanned(pe, contextId, scanned) {
  for (const p of [...state.results, ...state.roster]) {
    if (p.participant_event_id !== pe) continue;
    const ids = new Set(p.scanned_context_ids);
    if (scanned) ids.add(contextId);
    else ids.delete(contextId);
    p.scanned_context_ids = [...ids];
  }
  view.results(state.results, state.contextId, state.term !== '');
}

/** Queues a scan of the chosen context, then sends the queue. */
async function checkIn({ participantId, label, source, pe }) {
  if (!participantId || participantId.length > 200) return view.say('That code is not a Muster ticket.');
  const item = {
    client_scan_id: newScanId(),
    event_id: cfg.eventId,
    label,
    queued_at: new Date().toISOString(),
    scan: { participant_id: participantId, scan_context_id: state.contextId, source },
  };
  item.scan.client_scan_id = item.client_scan_id;
  item.scan.scanned_at = item.queued_at;
  await state.store.enqueue(item);
  if (pe) markScanned(pe, state.contextId, true);
  state.last = { label, contextId: state.contextId, participantId, clientScanId: item.client_scan_id, pe };
  view.last(state.last);
  view.say(`${label}: checked in${navigator.onLine ? '' : ' (saved on this device, will be sent)'}.`);
  await flush();
}

/** Undoes a check-in: still queued → just dropped; else the server deletes the scans. */
async function undo({ participantId, clientScanId, label, contextId, pe }) {
  if (flushing) await flushing; // the scan is then either still queued or stored, not in flight
  const queued = (await state.store.queued(cfg.eventId)).find((q) => q.client_scan_id === clientScanId);
  if (queued) await state.store.dequeue([clientScanId]);
  else {
    const res = await post(`${cfg.base}/undo`, { participant_id: participantId, scan_context_id: contextId });
    if (!res?.ok) return view.say(`Undo needs the network: ${label} is still checked in.`);
  }
  if (pe) markScanned(pe, contextId, false);
  state.last = null;
  view.last(null);
  view.say(`${label}: check-in undone.`);
  await showCount();
}

/** POSTs JSON with the CSRF token; null when the network is down. */
async function post(url, body) {
  return fetch(url, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/json', 'x-csrf-token': cfg.csrf },
    body: JSON.stringify(body),
  }).catch(() => null);
}

let flushing = null;
let again = false;
/** Sends the queue (one run at a time; a call during a run runs it once more) and reports. */
function flush() {
  if (flushing) {
    again = true; // a scan queued after this run read the queue
    return flushing;
  }
  flushing = (async () => {
    do {
      again = false;
      const out = await replay(state.store, { eventId: cfg.eventId, url: `${cfg.base}/scans`, csrf: cfg.csrf });
      for (const r of out.repeats) view.say(`${r.label}: was already checked in here (scan recorded again).`);
      for (const f of out.failed) view.say(`Not checked in: ${f.item?.label ?? 'a scan'}: ${f.error}.`);
      if (out.stop === 'signed_out') view.say('Your session has ended: sign in again to send the waiting scans.');
      if (out.stop === 'forbidden') view.say('You no longer have access to check people in at this event.');
      if (out.stop === 'rejected') view.say('The server refused the waiting scans; they are kept on this device.');
      if (out.stop) again = false;
      await showCount();
    } while (again);
  })().finally(() => {
    flushing = null;
  });
  return flushing;
}

async function showCount() {
  view.network(navigator.onLine, await state.store.count(cfg.eventId));
}

let searches = 0;
/** Server search online; the cached list offline (or when the server cannot be reached). */
async function search(term) {
  const mine = ++searches; // typing fast: only the latest search's answer is shown
  let results = null;
  if (navigator.onLine) {
    const res = await fetch(`${cfg.base}/search?q=${encodeURIComponent(term)}`).catch(() => null);
    if (res?.ok) results = (await res.json()).results;
  }
  if (mine !== searches) return;
  state.term = term.trim();
  state.results = results ?? searchRoster(state.roster, term);
  view.results(state.results, state.contextId, state.term !== '');
}

/** Caches the participant list for offline search, for callers who may see it (else drops it). */
async function refreshRoster() {
  if (!cfg.canCache) {
    await state.store.dropRoster(cfg.eventId);
    return;
  }
  state.roster = (await state.store.roster(cfg.eventId)) ?? [];
  const res = await fetch(`${cfg.base}/participants`).catch(() => null);
  if (!res?.ok) return;
  state.roster = (await res.json()).participants;
  await state.store.saveRoster(cfg.eventId, state.roster);
  root.dataset.roster = 'cached'; // for tests and curious staff: offline search is ready
}

/** The live feed: every scan and undo of the event, from every device. */
function listen() {
  const feed = new EventSource(`${cfg.base}/stream`);
  const handle = (kind) => (message) => {
    const scan = JSON.parse(message.data);
    const name = known(scan.participant_event_id)?.display_name ?? `Participant ${scan.participant_event_id}`;
    markScanned(scan.participant_event_id, scan.scan_context_id, kind === 'scan');
    view.feed(kind, scan, name);
    // Our own QR scan coming back: now the desk knows whose ticket it was.
    const last = state.last;
    if (kind === 'scan' && last && last.clientScanId === scan.client_scan_id && !last.pe) {
      Object.assign(last, { label: name, pe: scan.participant_event_id });
      view.last(last);
      view.say(`${name}: checked in.`);
    }
  };
  feed.addEventListener('scan', handle('scan'));
  feed.addEventListener('scan_undone', handle('scan_undone'));
  feed.addEventListener('open', () => {
    view.live(true);
    flush(); // the server is reachable again: send what waits
  });
  feed.addEventListener('error', () => view.live(false));
}

/** Sign-out forgets this device's desk data (queued scans first need a confirmation). */
function guardSignOut() {
  for (const form of document.querySelectorAll('form[action="/signout"]')) {
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      const waiting = await state.store.count(cfg.eventId);
      if (waiting > 0 && !window.confirm(`${waiting} scans have not been sent yet. Sign out and lose them?`)) return;
      state.store.close();
      await forgetAll();
      form.submit();
    });
  }
}

async function start() {
  state.store = await openStore(cfg.userId);
  guardSignOut();
  contextSelect.addEventListener('change', () => {
    state.contextId = Number(contextSelect.value);
    history.replaceState(null, '', `?context=${state.contextId}`);
    view.results(state.results, state.contextId, state.term !== '');
  });
  $('desk-search').addEventListener('submit', (event) => {
    event.preventDefault();
    search($('desk-q').value);
  });
  $('desk-q').addEventListener('input', (event) => search(event.target.value));
  setUpQr({ view, onCode: (text) => checkIn({ participantId: text, label: 'QR code', source: 'qr' }) });
  window.addEventListener('online', flush);
  setInterval(flush, RETRY_MS); // also when the browser never noticed being offline (a server outage)
  window.addEventListener('offline', () => {
    view.live(false);
    showCount();
  });
  listen();
  await showCount();
  await refreshRoster();
  loadDecoder().catch(() => view.say('The QR decoder could not be loaded; search by name instead.'));
  await flush();
}

// Without a scan context there is nothing to do (the page says so).
if (contextSelect) start();
