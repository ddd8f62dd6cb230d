// "Print" buttons (the recovery codes): the page's print style sheet leaves out the menu and the buttons.
document.querySelectorAll('[data-print]').forEach((button) => {
  button.hidden = false;
  button.addEventListener('click', () => window.print());
});

// "Copy" buttons next to a value shown once (a new client secret, an API token). Without JavaScript the
// value is still there to select by hand; the button only appears when the clipboard can be used.
document.querySelectorAll('[data-copy]').forEach((button) => {
  const target = document.getElementById(button.getAttribute('data-copy'));
  if (!target || !navigator.clipboard) return;
  button.hidden = false;
  button.addEventListener('click', async () => {
    try {
      await navigator.clipboard.writeText(target.textContent.trim());
      button.textContent = 'Copied';
    } catch {
      button.textContent = 'Select and copy by hand';
    }
  });
});
