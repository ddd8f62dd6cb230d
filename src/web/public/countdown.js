// Waits on the sign-in screens count down where they are shown (<span data-countdown="seconds">): a child
// sees the wait shrink instead of guessing when to try again. Meanwhile the sign-in form's buttons (the
// picture keys, Sign in) are held, so that a child does not tap on into another refusal, and they come
// back when the wait is over; the way out (Cancel) stays. Without JavaScript the text stays as sent, the
// buttons work, and the server answers 429 until the wait is over.
(() => {
  const spans = [...document.querySelectorAll('[data-countdown]')];
  if (!spans.length) return;
  const ends = spans.map((span) => Date.now() + Number(span.dataset.countdown) * 1000);
  const held = [...document.querySelectorAll('form:not(.secondary) button:not([disabled])')];
  const hold = (on) => held.forEach((button) => { button.disabled = on; });
  const say = (s) => (s <= 0 ? 'a moment — try again now' : s === 1 ? '1 second' : s < 90 ? `${s} seconds` : `${Math.ceil(s / 60)} minutes`);
  const tick = () => {
    let running = false;
    spans.forEach((span, i) => {
      const left = Math.max(0, Math.ceil((ends[i] - Date.now()) / 1000));
      span.textContent = say(left);
      if (left > 0) running = true;
    });
    if (running) setTimeout(tick, 1000);
    else hold(false);
  };
  hold(ends.some((end) => end > Date.now()));
  setTimeout(tick, 1000);
})();
