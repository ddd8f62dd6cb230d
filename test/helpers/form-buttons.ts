import type { Page } from 'playwright-core';

/**
 * The visible submit buttons of the page's forms, and of its one-button forms that stand alone (a list's
 * row buttons left out), that are narrower than the block they sit in, by their text: on a phone, none should be
 * (every form's button spans the card, as on the app pages); beside a wider screen's fields each is as wide as
 * its words.
 */
const SUBMITS = 'main form:not(.inline-form) button[type=submit], main .form-actions > .inline-form button, main .dev-actions > .inline-form button';

export const narrowFormButtons = (page: Page): Promise<string[]> => page.evaluate(`[...document.querySelectorAll('${SUBMITS}')]
  .filter((b) => b.getClientRects().length > 0)
  .filter((b) => {
    let parent = b.parentElement;
    while (['inline', 'contents'].includes(getComputedStyle(parent).display)) parent = parent.parentElement;
    const box = getComputedStyle(parent);
    const room = parent.clientWidth - parseFloat(box.paddingLeft) - parseFloat(box.paddingRight);
    return b.getBoundingClientRect().width < room - 1;
  })
  .map((b) => b.textContent.trim().replace(/\\s+/g, ' '))`) as Promise<string[]>;
