// What the check-in desk shows: the verdict panel of the last scan (green admitted, amber warning,
// red refused with "Let in anyway", grey pending, or the exit of a minor asking who collects),
// search results with status, Minor tag and alert labels and their one-tap buttons, the live feed
// (times in the event's time zone, 24-hour), the network state with the number of scans waiting,
// and messages (a polite live region, so screen readers hear each outcome). DOM only: no fetches,
// no storage. Text is always set with textContent (names come from people, never parsed as HTML).

const $ = (id) => document.getElementById(id);
const FEED_MAX = 50;
const ALERTS = { medical_alert: 'Medical alert', high_support: 'High support', not_unaccompanied: 'May not leave alone', banned: 'Banned' };

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
  entry: { admitted: 'Checked in', warning: 'Checked in, with a warning', refused: 'Not let in' },
  exit: { admitted: 'Checked out', warning: 'Checked out, with a warning', refused: 'Not let in' },
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
      if (p.verdict === 'pending') headline = 'Saved on this device';
      if (p.verdict === 'collect') headline = 'Who is collecting?';
      if (p.forced) headline = 'Let in anyway';
      box.append(el('p', headline, 'desk-verdict'));
      box.append(el('p', `${p.label} · ${contextName(p.contextId)}`));
      if (p.attention?.length) {
        const ul = el('ul');
        for (const a of p.attention) ul.append(el('li', a.message));
        box.append(ul);
      }
      if (p.note) box.append(el('p', p.note));
      if (p.pickupAdults) box.append(el('p', `Authorised to collect: ${p.pickupAdults}`));
      if (p.onOverride)
        box.append(
          panelForm({ id: 'desk-reason', label: 'Reason for letting in anyway', hint: 'Recorded with your name.', submit: 'Let in anyway', multiline: true, onSubmit: p.onOverride }),
        );
      if (p.onCollect)
        box.append(panelForm({ id: 'desk-collector', label: 'Collected by (name of the adult)', submit: 'Record the exit', onSubmit: p.onCollect }));
      if (p.onUndo) box.append(button('Undo last check-in', p.onUndo, 'secondary'));
    },
    /** Redraws the result list for the chosen context (`searched`: a term was given; `type`: entry or exit). */
    results(list, contextId, searched, type = 'entry') {
      const ul = $('desk-results');
      ul.replaceChildren();
      if (list.length === 0 && searched) ul.append(el('li', 'Nobody found.', 'desk-empty'));
      for (const p of list) {
        const li = el('li', undefined, 'desk-person');
        const who = el('div');
        who.append(el('strong', p.display_name));
        if (p.full_name !== p.display_name) who.append(el('span', ` (${p.full_name})`));
        who.append(el('span', ` · ${p.status.replaceAll('_', ' ')}`, 'desk-meta'));
        const codes = p.attention_codes ?? [];
        if (codes.includes('minor')) who.append(el('span', 'Minor', 'desk-tag'));
        for (const [code, text] of Object.entries(ALERTS))
          if (codes.includes(code)) who.append(el('span', `⚠ ${text}`, 'desk-tag alert'));
        li.append(who);
        const target = { participantId: String(p.participant_event_id), label: p.display_name, pe: p.participant_event_id };
        if (p.scanned_context_ids.includes(contextId)) li.append(el('span', 'Checked in', 'desk-done'));
        const verb = type === 'exit' ? 'Check out' : 'Check in';
        li.append(button(`${verb} ${p.display_name}`, () => onCheckIn({ ...target, source: 'manual' })));
        ul.append(li);
      }
    },
    /** A feed line: a scan (`scan`) or an undone scan (`scan_undone`), newest first. */
    feed(kind, scan, name) {
      const ol = $('desk-feed');
      const by = scan.scanner ? ` by ${scan.scanner.name}` : '';
      let what = scan.type === 'exit' ? 'left' : 'checked in';
      if (scan.forced) what = 'let in anyway';
      if (kind !== 'scan') what = 'check-in undone';
      const li = el('li', `${time(scan.scanned_at)} ${name} ${what} (${contextName(scan.scan_context_id)})${by}`);
      if (kind !== 'scan') li.className = 'desk-undone';
      ol.prepend(li);
      while (ol.children.length > FEED_MAX) ol.lastElementChild.remove();
    },
    /** Online or offline, and how many scans wait on this device. */
    network(online, waiting) {
      $('desk-net').textContent = online ? 'Online' : 'Offline: check-ins are kept on this device';
      $('desk-net').className = online ? 'desk-online' : 'desk-offline';
      $('desk-queue').textContent = waiting === 1 ? '1 scan waiting to be sent' : `${waiting} scans waiting to be sent`;
    },
    /** Whether the live feed is connected. */
    live(connected) {
      $('desk-live').textContent = connected ? 'Live' : 'Reconnecting…';
    },
    camera(on) {
      $('desk-video').hidden = !on;
      $('desk-scan').textContent = on ? 'Stop camera' : 'Scan';
    },
    /** Announces a message (kept on screen until the next one). */
    say(text) {
      $('desk-message').textContent = text;
    },
  };
}
