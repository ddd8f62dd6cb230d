// Rows of links that scroll sideways (.scroll-strip: the app's tabs, the developer area's menu on a phone):
// the current page's link is brought into view. Without JavaScript the row still scrolls by hand.
document.querySelectorAll('.scroll-strip').forEach((strip) => {
  const current = strip.querySelector('[aria-current="page"]');
  if (!current || strip.scrollWidth <= strip.clientWidth) return;
  const item = (current.closest('li') ?? current).getBoundingClientRect();
  const row = strip.getBoundingClientRect();
  // Only the row scrolls (never the page): the current link ends up in the row's middle where it can.
  strip.scrollLeft += item.left - row.left - (strip.clientWidth - item.width) / 2;
});
