// The rooming board's drag-and-drop (docs/rooming.md "Pages"): dropping a person's card on a room
// chooses that room in the card's own list and sends the card's Move form, exactly as the keyboard
// way does (the list and the Move button work without this script; on a large board, whose cards
// carry no list, the same form is built and sent). A move that breaks a rule comes back with the
// warning and the reason field.
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
    const card = dragged;
    dragged = null;
    const form = card.querySelector('form.move-form');
    const select = form?.querySelector('select[name=room_id]');
    if (form && select) {
      if (select.value === col.dataset.roomId) return;
      select.value = col.dataset.roomId;
      form.requestSubmit();
      return;
    }
    // A large board carries no list on each card: send the same form, built here.
    const token = document.querySelector('input[name=_csrf]');
    if (!token || card.closest('.board-col') === col) return;
    const built = document.createElement('form');
    built.method = 'post';
    built.action = board.dataset.moveUrl;
    for (const [name, value] of [
      ['_csrf', token.value],
      ['participant_event_id', card.dataset.personId],
      ['room_id', col.dataset.roomId],
    ]) {
      const input = document.createElement('input');
      input.type = 'hidden';
      input.name = name;
      input.value = value;
      built.append(input);
    }
    document.body.append(built);
    built.submit();
  });
  board.addEventListener('dragend', () => {
    dragged = null;
    for (const c of board.querySelectorAll('.drop-target')) c.classList.remove('drop-target');
  });
})();
