import { accessSync, constants, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { type Browser, type BrowserContextOptions, chromium, type Page } from 'playwright-core';
import { projectRoot } from '../../src/package-files.js';

interface Teardown { teardown(fn: () => unknown): void }

export interface LaunchOptions {
  /** A Y4M (or MJPEG) file Chromium plays as the camera; getUserMedia is granted without a prompt. */
  fakeCameraFile?: string;
  /** With fakeCameraFile: the camera is there but every page is refused it (NotAllowedError), as when a user says no. */
  cameraRefused?: boolean;
}

export const SCREENSHOT_DIR = join(projectRoot, 'test-artifacts', 'screenshots');

/**
 * Debian's packages put them in /usr/bin; `npx playwright install` is not used (no downloads in CI). The
 * headless shell first (package chromium-headless-shell: the same Chromium, built for headless use, as
 * Playwright itself prefers for headless runs): every browser test passes on either, and the shell takes a
 * quarter less CPU (measured on test/browser: 148 s of CPU with chromium, 112 s with the shell).
 */
const CANDIDATES = ['/usr/bin/chromium-headless-shell', '/usr/bin/chromium', '/usr/bin/chromium-browser'];

const isExecutable = (file: string) => {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
};

export function findChromium(): string | undefined {
  const fromEnv = process.env.LANYARD_CHROMIUM;
  if (fromEnv) return isExecutable(fromEnv) ? fromEnv : undefined;
  const onPath = (process.env.PATH ?? '').split(delimiter).filter(Boolean)
    .flatMap((dir) => [join(dir, 'chromium-headless-shell'), join(dir, 'chromium'), join(dir, 'chromium-browser')]);
  return [...CANDIDATES, ...onPath].find(isExecutable);
}

/**
 * Chromium's own switches: headless, no sandbox (CI runs as root in a container), and quiet — no
 * background traffic, updates or sync, so a test only ever talks to the Lanyard it started.
 */
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

/**
 * A real Chromium driven by playwright-core, closed with the test. Browser tests never skip: a machine
 * without Chromium fails them, with the command that fixes it.
 */
export async function launchBrowser(t: Teardown, options: LaunchOptions = {}): Promise<Browser> {
  const executablePath = findChromium();
  if (!executablePath) {
    throw new Error(
      'Chromium not found (looked for $LANYARD_CHROMIUM, /usr/bin/chromium-headless-shell, /usr/bin/chromium, and both on PATH). '
      + 'The browser tests need it: install it with `apt-get install -y chromium-headless-shell chromium` (.ci/run does this).',
    );
  }
  const args = [...ARGS];
  if (options.fakeCameraFile) {
    // Without the fake prompt, headless Chromium answers a page's request for the camera with a refusal.
    if (!options.cameraRefused) args.push('--use-fake-ui-for-media-stream');
    args.push('--use-fake-device-for-media-stream', `--use-file-for-fake-video-capture=${options.fakeCameraFile}`);
  }
  const before = chromiumChildren();
  const browser = await chromium.launch({ executablePath, headless: true, args, timeout: 60_000 });
  const launched = [...chromiumChildren()].filter((pid) => !before.has(pid));
  t.teardown(() => closeBrowser(browser, launched));
  return browser;
}

/** How long Chromium gets to close by itself before its processes are killed. */
const CLOSE_DEADLINE_MS = 10_000;

/**
 * Chromium's graceful close can hang (seen in CI with the fake camera playing): one hung close used to
 * hold the whole test file until tap's timeout. The close gets a deadline; past it the browser's process
 * group is killed, and the teardown says so on stderr, so a hang is visible but no longer fatal.
 */
async function closeBrowser(browser: Browser, pids: number[]): Promise<void> {
  if (await closedWithin(browser.close(), 'the browser')) return;
  process.stderr.write(`# killing Chromium processes ${pids.join(', ')}\n`);
  for (const pid of pids) {
    try {
      process.kill(-pid, 'SIGKILL'); // Playwright starts Chromium as a process-group leader
    } catch {
      try { process.kill(pid, 'SIGKILL'); } catch { /* already gone */ }
    }
  }
}

/** Whether `closing` settled before the deadline (a late close is reported on stderr and left behind). */
async function closedWithin(closing: Promise<unknown>, what: string): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => { timer = setTimeout(() => resolve(false), CLOSE_DEADLINE_MS); });
  const closed = await Promise.race([closing.then(() => true, () => true), late]);
  clearTimeout(timer);
  if (!closed) process.stderr.write(`# ${what} did not close within ${CLOSE_DEADLINE_MS} ms\n`);
  return closed;
}

