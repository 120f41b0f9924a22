// The check-in desk page (/staff/events/{e}/checkin, docs/checkin.md "The desk"). Online, each scan
// is one POST …/checkin/scan and the door's answer is shown as the verdict panel: admitted,
// warning, or refused with nothing stored ("Let in anyway" with a reason for roles that may
// override: the same scan again with force + reason). Offline (or when the server cannot be
// reached) the desk gives the same verdict from its cached list (desk-verdict.js), queues what it
// lets through in IndexedDB (desk-store.js) and replays it later (desk-sync.js) with its force and
// reason; a scan it cannot judge (an unknown QR code) is "pending" until the replay's verdict.
// Search: desk-find.js; QR codes: desk-qr.js; the live feed is the event's scan stream (SSE).
import { searchRoster } from './desk-find.js';
import { setUpQr } from './desk-qr.js';
import { loadDecoder } from './desk-scanner.js';
import { guardSignOut, newScanId, openStore } from './desk-store.js';
import { replay } from './desk-sync.js';
import { buzz, feedbackOn, localVerdict, refusalText, setFeedback } from './desk-verdict.js';
import { createView } from './desk-view.js';

// The page's words (web/public/js/strings.js, the catalog's staff.scripts.desk.*).
const { t } = globalThis.musterStrings;

const root = document.getElementById('desk');
const cfg = {
  eventId: Number(root.dataset.eventId),
  userId: Number(root.dataset.userId),
  csrf: root.dataset.csrf,
  canCache: root.dataset.canCache === 'true',
  mayOverride: root.dataset.mayOverride === 'true',
  messages: JSON.parse(root.dataset.messages || '{}'),
  base: `/staff/events/${root.dataset.eventId}/checkin`,
};
const $ = (id) => document.getElementById(id);
const RETRY_MS = 30_000;
const contextSelect = $('desk-context');
const option = (id) => [...contextSelect.options].find((o) => Number(o.value) === id);
const contextName = (id) => option(id)?.text ?? `#${id}`;
const state = { contextId: Number(contextSelect?.value), type: 'entry', term: '', roster: [], results: [], last: null, store: null };
const view = createView({ contextName, zone: root.dataset.zone, onCheckIn: checkIn, onUndo: undo });

/** The chosen context's refuse list and whether it tracks presence (the page's data attributes). */
function contextRules() {
  const o = option(state.contextId);
  return { refuse: (o?.dataset.refuse ?? '').split(' ').filter(Boolean), presence: o?.dataset.presence === 'true' };
}

/** The participant with registration id `pe`, from what this page has seen. */
function known(pe) {
  return [...state.results, ...state.roster].find((p) => p.participant_event_id === pe);
}

const redraw = () => view.results(state.results, state.contextId, state.term !== '', state.type);

/** Marks `pe` scanned (or not) in a context in every list the page holds, then redraws. */
function markScanned(pe, contextId, scanned) {
  for (const p of [...state.results, ...state.roster]) {
    if (p.participant_event_id !== pe) continue;
    const ids = new Set(p.scanned_context_ids);
    if (scanned) ids.add(contextId);
    else ids.delete(contextId);
    p.scanned_context_ids = [...ids];
  }
  redraw();
}

/** Shows a stored (or queued) scan: the panel, the message, the buzz; it becomes the "last". */
function showStored(target, scan, answer, note) {
  const { label, pe } = target;
  if (pe) markScanned(pe, scan.scan_context_id, true);
  state.last = { label, contextId: scan.scan_context_id, participantId: scan.participant_id, clientScanId: scan.client_scan_id, pe };
  const attention = answer.attention.map((a) => a.message).join('; ');
  const way = scan.type === 'exit' ? 'out' : 'in';
  const said = t(`scripts.desk.said_${way}${answer.forced ? '_forced' : ''}`, { label });
  view.panel({ ...answer, type: scan.type, label, contextId: scan.scan_context_id, note, onUndo: () => undo(state.last) });
  if (answer.verdict === 'pending') view.say(t('scripts.desk.said_pending', { label }));
  else view.say(attention ? t('scripts.desk.said_with_attention', { said, attention }) : said);
  buzz(answer.verdict);
}

