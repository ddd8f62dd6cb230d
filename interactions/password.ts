import type { FastifyInstance } from 'fastify';
import { checkPassword } from '../src/accounts/password-login.js';
import { attemptSignIn, completeLogin } from './attempt.js';
import { type InteractionDeps, sendHtml } from './context.js';
import { loginStep } from './login-step.js';
import { passwordForm } from './views/password-form.js';

interface PasswordBody { username?: string; password?: string }
type Route = { Params: { uid: string }; Querystring: { org?: string }; Body: PasswordBody };

/** /interaction/:uid/password — username and password inside the organisation. */
export function passwordRoutes(app: FastifyInstance, deps: InteractionDeps): void {
  app.get<Route>('/:uid/password', async (req, reply) => {
    const step = await loginStep(deps, req, reply, 'password');
    if (!step) return reply;
    return sendHtml(reply, 200, passwordForm(step));
  });

  app.post<Route>('/:uid/password', async (req, reply) => {
    const step = await loginStep(deps, req, reply, 'password');
    if (!step) return reply;
    const body = (req.body ?? {}) as PasswordBody;
    const username = typeof body.username === 'string' ? body.username.trim().slice(0, 64) : '';
    const password = typeof body.password === 'string' ? body.password.slice(0, 1024) : '';
    const signedIn = await attemptSignIn(deps, req, reply, step, {
      factor: 'password',
      username,
      verify: () => checkPassword(deps.store, step.organisation, username, password),
      retry: (_status, error) => passwordForm({ ...step, username, error }),
    });
    return signedIn ? completeLogin(deps, req, reply, step, signedIn, ['pwd']) : reply;
  });
}
