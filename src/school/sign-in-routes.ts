import type { FastifyInstance, FastifyReply } from 'fastify';
import { LANYARD_CLIENT_ID } from '../clients/builtin-clients.js';
import { takeOwnCode } from '../provider/own-code.js';
import { endBrowserSession, signedInSession } from '../provider/session.js';
import { ROUTES } from '../routes.js';
import { html } from '../web/html.js';
import { sendHtml, seeOther } from '../web/http.js';
import { layout } from '../web/layout.js';
import { staffMember } from './access.js';
import { area, safeNext, SCHOOL_PATH, SIGN_IN_PATH, SIGN_OUT_PATH, staffAccount } from './area.js';
import type { SchoolDeps } from './deps.js';
import { afterFirstStep } from './second-step.js';
import { recordStaffEvent } from './staff-events.js';

/**
 * Signing in to the console (docs/school-console.md → Signing in): the console is a client of Lanyard, like the
 * dashboard. `GET /school/sign-in` sends the browser through the ordinary sign-in screens with the built-in
 * client (always asking again: `prompt=login`), bound to this browser by `state` and `nonce`. The code that
 * comes back to /school/sign-in/done must be one of the built-in client for this page, issued for this very
 * request (its nonce) to the person the browser's session names, who signed in moments ago (its authTime):
 * a browser that merely holds an older Lanyard session gets no console session. A member of staff then takes the second
 * step (src/school/second-step.ts) and gets the console's own short session; anyone else is told the console
 * is for school staff. Signing out ends the console's session and the Lanyard session of this browser.
 */
/** How long after signing in the sign-in screens' code still opens the console. */
const FRESH_SIGN_IN_MS = 10 * 60 * 1000;

export function signInRoutes(scope: FastifyInstance, deps: SchoolDeps): void {
  const doneUri = `${deps.issuer}${ROUTES.schoolSignInDone}`;

  scope.get<{ Querystring: { next?: string } }>('/sign-in', async (req, reply) => {
    reply.header('Cache-Control', 'no-store');
    if (await area(deps).sessions.current(req)) return seeOther(reply, safeNext(req.query.next));
    const token = area(deps).preSignInCsrf(req, reply);
    const next = safeNext(req.query.next);
    const params = new URLSearchParams({
      client_id: LANYARD_CLIENT_ID,
      response_type: 'code',
      scope: 'openid',
      redirect_uri: doneUri,
      prompt: 'login',
      nonce: token,
      state: `${token}.${Buffer.from(next).toString('base64url')}`,
    });
    return seeOther(reply, `${ROUTES.authorization}?${params}`);
  });

  scope.get<{ Querystring: { code?: string; state?: string; error?: string } }>('/sign-in/done', async (req, reply) => {
    reply.header('Cache-Control', 'no-store');
    const spent = typeof req.query.code === 'string' ? await takeOwnCode(deps.host, req.query.code, doneUri) : undefined;
    const [token, encodedNext] = typeof req.query.state === 'string' ? req.query.state.split('.', 2) : [];
    if (!token || !area(deps).preSignInCsrfValid(req, { csrf: token })) return notSignedIn(reply, 'This sign-in was not started here, or took too long. Please start again.');
    if (typeof req.query.error === 'string' || !spent) return notSignedIn(reply, 'You did not sign in.');
    const signedIn = await signedInSession(deps.host, deps.store, req, reply);
    const account = staffAccount(signedIn?.user);
    // This very sign-in, of this person, just now (oidc-provider's times are wall-clock epoch seconds).
    const fresh = spent.nonce === token && spent.authTime * 1000 >= Date.now() - FRESH_SIGN_IN_MS;
    if (!account || account.id !== spent.accountId || !fresh) return notSignedIn(reply, 'You did not sign in.');
    const member = await staffMember(deps.store, account.user);
    if (member.schools.length === 0) return notStaff(reply);
    const next = safeNext(encodedNext ? Buffer.from(encodedNext, 'base64url').toString() : undefined);
    return afterFirstStep(deps, req, reply, member, next);
  });

  scope.post(SIGN_OUT_PATH.slice(SCHOOL_PATH.length), async (req, reply) => {
    const who = await area(deps).signedIn(req, reply);
    if (!who) return reply;
    area(deps).checkCsrf(who, req.body);
    await area(deps).sessions.end(req, reply);
    await endBrowserSession(deps.host, req, reply);
    // In every school they work in, as their signing in is (second-step.ts).
    recordStaffEvent(deps.audit, await staffMember(deps.store, who.account.user), { kind: 'console', action: 'console.signed_out' });
    return seeOther(reply, `${SIGN_IN_PATH}/signed-out`);
  });

  scope.get('/sign-in/signed-out', async (_req, reply) => sendHtml(reply, 200, plainCard('Signed out', html`
<h1>You have signed out</h1>
<p>You have signed out of the school console and of Lanyard in this browser.</p>
<p><a class="button" href="${SIGN_IN_PATH}">Sign in again</a></p>`)));
}

const plainCard = (title: string, body: ReturnType<typeof html>) => layout(title, html`<div class="card">${body}</div>`);

function notSignedIn(reply: FastifyReply, why: string): FastifyReply {
  return sendHtml(reply, 400, plainCard('Not signed in', html`
<h1>You are not signed in</h1>
<p>${why}</p>
<p><a class="button" href="${SIGN_IN_PATH}">Sign in to the school console</a></p>`));
}

function notStaff(reply: FastifyReply): FastifyReply {
  return sendHtml(reply, 403, plainCard('For school staff', html`
<h1>The school console is for school staff</h1>
<p>You signed in, but you are not a teacher or a school admin of any school. If you should be, ask your school's admin to give you the role.</p>
<p><a class="button" href="${ROUTES.home}">Go to your apps</a></p>`));
}