/** PIDs of the Chromium processes this test process started directly (Linux /proc). */
function chromiumChildren(): Set<number> {
  const pids = new Set<number>();
  let entries: string[] = [];
  try {
    entries = readdirSync('/proc').filter((e) => /^\d+$/.test(e));
  } catch {
    return pids;
  }
  for (const entry of entries) {
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8'); // "pid (comm) state ppid …"
      const end = stat.lastIndexOf(')');
      const comm = stat.slice(stat.indexOf('(') + 1, end);
      const ppid = Number(stat.slice(end + 2).split(' ')[1]);
      if (ppid === process.pid && comm.startsWith('chromium')) pids.add(Number(entry));
    } catch { /* the process ended meanwhile */ }
  }
  return pids;
}

/**
 * The page's width in CSS pixels, and the device's: equal when nothing makes the page scroll sideways. Not
 * window.innerWidth: on a phone (isMobile) Chromium zooms out to fit wider content, and innerWidth grows with it.
 */
export async function pageWidths(page: Page): Promise<{ page: number; device: number }> {
  return { page: await page.evaluate('document.documentElement.scrollWidth') as number, device: page.viewportSize()!.width };
}

/**
 * The words (runs of text between spaces) inside `selector` that the page breaks across lines: a line may begin
 * inside one only after a hyphen, when `afterHyphen` allows it (Retry-After), and never elsewhere. Text split
 * into parts (breakableCode(): a part after each slash) is checked part by part, so breaks between parts are fine.
 */
export async function wordsBroken(page: Page, selector: string, o: { afterHyphen: boolean }): Promise<string[]> {
  return await page.evaluate(`(() => {
    const broken = [];
    const range = document.createRange();
    for (const e of document.querySelectorAll(${JSON.stringify(selector)})) {
      const walker = document.createTreeWalker(e, NodeFilter.SHOW_TEXT);
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        const text = n.textContent;
        let top, start = 0, split = false;
        for (let i = 0; i <= text.length; i++) {
          if (i === text.length || /\\s/.test(text[i])) {
            if (split) broken.push(text.slice(start, i));
            top = undefined; start = i + 1; split = false;
            continue;
          }
          range.setStart(n, i);
          range.setEnd(n, i + 1);
          const at = Math.round(range.getBoundingClientRect().top);
          if (top !== undefined && at > top && !(${o.afterHyphen} && text[i - 1] === '-')) split = true;
          top = at;
        }
      }
    }
    return broken;
  })()`) as string[];
}

/** Saves a full-page PNG as test-artifacts/screenshots/<name>.png (name may contain '/'); returns the path. */
export async function screenshot(page: Page, name: string): Promise<string> {
  const path = join(SCREENSHOT_DIR, `${name}.png`);
  mkdirSync(dirname(path), { recursive: true });
  // Chromium now and then answers "Unable to capture screenshot" when its compositor has no frame ready yet
  // (seen in CI under load, right after a navigation): tried again after two frames, at most three times.
  for (let attempt = 1; ; attempt += 1) {
    try {
      await page.screenshot({ path, fullPage: true, animations: 'disabled' });
      return path;
    } catch (err) {
      if (attempt === 3 || !/Unable to capture screenshot/.test((err as Error).message)) throw err;
      await page.evaluate('new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))');
    }
  }
}

/**
 * A long page as a reviewer reads it: one screen from each heading matching `headings` down, saved as
 * <name>/NN-<heading id>.png, beside the full-page shot that is too tall to look at whole. Returns the paths.
 */
export async function screenshotSections(page: Page, name: string, headings = 'main h2[id]'): Promise<string[]> {
  const ids = await page.locator(headings).evaluateAll((els) => els.map((e) => e.id));
  const paths: string[] = [];
  for (const [i, id] of ids.entries()) {
    await page.locator(`[id="${id}"]`).evaluate((e) => e.scrollIntoView({ block: 'start' }));
    const path = join(SCREENSHOT_DIR, name, `${String(i + 1).padStart(2, '0')}-${id}.png`);
    mkdirSync(dirname(path), { recursive: true });
    await page.screenshot({ path, animations: 'disabled' });
    paths.push(path);
  }
  await page.evaluate('window.scrollTo(0, 0)');
  return paths;
}

/**
 * Stands in for the relying party's redirect_uri (nothing listens there in tests, and on a developer's
 * machine something else might): requests to its origin never leave the browser but are answered with a
 * small page. Returns a function that waits for the browser to reach the callback and gives its URL (with
 * code and state) for openid-client to finish the flow.
 *
 * `page.route()` cannot do this: Playwright routes only the first request of a redirect chain, and the
 * callback is always reached by a redirect (303 from Lanyard). The DevTools Fetch domain sees every hop.
 */
