// What the check-in desk shows: the verdict panel of the last scan (green admitted, amber warning,
// red refused with "Let in anyway", grey pending, or the exit of a minor asking who collects),
// search results with status, Minor tag and alert labels and their one-tap buttons, the live feed
// (times in the event's time zone, 24-hour), the network state with the number of scans waiting,
// and messages (a polite live region, so screen readers hear each outcome). DOM only: no fetches,
// no storage. Text is always set with textContent (names come from people, never parsed as HTML);
// every word is the catalog's (staff.scripts.desk.*, registration states staff.format.*), read
// through web/public/js/strings.js.

const { t } = globalThis.musterStrings;
const $ = (id) => document.getElementById(id);
const FEED_MAX = 50;
/** The alert labels a search result carries, by attention code. */
const ALERTS = {
  medical_alert: 'scripts.desk.alert_medical',
  high_support: 'scripts.desk.alert_high_support',
  not_unaccompanied: 'scripts.desk.alert_not_unaccompanied',
  banned: 'scripts.desk.alert_banned',
};

function el(tag, text, className) {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  if (className) node.className = className;
  return node;
}

function button(text, onClick, className) {
  const b = el('button', text, className);
  b.type = 'button';
  b.addEventListener('click', onClick);
  return b;
}

const HEADLINES = {
  entry: { admitted: 'scripts.desk.checked_in', warning: 'scripts.desk.checked_in_warning', refused: 'scripts.desk.not_let_in' },
  exit: { admitted: 'scripts.desk.checked_out', warning: 'scripts.desk.checked_out_warning', refused: 'scripts.desk.not_let_in' },
  pending: 'scripts.desk.saved_on_device',
  collect: 'scripts.desk.who_collects',
  forced: 'scripts.desk.let_in_anyway',
};

/** A form inside the panel: one required text box and its submit button; `onSubmit(text)`. */
function panelForm({ id, label, hint, submit, multiline, onSubmit }) {
  const form = el('form');
  const lab = el('label', label);
  lab.htmlFor = id;
  const box = el(multiline ? 'textarea' : 'input');
  Object.assign(box, { id, required: true, maxLength: multiline ? 500 : 200 });
  form.append(lab);
  if (hint) form.append(el('p', hint, 'hint'));
  form.append(box, el('button', submit));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const text = box.value.trim();
    if (text !== '') onSubmit(text);
  });
  return form;
}

