// The check-in desk's browser storage (IndexedDB), one database per signed-in user:
// `muster-desk-u<user id>` with two object stores:
//   queue  – scans not yet confirmed by the server, keyed by client_scan_id:
//            { client_scan_id, event_id, scan: <BulkScanItem>, label, queued_at }
//   roster – the participant list for offline search, keyed by event id:
//            { event_id, participants: [DeskParticipant], saved_at }
// Sign-out deletes every desk database (forgetAll), so nothing outlives the session.

const PREFIX = 'muster-desk-u';

/** Wraps an IDBRequest in a promise. */
function done(request) {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

/** Opens (creating on first use) the desk database of `userId`. */
export async function openStore(userId) {
  const open = indexedDB.open(PREFIX + userId, 1);
  open.onupgradeneeded = () => {
    const db = open.result;
    db.createObjectStore('queue', { keyPath: 'client_scan_id' }).createIndex('event', 'event_id');
    db.createObjectStore('roster', { keyPath: 'event_id' });
  };
  const db = await done(open);
  // Another tab signing out deletes the database: let it.
  db.onversionchange = () => db.close();
  const tx = (store, mode) => db.transaction(store, mode).objectStore(store);
  return {
    /** Adds a scan to the queue (it stays until the server has answered for it). */
    enqueue: (item) => done(tx('queue', 'readwrite').put(item)),
    /** The event's queued scans, oldest first. */
    queued: async (eventId) => {
      const items = await done(tx('queue', 'readonly').index('event').getAll(eventId));
      return items.sort((a, b) => a.queued_at.localeCompare(b.queued_at));
    },
    /** Removes scans from the queue by client_scan_id. */
    dequeue: async (ids) => {
      const store = tx('queue', 'readwrite');
      await Promise.all(ids.map((id) => done(store.delete(id))));
    },
    /** Number of the event's queued scans. */
    count: (eventId) => done(tx('queue', 'readonly').index('event').count(eventId)),
    saveRoster: (eventId, participants) =>
      done(tx('roster', 'readwrite').put({ event_id: eventId, participants, saved_at: new Date().toISOString() })),
    /** The cached participant list of the event, or null. */
    roster: async (eventId) => (await done(tx('roster', 'readonly').get(eventId)))?.participants ?? null,
    /** Drops the cached list (the caller may no longer see it). */
    dropRoster: (eventId) => done(tx('roster', 'readwrite').delete(eventId)),
    close: () => db.close(),
  };
}

/** Deletes every desk database of this browser (sign-out). */
export async function forgetAll() {
  const dbs = indexedDB.databases ? await indexedDB.databases() : [];
  await Promise.all(
    dbs.filter((d) => d.name?.startsWith(PREFIX)).map((d) => done(indexedDB.deleteDatabase(d.name))),
  );
}

/** A client_scan_id: random, works outside secure contexts (crypto.randomUUID needs https). */
export function newScanId() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return `desk-${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`;
}

/** Sign-out forgets this device's desk data (queued scans of `eventId` first need a confirmation). */
export function guardSignOut(store, eventId) {
  for (const form of document.querySelectorAll('form[action="/signout"]')) {
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      const waiting = await store.count(eventId);
      if (waiting > 0 && !window.confirm(globalThis.musterStrings.plural('scripts.desk.sign_out_unsent', waiting))) return;
      store.close();
      await forgetAll();
      form.submit();
    });
  }
}
