// Staff pages: a form with data-confirm="…" asks before it is sent (revoking a key, removing a
// role, revoking an invitation). Without JavaScript the form is sent directly.
document.addEventListener('submit', (event) => {
  const form = event.target;
  if (!(form instanceof HTMLFormElement)) return;
  const message = form.dataset.confirm;
  if (message && !window.confirm(message)) event.preventDefault();
});
