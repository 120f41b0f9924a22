// Arrivals board (docs/travel.md "Arrivals board"): fetches the board fragment every
// `data-refresh` seconds and swaps it in, so delays and landings appear without a reload. Focus is
// left where it is (a refresh is not a navigation); a failed fetch keeps the last board.
const status = document.getElementById('board-refresh');
const board = document.getElementById('board');
if (status && board) {
  const url = status.dataset.boardUrl;
  const seconds = Math.max(2, Number(status.dataset.refresh) || 30);
  const refresh = async () => {
    try {
      const res = await fetch(url, { credentials: 'same-origin', headers: { accept: 'text/html' } });
      if (res.ok) board.innerHTML = await res.text();
    } catch {
      // offline for a moment: try again at the next tick
    }
  };
  setInterval(refresh, seconds * 1000);
}
