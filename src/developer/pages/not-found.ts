import type { FastifyReply, FastifyRequest } from 'fastify';
import { html } from '../../web/html.js';
import { sendHtml } from '../../web/http.js';
import { layout } from '../../web/layout.js';
import type { DeveloperDeps } from '../deps.js';
import { refusedView } from './app-list-view.js';
import { developerLayout } from './signed-in.js';
import { area } from '../area.js';

const NOT_HERE = 'There is no page at this address in the developer area.';

/**
 * A developer-area address nothing answers, as an app that is not there is answered: signed in, inside the
 * area's frame with its menu (no entry marked current: the address is none of them) and a way to the apps;
 * signed out, the sign-in pages' plain card with the way in and the guide. Never a dead end.
 */
export function developerNotFound(deps: DeveloperDeps) {
  const sessions = area(deps).sessions;
  return async (req: FastifyRequest, reply: FastifyReply) => {
    const session = await sessions.current(req);
    if (session) {
      return sendHtml(reply, 404, developerLayout('Page not found', refusedView('Page not found', NOT_HERE, undefined), area(deps).signedInAs(session.account, session)));
    }
    return sendHtml(reply, 404, layout('Page not found', html`
<h1>Page not found</h1>
<p>${NOT_HERE}</p>
<ul class="note ways-on">
  <li><a href="/developer/sign-in">Sign in to the developer area</a></li>
  <li><a href="/docs">Read the developer documentation</a></li>
</ul>
`));
  };
}
