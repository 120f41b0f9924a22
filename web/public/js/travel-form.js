// The travel form's extras (docs/travel.md "Travel form"), on top of plain inputs that work alone:
// - each airport field (input[data-airport]) becomes a combobox (WAI-ARIA 1.2 pattern: role
//   combobox, aria-expanded, aria-controls → a listbox, aria-activedescendant; arrows, Enter,
//   Escape) fed by GET /api/v1/travel/search_airports; choosing an airport writes its IATA code;
// - each flight number gets a date and a "Check this flight" button: POST
//   /api/v1/travel/validate_flight (the form's CSRF token in x-csrf-token), and the answer fills the
//   flight's airports and times (and the journey's airline and mode), or a plain message says why not.
// - each leg time (entered in UTC) shows its reading on its airport's clock below it
//   (p[data-local-of]: "Local time at LHR: Thu 9 Jul, 14:05 BST"), updated as the time or the
//   airport changes; the zone comes from the airport search's `time_zone`.
// Every text comes from the form's data-flight-texts (the page's language). No innerHTML.
// Used by the participant's Travel section and the staff participant page's travel edit.
// Staff participant pages swap the section's form in with htmx: forms arriving later are enhanced
// on `htmx:load`; each form once.
const enhance = (form) => {
  if (form.dataset.enhanced) return;
  form.dataset.enhanced = 'true';
  const texts = JSON.parse(form.dataset.flightTexts);
  const csrf = form.querySelector('input[name="_csrf"]')?.value ?? '';
  const fill = (text, values) => text.replace(/\{(\w+)\}/g, (all, k) => (k in values ? String(values[k]) : all));
  const field = (name) => form.querySelector(`[name="${CSS.escape(name)}"]`);
  const el = (tag, attrs = {}, text = '') => {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
    if (text) node.textContent = text;
    return node;
  };
  const describedBy = (input, id) => {
    const ids = (input.getAttribute('aria-describedby') ?? '').split(' ').filter(Boolean);
    if (!ids.includes(id)) input.setAttribute('aria-describedby', [...ids, id].join(' '));
  };
  const searchAirports = async (q) => {
    const res = await fetch(`/api/v1/travel/search_airports?q=${encodeURIComponent(q)}`, {
      credentials: 'same-origin',
      headers: { accept: 'application/json' },
    });
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    return (await res.json()).airports;
  };
  const airportName = (a) => [a.name, a.city, a.country].filter(Boolean).join(', ');

  /** One airport input as a combobox; returns `describe(code)`, which shows a code's airport name. */
  const combobox = (input) => {
    const listId = `${input.id}-list`;
    const label = form.querySelector(`label[for="${CSS.escape(input.id)}"]`);
    if (label && !label.id) label.id = `${input.id}-label`;
    const listbox = el('ul', { id: listId, role: 'listbox', class: 'combo-list' });
    if (label) listbox.setAttribute('aria-labelledby', label.id);
    listbox.hidden = true;
    const chosen = el('p', { id: `${input.id}-airport`, class: 'hint airport-name' });
    const status = el('p', { class: 'visually-hidden', role: 'status' });
    const wrap = el('div', { class: 'combo' });
    input.replaceWith(wrap);
    wrap.append(input, listbox, chosen, status);
    Object.entries({
      role: 'combobox',
      'aria-autocomplete': 'list',
      'aria-expanded': 'false',
      'aria-controls': listId,
    }).forEach(([k, v]) => input.setAttribute(k, v));
    describedBy(input, chosen.id);
    let items = [];
    let active = -1;
    let seq = 0;
    let timer;
    const close = () => {
      listbox.hidden = true;
      input.setAttribute('aria-expanded', 'false');
      input.removeAttribute('aria-activedescendant');
      active = -1;
    };
    const show = (list) => {
      items = list;
      listbox.replaceChildren(
        ...list.map((a, i) => {
          const li = el('li', { id: `${listId}-${i}`, role: 'option', 'aria-selected': 'false' });
          li.append(el('strong', {}, a.iata), ` ${airportName(a)}`);
          li.addEventListener('mousedown', (e) => e.preventDefault()); // keep focus in the input
          li.addEventListener('click', () => pick(i));
          return li;
        }),
      );
      active = -1;
      input.removeAttribute('aria-activedescendant');
      if (list.length === 0) {
        close();
        status.textContent = texts.no_airports;
        return;
      }
      listbox.hidden = false;
      input.setAttribute('aria-expanded', 'true');
      status.textContent = fill(texts.airports_found, { count: list.length });
    };
    const move = (step) => {
      if (items.length === 0) return;
      if (listbox.hidden) show(items);
      active = (active + step + items.length) % items.length;
      [...listbox.children].forEach((li, i) => li.setAttribute('aria-selected', String(i === active)));
      const li = listbox.children[active];
      input.setAttribute('aria-activedescendant', li.id);
      li.scrollIntoView({ block: 'nearest' });
    };
    const pick = (i) => {
      const a = items[i];
      input.value = a.iata;
      input.dispatchEvent(new Event('change', { bubbles: true }));
      chosen.textContent = airportName(a);
      close();
      input.focus();
    };
    const search = async (q) => {
      const mine = ++seq;
      try {
        const list = await searchAirports(q);
        if (mine === seq) show(list);
      } catch {
        if (mine === seq) close(); // the plain input still works
      }
    };
    input.addEventListener('input', () => {
      clearTimeout(timer);
      chosen.textContent = '';
      const q = input.value.trim();
      if (q.length < 2) {
        seq++;
        items = [];
        close();
        return;
      }
      timer = setTimeout(() => search(q), 200);
    });
    input.addEventListener('keydown', (e) => {
      const open = !listbox.hidden;
      if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
        e.preventDefault();
        move(e.key === 'ArrowDown' ? 1 : -1);
      } else if (e.key === 'Enter' && open && active >= 0) {
        e.preventDefault(); // choose, do not submit the form
        pick(active);
      } else if (e.key === 'Escape' && open) {
        e.preventDefault();
        close();
      }
    });
    input.addEventListener('blur', close);
    const describe = async (code) => {
      chosen.textContent = '';
      if (!/^[A-Za-z]{3}$/.test(code)) return;
      try {
        const a = (await searchAirports(code)).find((x) => x.iata === code.toUpperCase());
        if (a) chosen.textContent = airportName(a);
      } catch {
        // the name is a help, not needed
      }
    };
    if (input.value.trim()) describe(input.value.trim());
    return describe;
  };

  // Each leg time's reading on its airport's clock, as the server renders it (travel-form.ts localTimes).
  const zones = new Map();
  const zoneOf = (code) => {
    if (!zones.has(code))
      zones.set(
        code,
        searchAirports(code)
          .then((list) => list.find((a) => a.iata === code)?.time_zone ?? null)
          .catch(() => null),
      );
    return zones.get(code);
  };
  const clock = (timeZone) =>
    new Intl.DateTimeFormat('en-GB', {
      timeZone,
      weekday: 'short',
      day: 'numeric',
      month: 'short',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
      timeZoneName: 'short',
    });
  const showLocal = async (p) => {
    const mine = (p.seq = (p.seq ?? 0) + 1);
    const time = document.getElementById(p.id.slice(0, -'-local'.length))?.value ?? '';
    const code = (field(p.dataset.localOf)?.value ?? '').trim().toUpperCase();
    const ok = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(time) && /^[A-Z]{3}$/.test(code);
    const zone = ok ? await zoneOf(code) : null;
    if (mine !== p.seq) return; // a newer change answered meanwhile
    p.textContent = zone ? fill(texts.local_time, { code, time: clock(zone).format(new Date(`${time.slice(0, 16)}:00Z`)) }) : '';
  };
  const refreshLocal = () => {
    for (const p of form.querySelectorAll('p[data-local-of]')) showLocal(p);
  };
  form.addEventListener('input', refreshLocal);
  form.addEventListener('change', refreshLocal);

  const describers = new Map();
  for (const input of form.querySelectorAll('input[data-airport]')) describers.set(input.name, combobox(input));

  /** "Check this flight" under one flight number (`travel_inbound.legs[0].flight_code`). */
  const flightCheck = (input) => {
    const leg = input.name.slice(0, -'flight_code'.length); // `travel_inbound.legs[0].`
    const journey = leg.slice(0, leg.indexOf('.'));
    const departure = field(`${leg}departure_time`);
    const box = el('div', { class: 'flight-check' });
    const dateId = `${input.id}-date`;
    const date = el('input', { type: 'date', id: dateId });
    if (departure?.value) date.value = departure.value.slice(0, 10);
    const button = el('button', { type: 'button', class: 'secondary' }, texts.check);
    const result = el('p', { id: `${input.id}-check`, class: 'flight-result', role: 'status' });
    box.append(el('label', { for: dateId }, texts.check_date), date, button, result);
    input.after(box);
    const say = (text, kind) => {
      result.textContent = text;
      result.className = `flight-result${kind ? ` ${kind}` : ''}`;
    };
    const set = (name, value) => {
      const target = field(name);
      if (target && value) {
        target.value = value;
        target.dispatchEvent(new Event('change', { bubbles: true }));
      }
    };
    button.addEventListener('click', async () => {
      const code = input.value.trim();
      if (!code || !date.value) {
        say(texts.need_code, 'error');
        (code ? date : input).focus();
        return;
      }
      say(texts.checking);
      let res;
      try {
        res = await fetch('/api/v1/travel/validate_flight', {
          method: 'POST',
          credentials: 'same-origin',
          headers: { 'content-type': 'application/json', accept: 'application/json', 'x-csrf-token': csrf },
          body: JSON.stringify({ flight_code: code, date: date.value }),
        });
      } catch {
        return say(texts.unavailable, 'error');
      }
      if (res.status === 422) return say(texts.bad_code, 'error');
      if (!res.ok) return say(texts.unavailable, 'error');
      const answer = await res.json();
      if (!answer.valid) return say(answer.error, 'error');
      input.value = answer.flight_code;
      if (answer.source === 'format_only') return say(fill(texts.format_only, { code: answer.flight_code }), 'ok');
      set(`${leg}departure_airport`, answer.departure_airport);
      set(`${leg}arrival_airport`, answer.arrival_airport);
      set(`${leg}departure_time`, answer.departure_time?.slice(0, 16));
      set(`${leg}arrival_time`, answer.arrival_time?.slice(0, 16));
      set(`${journey}.carrier`, answer.carrier);
      const mode = field(`${journey}.mode`);
      if (mode) mode.value = 'plane'; // a flight the provider knows: this journey is by plane
      for (const key of ['departure_airport', 'arrival_airport']) {
        const describe = describers.get(`${leg}${key}`);
        if (describe && answer[key]) describe(answer[key]);
      }
      say(
        fill(texts.found, {
          code: answer.flight_code,
          carrier: answer.carrier ? `${answer.carrier}, ` : '',
          from: answer.departure_airport ?? '?',
          to: answer.arrival_airport ?? '?',
        }),
        'ok',
      );
    });
  };
  for (const input of form.querySelectorAll('input[name$=".flight_code"]')) flightCheck(input);
};
const enhanceIn = (root) => {
  if (root.matches?.('form[data-flight-texts]')) enhance(root);
  for (const form of root.querySelectorAll?.('form[data-flight-texts]') ?? []) enhance(form);
};
enhanceIn(document);
document.addEventListener('htmx:load', (e) => enhanceIn(e.target));
