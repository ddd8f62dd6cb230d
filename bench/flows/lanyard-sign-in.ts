import { type CookieJar, FlowError, form, header, hiddenField } from '../http.js';
import type { Target } from '../target.js';
import { authorizePath, codeFrom, nextPath } from './authorize.js';

export type Method = 'password' | 'emoji';

export interface Who {
  method: Method;
  username: string;
  /** The password, or the emoji password as the form posts it (names joined by commas). */
  secret: string;
}

/**
 * A sign-in through Lanyard's hosted screens, as a browser without JavaScript does it (the same steps as
 * test/helpers/sign-in.ts): the app's authorization request (naming the school), the school's ways of
 * signing in, the method's form (its CSRF token), the POST that verifies the secret (argon2id), back
 * through the provider to the app's redirect URI. Returns the code.
 */
export async function lanyardSignIn(t: Target, jar: CookieJar, who: Who): Promise<string> {
  const { http, setup } = t;
  let r = await http.request({ path: authorizePath(t, { organisation: setup.org }), jar });
  const interaction = nextPath(r, 'authorize');
  const uid = /^\/interaction\/([^/?]+)/.exec(interaction)?.[1];
  if (!uid) throw new FlowError(`authorize (to ${interaction.slice(0, 40)})`, r.status);
  // The school's page: its ways of signing in (200), or straight on to the only one (303).
  r = await http.request({ path: interaction, jar });
  if (r.status !== 200 && r.status !== 303) throw new FlowError('interaction', r.status, header(r, 'retry-after'));
  r = await http.request({ path: `/interaction/${uid}/${who.method}?org=${encodeURIComponent(setup.org)}`, jar, read: true });
  const csrf = r.status === 200 ? hiddenField(r.text, 'csrf') : undefined;
  if (!csrf) throw new FlowError(`${who.method} form`, r.status, header(r, 'retry-after'));
  const fields: Record<string, string> = { csrf, org: hiddenField(r.text, 'org') ?? setup.org, username: who.username };
  if (who.method === 'password') fields.password = who.secret;
  else Object.assign(fields, { emoji: who.secret, go: '1' });
  r = await http.request({ method: 'POST', path: `/interaction/${uid}/${who.method}`, body: form(fields), jar });
  const resume = nextPath(r, `${who.method} sign-in`);
  r = await http.request({ path: resume, jar });
  return codeFrom(r, t, 'resume');
}

/** The i-th member of staff (password), round robin: attempts on one account are serialised by Lanyard. */
export const staffMember = (t: Target, i: number): Who =>
  ({ method: 'password', username: t.setup.staff[i % t.setup.staff.length]!, secret: t.setup.staffPassword });

export const pupil = (t: Target, i: number): Who =>
  ({ method: 'emoji', username: t.setup.pupils[i % t.setup.pupils.length]!, secret: t.setup.emoji });
