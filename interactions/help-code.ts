import type { FastifyInstance } from 'fastify';
import { HELP_CODE_LENGTH, normaliseHelpCode } from '../src/accounts/help-codes.js';
import { attemptSignIn, completeLogin } from './attempt.js';
import { type InteractionDeps, sendHtml } from './context.js';
import { loginStep } from './login-step.js';
import { helpCodeForm } from './views/help-code-form.js';

interface HelpCodeBody { username?: string; code?: string }
type Route = { Params: { uid: string }; Querystring: { org?: string }; Body: HelpCodeBody };

/**
 * /interaction/:uid/help-code — "I have a help code": the username and the 6 digits a member of staff gave
 * (docs/childrens-sign-in.md → Help codes). Offered at every school, through the same preamble and guessing
 * protection as every method (a user who may not sign in, or an app the school does not use, is refused as
 * there); the code works once (src/accounts/help-codes.ts).
 */
export function helpCodeRoutes(app: FastifyInstance, deps: InteractionDeps): void {
  app.get<Route>('/:uid/help-code', async (req, reply) => {
    const step = await loginStep(deps, req, reply, 'help_code');
    if (!step) return reply;
    return sendHtml(reply, 200, helpCodeForm(step));
  });

  app.post<Route>('/:uid/help-code', async (req, reply) => {
    const step = await loginStep(deps, req, reply, 'help_code');
    if (!step) return reply;
    const body = (req.body ?? {}) as HelpCodeBody;
    const username = typeof body.username === 'string' ? body.username.trim().slice(0, 64) : '';
    const code = normaliseHelpCode(body.code);
    // Not 6 digits, or no username: a typing slip, said as such and not counted (nothing was tried).
    if (!username || !code) {
      const error = username ? step.t.t('signIn.helpCode.typeAll', { count: HELP_CODE_LENGTH }) : step.t.t('signIn.helpCode.usernameFirst');
      return sendHtml(reply, 400, helpCodeForm({ ...step, username, error }));
    }
    const signedIn = await attemptSignIn(deps, req, reply, step, {
      factor: 'help_code',
      username,
      verify: () => deps.helpCodes.redeem(step.organisation, username, code),
      retry: (_status, error) => helpCodeForm({ ...step, username, error }),
    });
    // RFC 8176: `otp`, a one-time password.
    return signedIn ? completeLogin(deps, req, reply, step, signedIn, ['otp']) : reply;
  });
}
