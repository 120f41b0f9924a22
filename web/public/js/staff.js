// Staff pages: after htmx replaces part of a page, move keyboard focus to the new content's heading
// (or the region itself) so screen-reader and keyboard users land where the page changed.
document.addEventListener('htmx:afterSwap', (event) => {
  const target = event.detail && event.detail.target;
  if (!(target instanceof HTMLElement)) return;
  const heading = target.querySelector('h2, h3, [data-focus]');
  const focusable = heading || target;
  if (!focusable.hasAttribute('tabindex')) focusable.setAttribute('tabindex', '-1');
  focusable.focus({ preventScroll: false });
});