/** `contextName(id)`, `zone` (IANA), `onCheckIn({participantId, label, source, pe})`, `onUndo({...})`. */
export function createView({ contextName, zone, onCheckIn, onUndo }) {
  const clock = new Intl.DateTimeFormat('en-GB', { timeZone: zone || undefined, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
  const time = (iso) => clock.format(new Date(iso));
  return {
    time,
    /**
     * The verdict panel (null hides it). `p`: {verdict: admitted|warning|refused|pending|collect,
     * type, label, contextId, attention, forced, note, onUndo, onOverride(reason), pickupAdults,
     * onCollect(name)}.
     */
    panel(p) {
      const box = $('desk-panel');
      box.replaceChildren();
      box.hidden = p === null;
      if (!p) return;
      box.className = `desk-panel ${p.verdict}`;
      box.dataset.verdict = p.verdict;
      let headline = HEADLINES[p.type ?? 'entry'][p.verdict];
      if (p.verdict === 'pending' || p.verdict === 'collect') headline = HEADLINES[p.verdict];
      if (p.forced) headline = HEADLINES.forced;
      box.append(el('p', t(headline), 'desk-verdict'));
      box.append(el('p', `${p.label} · ${contextName(p.contextId)}`));
      if (p.attention?.length) {
        const ul = el('ul');
        for (const a of p.attention) ul.append(el('li', a.message));
        box.append(ul);
      }
      if (p.note) box.append(el('p', p.note));
      if (p.pickupAdults) box.append(el('p', t('scripts.desk.may_collect', { names: p.pickupAdults })));
      if (p.onOverride) {
        const reason = { id: 'desk-reason', label: t('scripts.desk.reason'), hint: t('scripts.desk.reason_hint') };
        box.append(panelForm({ ...reason, submit: t('scripts.desk.let_in_anyway'), multiline: true, onSubmit: p.onOverride }));
      }
      if (p.onCollect) {
        const collector = { id: 'desk-collector', label: t('scripts.desk.collected_by'), submit: t('scripts.desk.record_exit') };
        box.append(panelForm({ ...collector, onSubmit: p.onCollect }));
      }
      if (p.onUndo) box.append(button(t('scripts.desk.undo_last'), p.onUndo, 'secondary'));
    },
    /** Redraws the result list for the chosen context (`searched`: a term was given; `type`: entry or exit). */
    results(list, contextId, searched, type = 'entry') {
      const ul = $('desk-results');
      ul.replaceChildren();
      if (list.length === 0 && searched) ul.append(el('li', t('scripts.desk.nobody_found'), 'desk-empty'));
      for (const p of list) {
        const li = el('li', undefined, 'desk-person');
        const who = el('div');
        who.append(el('strong', p.display_name));
        if (p.full_name !== p.display_name) who.append(el('span', ` (${p.full_name})`));
        who.append(el('span', ` · ${t(`format.${p.status}`)}`, 'desk-meta'));
        const codes = p.attention_codes ?? [];
        if (codes.includes('minor')) who.append(el('span', t('scripts.desk.minor'), 'desk-tag'));
        for (const [code, key] of Object.entries(ALERTS))
          if (codes.includes(code)) who.append(el('span', `⚠ ${t(key)}`, 'desk-tag alert'));
        li.append(who);
        const target = { participantId: String(p.participant_event_id), label: p.display_name, pe: p.participant_event_id };
        if (p.scanned_context_ids.includes(contextId)) li.append(el('span', t('scripts.desk.checked_in'), 'desk-done'));
        const verb = type === 'exit' ? 'scripts.desk.check_out_name' : 'scripts.desk.check_in_name';
        li.append(button(t(verb, { name: p.display_name }), () => onCheckIn({ ...target, source: 'manual' })));
        ul.append(li);
      }
    },
    /** A feed line: a scan (`scan`) or an undone scan (`scan_undone`), newest first. */
    feed(kind, scan, name) {
      const ol = $('desk-feed');
      let what = scan.type === 'exit' ? 'scripts.desk.feed_out' : 'scripts.desk.feed_in';
      if (scan.forced) what = 'scripts.desk.feed_forced';
      if (kind !== 'scan') what = 'scripts.desk.feed_undone';
      const line = t(what, { time: time(scan.scanned_at), name, context: contextName(scan.scan_context_id) });
      const li = el('li', scan.scanner ? t('scripts.desk.feed_by', { line, scanner: scan.scanner.name }) : line);
      if (kind !== 'scan') li.className = 'desk-undone';
      ol.prepend(li);
      while (ol.children.length > FEED_MAX) ol.lastElementChild.remove();
    },
    /** Online or offline, and how many scans wait on this device. */
    network(online, waiting) {
      $('desk-net').textContent = t(online ? 'scripts.desk.online' : 'scripts.desk.offline');
      $('desk-net').className = online ? 'desk-online' : 'desk-offline';
      $('desk-queue').textContent = globalThis.musterStrings.plural('scripts.desk.waiting', waiting);
    },
    /** Whether the live feed is connected. */
    live(connected) {
      $('desk-live').textContent = t(connected ? 'scripts.live.live' : 'scripts.live.reconnecting');
    },
    camera(on) {
      $('desk-video').hidden = !on;
      $('desk-scan').textContent = t(on ? 'scripts.desk.stop_camera' : 'scripts.desk.scan');
    },
    /** Announces a message (kept on screen until the next one). */
    say(text) {
      $('desk-message').textContent = text;
    },
  };
}