export async function answerCallback(page: Page, redirectUri: string): Promise<(timeout?: number) => Promise<URL>> {
  const { origin } = new URL(redirectUri);
  const body = Buffer.from('<!doctype html><html lang="en"><title>Callback</title><p>The app received the sign-in.</p></html>')
    .toString('base64');
  let reached: URL | undefined;
  let notify = () => {};
  const cdp = await page.context().newCDPSession(page);
  cdp.on('Fetch.requestPaused', (event) => {
    reached ??= new URL(event.request.url);
    notify();
    cdp.send('Fetch.fulfillRequest', {
      requestId: event.requestId,
      responseCode: 200,
      responseHeaders: [{ name: 'Content-Type', value: 'text/html; charset=utf-8' }],
      body,
    }).catch(() => {}); // the page may be closing
  });
  await cdp.send('Fetch.enable', { patterns: [{ urlPattern: `${origin}/*`, requestStage: 'Request' }] });
  return (timeout = 15_000) => new Promise<URL>((resolve, reject) => {
    if (reached) return resolve(reached);
    const timer = setTimeout(() => reject(new Error(`the browser did not reach ${redirectUri} within ${timeout}ms (at ${page.url()})`)), timeout);
    notify = () => {
      clearTimeout(timer);
      resolve(reached!);
    };
  });
}

export interface FocusedElement {
  tag: string;
  type: string;
  /** Label text for form fields, text for links and buttons. */
  name: string;
  focusVisible: boolean;
  outline: string;
}

/**
 * What has keyboard focus, as a person would describe it. A page that has just loaded may not have applied
 * `autofocus` yet (Chromium does it at a rendering update after parsing), so nothing focused is asked again
 * for up to a second before it is the answer.
 */
export async function focused(page: Page): Promise<FocusedElement | null> {
  for (let i = 0; i < 10; i += 1) {
    const element = await focusedNow(page);
    if (element) return element;
    await page.waitForTimeout(100);
  }
  return focusedNow(page);
}

async function focusedNow(page: Page): Promise<FocusedElement | null> {
  return page.evaluate(`(() => {
    const el = document.activeElement;
    if (!el || el === document.body) return null;
    const label = el.labels && el.labels[0] ? el.labels[0].textContent : '';
    const style = getComputedStyle(el);
    return {
      tag: el.tagName.toLowerCase(),
      type: el.getAttribute('type') || '',
      name: (label || el.getAttribute('aria-label') || el.textContent || el.value || '').trim().replace(/\\s+/g, ' '),
      focusVisible: el.matches(':focus-visible'),
      outline: style.outlineStyle + ' ' + style.outlineWidth,
    };
  })()`) as Promise<FocusedElement | null>;
}

/** Presses Tab until the focused element's name matches (keyboard-only navigation); fails after `max` presses. */
export async function tabTo(page: Page, name: RegExp, max = 15): Promise<FocusedElement> {
  const seen: string[] = [];
  for (let presses = 1; presses <= max; presses += 1) {
    await page.keyboard.press('Tab');
    const now = await focused(page);
    if (now && name.test(now.name)) return now;
    seen.push(now ? `${now.tag}${now.type ? `[${now.type}]` : ''} "${now.name}"` : '(nothing)');
  }
  throw new Error(`Tab never reached ${name} in ${max} presses; focus went: ${seen.join(' → ')}`);
}

/**
 * Records what would show as a problem in the browser console: CSP violations, script errors, and
 * sub-resources (styles, scripts, images) that fail to load. Documents answered with an error status (a 401
 * after a wrong password) are expected and asserted by the tests themselves; the favicon may 404.
 */
export function watchPage(page: Page): { page: Page; problems: string[] } {
  page.setDefaultTimeout(15_000);
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' && !/^Failed to load resource: the server responded with a status/.test(m.text())) {
      problems.push(`console: ${m.text()} (${m.location().url})`);
    }
  });
  page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
  page.on('response', (res) => {
    const { pathname } = new URL(res.url());
    if (res.status() >= 400 && res.request().resourceType() !== 'document' && pathname !== '/favicon.ico') {
      problems.push(`${res.status()} for ${res.request().resourceType()} ${res.url()}`);
    }
  });
  page.on('requestfailed', (req) => problems.push(`failed: ${req.url()} (${req.failure()?.errorText})`));
  return { page, problems };
}

/** A page in a new browser context (its own cookies: another device), watched by `watchPage`; closed with the test. */
export async function openPage(t: Teardown, browser: Browser, options: BrowserContextOptions) {
  const context = await browser.newContext(options);
  t.teardown(() => closedWithin(context.close(), 'a browser context'));
  return watchPage(await context.newPage());
}
