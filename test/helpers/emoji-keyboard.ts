import type { Page } from 'playwright-core';
import { pageOf } from '../../interactions/emoji-pages.js';

/**
 * The emoji keyboard in a browser test: its pictures are on four pages behind tabs
 * (interactions/views/emoji-keyboard.ts), so a picture is tapped after its tab when its page is not shown.
 */
export const emojiKeyboard = (page: Page, name = 'Emoji keyboard') => page.getByRole('group', { name });

/** A picture's key by its English name (the page's language is English unless the test chose another). */
export const emojiKey = (page: Page, name: string) => page.locator(`[data-emoji-keyboard] button[name="add"][value="${name}"]`);

/** The tab of the page a picture is on. */
export const emojiTab = (page: Page, name: string) => page.locator(`[data-emoji-keyboard] button[name="page"][value="${pageOf(name)}"]`);

/** Taps (or clicks) a picture, its tab first when its page is not shown; resolves to the taps it took. */
export async function tapPicture(page: Page, name: string, touch = false): Promise<number> {
  let taps = 0;
  if (!(await emojiKey(page, name).isVisible())) {
    await (touch ? emojiTab(page, name).tap() : emojiTab(page, name).click());
    taps += 1;
  }
  await (touch ? emojiKey(page, name).tap() : emojiKey(page, name).click());
  return taps + 1;
}

/** The pictures the slots show, in order ('' for an empty slot). */
export const slotGlyphs = (page: Page) => page.locator('[data-emoji-slots] .emoji-slot').allInnerTexts();

/** A tap without JavaScript: a form post to the keyboard's `/emoji` address, answered with a page; its status. */
export async function keyboardPost(page: Page, click: () => Promise<void>): Promise<number> {
  const [res] = await Promise.all([
    page.waitForResponse((r) => r.url().endsWith('/emoji') && r.request().method() === 'POST'),
    page.waitForEvent('load'),
    click(),
  ]);
  return res.status();
}
