// What the check-in desk shows: search results with their one-tap buttons, the last check-in with
// its Undo, the live feed, the network state with the number of scans waiting, and messages (a
// polite live region, so screen readers hear each outcome). DOM only: no fetches, no storage.
// Text is always set with textContent (names come from people, never parsed as HTML).

const $ = (id) => document.getElementById(id);
const FEED_MAX = 50;

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

const time = (iso) => new Date(iso).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });

/** `contextName(id)`; `onCheckIn({participantId, label, source, pe})`; `onUndo({...})`. */
export function createView({ contextName, onCheckIn, onUndo }) {
  return {
    /** Redraws the result list for the chosen context (`searched`: a term was given). */
    results(list, contextId, searched) {
      const ul = $('desk-results');
      ul.replaceChildren();
      if (list.length === 0 && searched) ul.append(el('li', 'Nobody found.', 'desk-empty'));
      for (const p of list) {
        const li = el('li', undefined, 'desk-person');
        const who = el('div');
        who.append(el('strong', p.display_name));
        if (p.full_name !== p.display_name) who.append(el('span', ` (${p.full_name})`));
        who.append(el('span', ` · ${p.status.replace('_', ' ')}`, 'desk-meta'));
        li.append(who);
        const target = { participantId: String(p.participant_event_id), label: p.display_name, pe: p.participant_event_id };
        if (p.scanned_context_ids.includes(contextId)) {
          li.append(el('span', 'Checked in', 'desk-done'));
          li.append(button(`Undo ${p.display_name}`, () => onUndo({ ...target, contextId }), 'secondary'));
        } else {
          const b = button(`Check in ${p.display_name}`, () => onCheckIn({ ...target, source: 'manual' }));
          li.append(b);
        }
        ul.append(li);
      }
    },
    /** The last check-in made on this device, with its Undo button (null: none). */
    last(entry) {
      const box = $('desk-last');
      box.replaceChildren();
      box.hidden = entry === null;
      if (!entry) return;
      box.append(el('span', `Last: ${entry.label} in ${contextName(entry.contextId)}. `));
      box.append(button('Undo last check-in', () => onUndo(entry), 'secondary'));
    },
    /** A feed line: a scan (`scan`) or an undone scan (`scan_undone`), newest first. */
    feed(kind, scan, name) {
      const ol = $('desk-feed');
      const by = scan.scanner ? ` by ${scan.scanner.name}` : '';
      const what = kind === 'scan' ? 'checked in' : 'check-in undone';
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
      $('desk-camera').textContent = on ? 'Stop camera' : 'Scan with camera';
    },
    /** Announces a message (kept on screen until the next one). */
    say(text) {
      $('desk-message').textContent = text;
    },
  };
}