/** Shows a refusal (nothing stored) with "Let in anyway" for roles that may override. */
function showRefused(target, scan, attention, error) {
  state.last = null;
  const onOverride = cfg.mayOverride ? (reason) => checkIn({ ...target, force: true, reason }) : null;
  const note = t(cfg.mayOverride ? 'scripts.desk.nothing_stored' : 'scripts.desk.nothing_stored_ask');
  view.panel({ verdict: 'refused', type: scan.type, label: target.label, contextId: scan.scan_context_id, attention, note, onOverride });
  view.say(t('scripts.desk.said_refused', { label: target.label, error }));
  buzz('refused');
}

/** The exit of a minor who may not leave alone: asks who collects, then records the exit. */
function askCollector(target, scan, body) {
  state.last = null;
  const onCollect = (name) => checkIn({ ...target, collectedBy: name });
  view.panel({ verdict: 'collect', type: 'exit', label: target.label, contextId: scan.scan_context_id, attention: body.attention, pickupAdults: body.authorized_pickup_adults, onCollect });
  view.say(t('scripts.desk.said_collect', { label: target.label }));
  buzz('warning');
}

/** One scan of the chosen context: online the server decides; offline the cached list does. */
async function checkIn(target) {
  const { participantId, source = 'manual', force, reason, collectedBy } = target;
  if (!participantId || participantId.length > 200) return view.say(t('scripts.desk.not_a_ticket'));
  const id = newScanId();
  const scan = { participant_id: participantId, scan_context_id: state.contextId, source, client_scan_id: id, scanned_at: new Date().toISOString(), type: state.type };
  if (force) Object.assign(scan, { force: true, reason });
  if (collectedBy) scan.collected_by = collectedBy;
  const res = navigator.onLine ? await post(`${cfg.base}/scan`, scan) : null;
  if (!res || res.status >= 500) return offline(target, scan);
  const body = await res.json().catch(() => ({}));
  if (res.ok) {
    const label = target.pe ? target.label : (body.participant?.display_name ?? target.label);
    const pe = body.scan?.participant_event_id ?? target.pe;
    return showStored({ label, pe }, scan, body);
  }
  const label = body.participant?.display_name ?? target.label;
  if (res.status === 409) return showRefused({ ...target, label }, scan, body.attention ?? [], body.error);
  if (res.status === 422 && body.attention) return askCollector(target, scan, body);
  if (res.status === 401 || res.type === 'opaqueredirect') return view.say(t('scripts.desk.session_ended'));
  // A failed scan (unknown ticket, a refusal to override) never becomes the last one.
  view.say(body.error ? t('scripts.desk.not_checked_in', { error: body.error }) : t('scripts.desk.scan_refused'));
}

/** The offline path: the desk's own verdict, then the queue (a refusal stores nothing). */
async function offline(target, scan) {
  const person = target.pe ? known(target.pe) : null;
  const rules = contextRules();
  const answer = person
    ? localVerdict(person, { contextId: scan.scan_context_id, type: scan.type, ...rules, messages: cfg.messages })
    : { verdict: 'pending', attention: [] };
  if (answer.verdict === 'refused' && !scan.force)
    return showRefused(target, scan, answer.attention, refusalText(answer.attention, rules.refuse));
  if (scan.type === 'exit' && answer.attention.some((a) => a.code === 'not_unaccompanied') && !scan.collected_by)
    return askCollector(target, scan, answer);
  if (scan.force) answer.forced = true;
  await state.store.enqueue({ client_scan_id: scan.client_scan_id, event_id: cfg.eventId, label: target.label, pe: target.pe, queued_at: scan.scanned_at, scan });
  const note = t(answer.verdict === 'pending' ? 'scripts.desk.answer_when_sent' : 'scripts.desk.saved_will_send');
  showStored(target, scan, answer, note);
  await showCount();
}

