// Emoji keyboard, enhanced: taps stay in the page instead of posting the form (it works without this file).
(() => {
  const form = document.querySelector('[data-emoji-form]');
  if (!form) return;
  const value = form.querySelector('[data-emoji-value]');
  const dots = form.querySelectorAll('[data-emoji-dots] .dot');
  const status = form.querySelector('[data-emoji-status]');
  const max = dots.length;
  const chosen = () => (value.value ? value.value.split(',') : []);

  const render = (list) => {
    value.value = list.join(',');
    dots.forEach((dot, i) => {
      dot.classList.toggle('filled', i < list.length);
    });
    status.textContent = `${list.length} of ${max} pictures chosen`;
  };

  // The grid is one Tab stop (a roving tabindex): arrow keys move between the pictures, Enter or Space taps
  // one. Without this file every picture is its own Tab stop, which is 84 presses to cross the keyboard.
  const grid = form.querySelector('[data-emoji-grid]');
  const keys = [...grid.querySelectorAll('button[name="add"]')];
  let current = 0;
  const rove = (index, focus) => {
    keys[current].tabIndex = -1;
    current = Math.max(0, Math.min(keys.length - 1, index));
    keys[current].tabIndex = 0;
    if (focus) keys[current].focus();
  };
  keys.forEach((key) => { key.tabIndex = -1; });
  rove(0, false);
  const hint = form.querySelector('[data-emoji-hint]');
  if (hint) grid.setAttribute('aria-describedby', hint.id);
  const columns = () => getComputedStyle(grid).gridTemplateColumns.split(' ').length || 1;
  grid.addEventListener('keydown', (event) => {
    const index = keys.indexOf(event.target);
    if (index < 0 || event.altKey || event.ctrlKey || event.metaKey) return;
    const row = index - (index % columns());
    const moves = {
      ArrowRight: index + 1,
      ArrowLeft: index - 1,
      ArrowDown: index + columns() < keys.length ? index + columns() : index,
      ArrowUp: index - columns() >= 0 ? index - columns() : index,
      Home: row,
      End: Math.min(row + columns(), keys.length) - 1,
    };
    if (!(event.key in moves)) return;
    event.preventDefault();
    rove(moves[event.key], true);
  });
  grid.addEventListener('focusin', (event) => {
    const index = keys.indexOf(event.target);
    if (index >= 0 && index !== current) rove(index, false);
  });

  form.addEventListener('click', (event) => {
    const button = event.target.closest('button');
    if (!button || !form.contains(button)) return;
    if (button.name === 'add') {
      event.preventDefault();
      const list = chosen();
      if (list.length < max) render([...list, button.value]);
      if (list.length + 1 >= max) form.querySelector('button[name="go"]').focus();
    } else if (button.name === 'del') {
      event.preventDefault();
      render(chosen().slice(0, -1));
    }
  });
  // Backspace anywhere but in the name field removes the last picture.
  document.addEventListener('keydown', (event) => {
    if (event.key === 'Backspace' && !(event.target instanceof HTMLInputElement)) {
      event.preventDefault();
      render(chosen().slice(0, -1));
    }
  });
})();
