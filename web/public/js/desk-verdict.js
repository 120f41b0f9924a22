// The door's verdict computed on this device (docs/checkin.md "Offline"), from the cached list's
// attention codes: the same rule as the server's (src/modules/checkin/verdict.ts verdictOf): an
// entry raising a code of the context's refuse list is refused, any code is a warning, none is
// admitted; an exit is never refused. `already_scanned` is added here for an entry into a context
// the person already has a scan in (outside presence contexts: offline the desk cannot know who
// left). The words are the server's (the page's data-messages), the medical one always generic.

/** `{verdict, attention: [{code, message}]}` of a scan of `person` (a DeskParticipant). */
export function localVerdict(person, { contextId, type, refuse, presence, messages }) {
  const codes = [...(person.attention_codes ?? [])];
  if (type === 'entry' && !presence && person.scanned_context_ids.includes(contextId)) codes.push('already_scanned');
  let verdict = codes.length > 0 ? 'warning' : 'admitted';
  if (type === 'entry' && codes.some((c) => refuse.includes(c))) verdict = 'refused';
  return { verdict, attention: codes.map((code) => ({ code, message: messages[code] ?? code })) };
}

/** The refusing codes in words, as the server's 409 says it. */
export function refusalText(attention, refuse) {
  const reasons = attention
    .filter((a) => refuse.includes(a.code))
    .map((a) => a.message)
    .join('; ');
  return globalThis.musterStrings.t('scripts.desk.not_admitted', { reasons });
}

const FEEDBACK_KEY = 'muster-desk-feedback';
/** Whether this device gives sound and vibration per verdict (the desk's checkbox; off by default). */
export const feedbackOn = () => localStorage.getItem(FEEDBACK_KEY) === 'on';
export const setFeedback = (on) => localStorage.setItem(FEEDBACK_KEY, on ? 'on' : 'off');

let audio = null;
/** A short tone: high for admitted, middle for a warning, two low ones for refused. */
function tone(verdict) {
  const notes = { admitted: [880], warning: [523], refused: [220, 220] }[verdict];
  if (!notes || typeof AudioContext !== 'function') return;
  audio ??= new AudioContext();
  notes.forEach((hz, i) => {
    const osc = audio.createOscillator();
    const gain = audio.createGain();
    gain.gain.value = 0.15;
    osc.frequency.value = hz;
    osc.connect(gain).connect(audio.destination);
    const at = audio.currentTime + i * 0.25;
    osc.start(at);
    osc.stop(at + 0.18);
  });
}

/** Sound and vibration per verdict when turned on (one buzz for admitted, longer for a warning, two for refused). */
export function buzz(verdict) {
  if (!feedbackOn()) return;
  const pattern = { admitted: 40, warning: 200, refused: [250, 120, 250] }[verdict];
  if (pattern && typeof navigator.vibrate === 'function') navigator.vibrate(pattern);
  tone(verdict);
}
