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
