// Staff pages: after htmx replaces part of a page, move keyboard focus to the new content's heading
// (or the region itself) so screen-reader and keyboard users land where the page changed.
document.addEventListener('htmx:afterSwap', (event) => {
  // An outerHTML swap replaces the target: the event then fires on the new element instead.
  const swapped = event.detail && event.detail.target;
  const target = swapped instanceof HTMLElement && swapped.isConnected ? swapped : event.target;
  if (!(target instanceof HTMLElement)) return;
  // A region that updates itself (the participant page's history) never takes the focus.
  if (target.hasAttribute('data-live')) return;
  const heading = target.querySelector('h2, h3, [data-focus]');
  const focusable = heading || target;
  if (!focusable.hasAttribute('tabindex')) focusable.setAttribute('tabindex', '-1');
  focusable.focus({ preventScroll: false });
});

// A "Copy" button beside a secret shown once (data-copy="<field id>"): shown only with JavaScript;
// copies the field's value to the clipboard and says so in the status line beside it.
for (const button of document.querySelectorAll('button[data-copy]')) {
  const field = document.getElementById(button.dataset.copy);
  const status = document.getElementById(`${button.dataset.copy}-copied`);
  if (!(field instanceof HTMLInputElement)) continue;
  button.hidden = false;
  button.addEventListener('click', async () => {
    let copied = false;
    try {
      await navigator.clipboard.writeText(field.value);
      copied = true;
    } catch {
      field.select();
      copied = document.execCommand('copy');
    }
    if (status) status.textContent = globalThis.musterStrings.t(copied ? 'scripts.staff.copied' : 'scripts.staff.copy_failed');
  });
}

// "Tick every participant on this page" (data-select-all="<form id>"): shown only with JavaScript;
// ticks or clears every checkbox of that form. Bound on the document, so it also works after htmx
// replaces the table.
document.addEventListener('change', (event) => {
  const all = event.target;
  if (!(all instanceof HTMLInputElement) || !all.dataset.selectAll) return;
  for (const box of document.querySelectorAll(`input[type=checkbox][form="${all.dataset.selectAll}"]`))
    box.checked = all.checked;
});
const showSelectAll = () => {
  for (const all of document.querySelectorAll('input[data-select-all]')) all.hidden = false;
};
showSelectAll();
document.addEventListener('htmx:afterSwap', showSelectAll);
