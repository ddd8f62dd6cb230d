// Waits on the sign-in screens count down where they are shown (<span data-countdown="seconds">, in the page's
// language: data-countdown-words holds the message's plural forms, src/web/waits.ts): a child sees the wait
// shrink instead of guessing when to try again. A ring beside it (data-countdown-ring, the emoji keyboard)
// empties over exactly the wait: its CSS animation is given the wait's length here, and its number counts.
// Meanwhile the sign-in form's buttons (the picture keys, Sign in) are held, so that a child does not tap on
// into another refusal, and they come back when the wait is over; the way out (Cancel) stays. Without
// JavaScript the text stays as sent, the buttons work, and the server answers 429 until the wait is over.
(() => {
  const spans = [...document.querySelectorAll('[data-countdown]')];
  const rings = [...document.querySelectorAll('[data-countdown-ring]')];
  if (!spans.length && !rings.length) return;
  const lang = document.documentElement.lang || 'en';
  const plural = new Intl.PluralRules(lang);
  const number = new Intl.NumberFormat(lang);
  const start = Date.now();
  const endOf = (el, attribute) => start + Number(el.getAttribute(attribute)) * 1000;
  const ends = spans.map((span) => endOf(span, 'data-countdown'));
  const ringEnds = rings.map((ring) => endOf(ring, 'data-countdown-ring'));
  const say = (span, s) => {
    let words;
    try { words = JSON.parse(span.dataset.countdownWords || ''); } catch { words = undefined; }
    // No words to say it in (a span without them): its text stays as the page sent it, in the page's language.
    if (!words) return undefined;
    if (s <= 0) return words.now;
    const [forms, n] = s < 90 ? [words.seconds, s] : [words.minutes, Math.ceil(s / 60)];
    return (forms[plural.select(n)] ?? forms.other ?? '#').replace('#', number.format(n));
  };
  const held = [...document.querySelectorAll('form:not(.secondary) button:not([disabled])')];
  const hold = (on) => held.forEach((button) => { button.disabled = on; });
  rings.forEach((ring, i) => {
    ring.style.setProperty('--wait', `${Math.max(0, (ringEnds[i] - start) / 1000)}s`);
    ring.classList.add('is-counting');
  });
  const left = (end) => Math.max(0, Math.ceil((end - Date.now()) / 1000));
  const tick = () => {
    let running = false;
    spans.forEach((span, i) => {
      const s = left(ends[i]);
      const words = say(span, s);
      if (words !== undefined) span.textContent = words;
      if (s > 0) running = true;
    });
    rings.forEach((ring, i) => {
      const s = left(ringEnds[i]);
      const shown = ring.querySelector('[data-countdown-number]');
      if (shown) shown.textContent = s > 0 ? number.format(s) : '👍';
      ring.classList.toggle('is-done', s <= 0);
      if (s > 0) running = true;
    });
    if (running) setTimeout(tick, 1000);
    else hold(false);
  };
  hold([...ends, ...ringEnds].some((end) => end > Date.now()));
  setTimeout(tick, 1000);
})();
