// The rooming board's drag-and-drop (docs/rooming.md "Pages"): dropping a person's card on a room
// chooses that room in the card's own list and sends the card's Move form, exactly as the keyboard
// way does (the list and the Move button work without this script). A move that breaks a rule
// comes back with the warning and the reason field.
(() => {
  const board = document.querySelector('.board');
  if (!board) return;
  let dragged = null;
  board.addEventListener('dragstart', (e) => {
    const card = e.target.closest?.('.person[data-person-id]');
    if (!card) return;
    dragged = card;
    e.dataTransfer.effectAllowed = 'move';
    e.dataTransfer.setData('text/plain', card.dataset.personId);
  });
  const columnOf = (e) => e.target.closest?.('.board-col[data-room-id]');
  board.addEventListener('dragover', (e) => {
    const col = columnOf(e);
    if (!col || !dragged) return;
    e.preventDefault();
    col.classList.add('drop-target');
  });
  board.addEventListener('dragleave', (e) => {
    const col = columnOf(e);
    if (col && !col.contains(e.relatedTarget)) col.classList.remove('drop-target');
  });
  board.addEventListener('drop', (e) => {
    const col = columnOf(e);
    if (!col || !dragged) return;
    e.preventDefault();
    col.classList.remove('drop-target');
    const form = dragged.querySelector('form.move-form');
    const select = form?.querySelector('select[name=room_id]');
    dragged = null;
    if (!form || !select || select.value === col.dataset.roomId) return;
    select.value = col.dataset.roomId;
    form.requestSubmit();
  });
  board.addEventListener('dragend', () => {
    dragged = null;
    for (const c of board.querySelectorAll('.drop-target')) c.classList.remove('drop-target');
  });
})();