/** Undoes a check-in: still queued → just dropped; else the server deletes the scans. */
async function undo({ participantId, clientScanId, label, contextId, pe }) {
  if (flushing) await flushing; // the scan is then either still queued or stored, not in flight
  const queued = (await state.store.queued(cfg.eventId)).find((q) => q.client_scan_id === clientScanId);
  if (queued) await state.store.dequeue([clientScanId]);
  else {
    const res = await post(`${cfg.base}/undo`, { participant_id: participantId, scan_context_id: contextId });
    if (!res?.ok) return view.say(t('scripts.desk.undo_needs_network', { label }));
  }
  if (pe) markScanned(pe, contextId, false);
  state.last = null;
  view.panel(null);
  view.say(t('scripts.desk.undone', { label }));
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
      for (const { item, result } of out.answers) sent(item, result);
      for (const f of out.failed)
        view.say(t('scripts.desk.scan_failed', { label: f.item?.label ?? t('scripts.desk.a_scan'), error: f.error }));
      if (out.stop === 'signed_out') view.say(t('scripts.desk.session_ended_queue'));
      if (out.stop === 'forbidden') view.say(t('scripts.desk.no_access'));
      if (out.stop === 'rejected') view.say(t('scripts.desk.queue_rejected'));
      if (out.stop) again = false;
      await showCount();
    } while (again);
  })().finally(() => {
    flushing = null;
  });
  return flushing;
}

/** A queued scan the server has stored: its verdict replaces the panel's when it is the last one. */
function sent(item, result) {
  if (!item || state.last?.clientScanId !== item.client_scan_id) return;
  const note = t(result.verdict === 'refused' && !result.forced ? 'scripts.desk.sent_would_refuse' : 'scripts.desk.sent');
  view.panel({ ...result, type: item.scan.type, label: state.last.label, contextId: item.scan.scan_context_id, note, onUndo: () => undo(state.last) });
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
  redraw();
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
    const name = known(scan.participant_event_id)?.display_name ?? t('scripts.desk.participant_n', { id: scan.participant_event_id });
    if (scan.type !== 'exit') markScanned(scan.participant_event_id, scan.scan_context_id, kind === 'scan');
    view.feed(kind, scan, name);
    // Our own QR scan (sent offline) coming back: now the desk knows whose ticket it was.
    const last = state.last;
    if (kind === 'scan' && last && last.clientScanId === scan.client_scan_id && !last.pe) {
      Object.assign(last, { label: name, pe: scan.participant_event_id });
      view.say(t('scripts.desk.said_in', { label: name }));
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

function chooseContext() {
  state.contextId = Number(contextSelect.value);
  history.replaceState(null, '', `?context=${state.contextId}`);
  const { presence } = contextRules();
  $('desk-type').hidden = !presence;
  if (!presence) state.type = 'entry';
  else state.type = document.querySelector('input[name="desk-type"]:checked')?.value ?? 'entry';
  const rollCall = $('desk-rollcall');
  if (rollCall) {
    rollCall.href = rollCall.href.replace(/context=\d+/, `context=${state.contextId}`);
    $('desk-rollcall-item').hidden = !presence;
  }
  const runSheet = $('desk-runsheet');
  if (runSheet) {
    runSheet.href = runSheet.href.replace(/context=\d+/, `context=${state.contextId}`);
    $('desk-runsheet-item').hidden = contextSelect.selectedOptions[0]?.dataset.pickup !== 'true';
  }
  redraw();
}

async function start() {
  state.store = await openStore(cfg.userId);
  guardSignOut(state.store, cfg.eventId);
  contextSelect.addEventListener('change', chooseContext);
  const feedback = $('desk-feedback');
  feedback.checked = feedbackOn();
  feedback.addEventListener('change', () => setFeedback(feedback.checked));
  for (const radio of document.querySelectorAll('input[name="desk-type"]')) radio.addEventListener('change', chooseContext);
  $('desk-search').addEventListener('submit', (event) => {
    event.preventDefault();
    search($('desk-q').value);
  });
  $('desk-q').addEventListener('input', (event) => search(event.target.value));
  setUpQr({ view, onCode: (text) => checkIn({ participantId: text, label: t('scripts.desk.qr_code'), source: 'qr' }) });
  window.addEventListener('online', flush);
  setInterval(flush, RETRY_MS); // also when the browser never noticed being offline (a server outage)
  window.addEventListener('offline', () => {
    view.live(false);
    showCount();
  });
  listen();
  await showCount();
  await refreshRoster();
  loadDecoder().catch(() => view.say(t('scripts.desk.decoder_failed')));
  await flush();
}

// Without a scan context there is nothing to do (the page says so).
if (contextSelect) start();
