// Emoji keyboard, enhanced: taps and tabs stay in the page instead of posting the form (it works without this
// file). The slots show the pictures tapped, the status says the count, the tabs become a tab list (arrow keys
// between tabs) and each page of pictures one Tab stop (a roving tabindex: arrow keys between pictures).
(() => {
  const form = document.querySelector('[data-emoji-form]');
  if (!form) return;
  const value = form.querySelector('[data-emoji-value]');
  const at = form.querySelector('[data-emoji-at]');
  const slots = [...form.querySelectorAll('[data-emoji-slots] .emoji-slot')];
  const slotRow = form.querySelector('[data-emoji-slots]');
  const status = form.querySelector('[data-emoji-status]');
  const said = JSON.parse(status.dataset.said || '[]');
  const max = slots.length;
  const digits = new Intl.NumberFormat(document.documentElement.lang || undefined);
  const go = form.querySelector('button.go');
  const rtl = () => getComputedStyle(form).direction === 'rtl';
  const chosen = () => (value.value ? value.value.split(',') : []);
  const glyphOf = (name) => {
    const key = form.querySelector(`button[name="add"][value="${CSS.escape(name)}"]`);
    return key ? key.textContent.trim() : '';
  };

  const render = (list) => {
    value.value = list.join(',');
    slots.forEach((slot, i) => {
      slot.textContent = i < list.length ? glyphOf(list[i]) : '';
      slot.classList.toggle('filled', i < list.length);
      slot.classList.toggle('next', i === list.length);
    });
    slotRow.classList.remove('shake');
    // The count's sentence in the page's language (data-said); without one, the count in the page's digits, no words.
    status.textContent = said[list.length] ?? `${digits.format(list.length)} / ${digits.format(max)}`;
  };

  // Pages: the tab buttons switch in place (without this file each is a form post naming the page).
  const tabList = form.querySelector('[data-emoji-tabs]');
  const tabs = [...tabList.querySelectorAll('button[name="page"]')];
  const pages = [...form.querySelectorAll('[data-emoji-page]')];
  const hint = form.querySelector('[data-emoji-hint]');
  tabList.setAttribute('role', 'tablist');
  tabs.forEach((tab) => {
    tab.setAttribute('role', 'tab');
    tab.removeAttribute('aria-current');
  });
  pages.forEach((page) => {
    page.setAttribute('role', 'tabpanel');
    page.removeAttribute('aria-label');
    page.setAttribute('aria-labelledby', `emoji-tab-${page.dataset.emojiPage}`);
    if (hint) page.setAttribute('aria-describedby', hint.id);
  });

  // Each page is one Tab stop: arrow keys move between its pictures, Enter or Space taps one.
  let keys = [];
  let current = 0;
  const rove = (index, focus) => {
    if (keys[current]) keys[current].tabIndex = -1;
    current = Math.max(0, Math.min(keys.length - 1, index));
    keys[current].tabIndex = 0;
    if (focus) keys[current].focus();
  };
  const show = (id, focusTab) => {
    tabs.forEach((tab) => {
      const on = tab.value === id;
      tab.setAttribute('aria-selected', String(on));
      tab.tabIndex = on ? 0 : -1;
      if (on && focusTab) tab.focus();
    });
    pages.forEach((page) => { page.hidden = page.dataset.emojiPage !== id; });
    at.value = id;
    form.querySelectorAll('button[name="add"]').forEach((key) => { key.tabIndex = -1; });
    keys = [...form.querySelectorAll(`[data-emoji-page="${CSS.escape(id)}"] button[name="add"]`)];
    current = 0;
    rove(0, false);
  };
  show(at.value || tabs[0].value, false);

  tabList.addEventListener('keydown', (event) => {
    const index = tabs.indexOf(event.target);
    if (index < 0 || event.altKey || event.ctrlKey || event.metaKey) return;
    const forward = rtl() ? 'ArrowLeft' : 'ArrowRight';
    const back = rtl() ? 'ArrowRight' : 'ArrowLeft';
    const to = { [forward]: (index + 1) % tabs.length, [back]: (index - 1 + tabs.length) % tabs.length, Home: 0, End: tabs.length - 1 }[event.key];
    if (to === undefined) return;
    event.preventDefault();
    show(tabs[to].value, true);
  });

  const columns = (grid) => getComputedStyle(grid).gridTemplateColumns.split(' ').length || 1;
  pages.forEach((grid) => grid.addEventListener('keydown', (event) => {
    const index = keys.indexOf(event.target);
    if (index < 0 || event.altKey || event.ctrlKey || event.metaKey) return;
    const cols = columns(grid);
    const row = index - (index % cols);
    const next = rtl() ? 'ArrowLeft' : 'ArrowRight';
    const previous = rtl() ? 'ArrowRight' : 'ArrowLeft';
    const moves = {
      [next]: index + 1,
      [previous]: index - 1,
      ArrowDown: index + cols < keys.length ? index + cols : index,
      ArrowUp: index - cols >= 0 ? index - cols : index,
      Home: row,
      End: Math.min(row + cols, keys.length) - 1,
    };
    if (!(event.key in moves)) return;
    event.preventDefault();
    rove(moves[event.key], true);
  }));
  form.addEventListener('focusin', (event) => {
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
      if (list.length + 1 >= max) go.focus();
    } else if (button.name === 'del') {
      event.preventDefault();
      render(chosen().slice(0, -1));
    } else if (button.name === 'page') {
      event.preventDefault();
      show(button.value, true);
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
