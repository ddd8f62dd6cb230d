import t from 'tap';
import { startLanyard } from '../helpers/lanyard.js';

/**
 * Each group of routes answers errors the way it declared (docs/architecture.md → Errors): people get a page,
 * programs get `{ error, error_description }`, and an address no area owns goes by its Accept header. A form
 * the server cannot read (an unsupported body, 415) is Fastify's own refusal, raised before any handler runs,
 * so it shows which error path the route's scope registered.
 */
const UNREADABLE = { method: 'POST', headers: { 'content-type': 'application/xml' }, body: '<x/>' } as const;

t.test('pages people see answer an unreadable form with a page, in their area\'s words', async (t) => {
  const lanyard = await startLanyard(t);
  const cases: [path: string, words: RegExp][] = [
    ['/sign-out', /Start again from the app, or from your school apps/], // the dashboard: it answered JSON before
    ['/launch/demo-app', /Start again from the app, or from your school apps/],
    ['/classroom-device', /Start again from the app, or from your school apps/],
    ['/oauth/logout', /Start again from the app, or from your school apps/],
    ['/developer/sign-in', /Go back and try again/],
  ];
  for (const [path, words] of cases) {
    const res = await fetch(`${lanyard.url}${path}`, UNREADABLE);
    t.equal(res.status, 415, `${path}: 415`);
    t.match(res.headers.get('content-type'), /^text\/html/, `${path}: a page`);
    t.match(await res.text(), words, `${path}: the area's words`);
  }
});

t.test('programs get JSON: the user API, the developer API and the machine endpoints', async (t) => {
  const lanyard = await startLanyard(t);
  for (const path of ['/api/user', '/developer/api/apps']) {
    const res = await fetch(`${lanyard.url}${path}`, { headers: { accept: 'text/html' } });
    t.equal(res.status, 401, `${path}: 401 without a token, even for a browser`);
    t.match(res.headers.get('content-type'), /^application\/json/, `${path}: JSON`);
  }
  const unknown = await fetch(`${lanyard.url}/developer/api/nothing-here`, { headers: { accept: 'text/html' } });
  t.match(unknown.headers.get('content-type'), /^application\/json/, 'an unknown address of the developer API: JSON, whatever the Accept header');
});

t.test('each area answers its own unknown addresses; an address no area owns goes by Accept', async (t) => {
  const lanyard = await startLanyard(t);
  const page = (path: string) => fetch(`${lanyard.url}${path}`, { headers: { accept: 'text/html' } });
  const expired = await page('/interaction/no-such-step/here');
  t.equal(expired.status, 404);
  t.match(await expired.text(), /Sign-in expired/, 'a sign-in step that is not there: the sign-in is over');
  const developer = await page('/developer/nothing-here');
  t.equal(developer.status, 404);
  t.match(await developer.text(), /There is no page at this address in the developer area/, 'the developer area\'s own 404');
  const nowhere = await page('/nothing-here');
  t.equal(nowhere.status, 404);
  t.match(await nowhere.text(), /Page not found/, 'a browser gets a page');
  const program = await fetch(`${lanyard.url}/nothing-here`);
  t.same(await program.json(), { error: 'not_found', error_description: 'no such endpoint' }, 'a program gets JSON');
});
