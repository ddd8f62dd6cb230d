// Waits on the sign-in screens count down where they are shown (<span data-countdown="seconds">): a child
// sees the wait shrink instead of guessing when to try again. Without JavaScript the text stays as sent.
(() => {
  const spans = [...document.querySelectorAll('[data-countdown]')];
  if (!spans.length) return;
  const ends = spans.map((span) => Date.now() + Number(span.dataset.countdown) * 1000);
  const say = (s) => (s <= 0 ? 'a moment — try again now' : s === 1 ? '1 second' : s < 90 ? `${s} seconds` : `${Math.ceil(s / 60)} minutes`);
  const tick = () => {
    let running = false;
    spans.forEach((span, i) => {
      const left = Math.max(0, Math.ceil((ends[i] - Date.now()) / 1000));
      span.textContent = say(left);
      if (left > 0) running = true;
    });
    if (running) setTimeout(tick, 1000);
  };
  setTimeout(tick, 1000);
})();
