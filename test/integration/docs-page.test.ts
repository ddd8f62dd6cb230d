import t from 'tap';
import { DOC_SECTIONS } from '../../src/docs/index.js';
import { writeConfig } from '../helpers/config-file.js';
import { startLanyard } from '../helpers/lanyard.js';

/**
 * /docs, the developer guide (docs/developer-area.md): the whole integration, one section per step; every link on it
 * leads somewhere real, every anchor exists, and the examples use this Lanyard's issuer.
 */

const hrefs = (page: string) => [...page.matchAll(/href="([^"]+)"/g)].map((m) => m[1]!.replace(/&amp;/g, '&'));
const ids = (page: string) => [...page.matchAll(/\sid="([^"]+)"/g)].map((m) => m[1]!);

t.test('the guide covers the whole integration, with this issuer in its examples', async (t) => {
  const lanyard = await startLanyard(t);
  const res = await fetch(`${lanyard.url}/docs`);
  t.equal(res.status, 200);
  t.match(res.headers.get('content-type'), /^text\/html/);
  const page = await res.text();
  for (const title of ['Getting a developer account', 'Registering and configuring an app', 'The sign-in flow', 'ID token claims', 'Logout',
    'Testing in the sandbox school', 'Going live', 'The developer API', 'Errors']) {
    t.match(page, `>${title}</h2>`, `a section: ${title}`);
  }
  t.match(page, `curl -u &quot;YOUR_CLIENT_ID:YOUR_CLIENT_SECRET&quot; ${lanyard.url}/oauth/token`, 'the token request with curl and HTTP Basic');
  t.match(page, `${lanyard.url}/developer/api/apps/$CLIENT_ID/secrets`, 'the developer API with this issuer');
  t.match(page, /create a second secret;[\s\S]*deploy it[\s\S]*revoke the first secret/, 'rotating secrets without downtime');
  t.match(page, /organisation=sandbox/, 'testing against the sandbox school');
  t.match(page, /Refresh tokens work for 30 days from the sign-in they came from:\s+refreshing does not extend that/, 'refresh tokens\' lifetime as the README and the code have it');
  t.notMatch(page, /unused refresh token lapses/, 'not a lifetime that refreshing renews');
  // As read: a URL in a table may break after its slashes (<wbr>, each part in a <span>: slashed()).
  t.match(page.replace(/<wbr>|<\/?span>/g, ''), `${lanyard.url}/claims/roster_id`, 'the service-specific claim names under this issuer');
  t.notMatch(page, /\$\{|undefined|\[object Object\]/, 'no template left unfilled');

  await t.test('every anchor and every section is linked from the contents, and no id is used twice', async (t) => {
    const all = ids(page);
    t.same([...new Set(all)], all, 'ids are unique');
    for (const s of DOC_SECTIONS) t.ok(hrefs(page).includes(`#${s.id}`), `contents link to #${s.id}`);
    for (const href of hrefs(page).filter((h) => h.startsWith('#'))) t.ok(all.includes(href.slice(1)), `${href} exists`);
  });
});

t.test('every link on the guide resolves', async (t) => {
  // With open sign-up, so that the sign-up page the guide mentions exists.
  const lanyard = await startLanyard(t, { env: { LANYARD_CONFIG: writeConfig((c) => { c.developer_signup = 'open'; }) } });
  const page = await (await fetch(`${lanyard.url}/docs`)).text();
  const local = [...new Set(hrefs(page).filter((h) => h.startsWith('/')))];
  t.ok(local.length >= 8, `${local.length} links to Lanyard's own pages`);
  for (const href of local) {
    const res = await fetch(`${lanyard.url}${href}`, { redirect: 'manual' });
    // Pages for signed-in developers answer with the way to the sign-in page: that is resolving too.
    const ok = res.status === 200 || (res.status === 303 && /^\/developer\/sign-in/.test(res.headers.get('location') ?? ''));
    t.ok(ok, `${href}: ${res.status}${res.headers.get('location') ? ` → ${res.headers.get('location')}` : ''}`);
  }
  const external = [...new Set(hrefs(page).filter((h) => /^https?:/.test(h)))];
  for (const href of external) t.match(href, /^https:\/\//, `external links are https: ${href}`);
});
