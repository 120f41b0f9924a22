// The words of the page's scripts (docs/languages.md "Browser scripts"): the server renders the
// catalog messages the scripts show, in the page's language, into <script type="application/json"
// id="strings">; scripts read them by key through globalThis.musterStrings:
//   t('desk.checked_in', { name })       → the message with its {name} arguments filled in;
//   plural('desk.waiting', count, vars)  → `desk.waiting_<one|other|…>` by Intl.PluralRules of the
//                                          page's language, `{count}` filled in as a number.
// A key the page lacks shows as itself (a missing word is visible, never an empty message).
(() => {
  let words = null;
  const read = () => {
    words ??= JSON.parse(document.getElementById('strings')?.textContent || '{}');
    return words;
  };
  const lang = () => document.documentElement.lang || 'en';
  const fill = (message, vars = {}) =>
    message.replace(/\{(\w+)\}/g, (all, name) => (name in vars ? String(vars[name]) : all));
  const t = (key, vars) => fill(read()[key] ?? key, vars);
  const plural = (key, count, vars = {}) => {
    const all = read();
    const form = new Intl.PluralRules(lang()).select(count);
    const message = all[`${key}_${form}`] ?? all[`${key}_other`] ?? key;
    return fill(message, { ...vars, count: new Intl.NumberFormat(lang()).format(count) });
  };
  globalThis.musterStrings = { t, plural };
})();
