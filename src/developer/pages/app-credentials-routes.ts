import { formField } from '../../web/http.js';
import type { AppSummary } from '../app-summary.js';
import type { UrlChangeOutcome } from '../app-urls.js';
import { area } from '../area.js';
import { NotFoundError } from '../errors.js';
import { credentialsView, type CredentialsData, type RevealedSecret, revokeView } from './app-credentials-view.js';
import { endOfDay, fieldOrForm } from './app-form.js';
import { AM } from './app-messages.js';
import { sectionPath } from './app-parts.js';
import type { AppRouting, Ctx, Page } from './app-routing.js';

const revealName = (clientId: string) => `secret:${clientId}`;

/** An app's credentials: callback URLs and client secrets (a new secret shown once). */
export function credentialsRoutes(r: AppRouting): void {
  const { deps, apps, get, post, done, flashOf, title, appOf, attempt } = r;
  const credentials = async (c: Ctx, extra: Partial<CredentialsData> = {}): Promise<Page> => {
    const app = await appOf(c);
    const secrets = await apps.secretsOf(app);
    let revealed: RevealedSecret | undefined;
    if (!extra.callback && !extra.secretForm) {
      const sealed = await area(deps).reveals.take(c.req, c.reply, c.who.session.key, revealName(c.clientId));
      try {
        revealed = sealed ? JSON.parse(sealed) as RevealedSecret : undefined;
      } catch { /* not ours to show */ }
    }
    return {
      title: title('Credentials', app),
      body: credentialsView({ app, secrets, now: deps.clock.now(), csrf: c.who.csrf, revealed, message: extra.callback || extra.secretForm ? undefined : flashOf(c), ...extra }),
    };
  };
  get('/apps/:clientId/credentials', (c) => credentials(c));
  post('/apps/:clientId/callbacks', async (c) => {
    const url = formField(c.req.body, 'redirect_uri');
    let outcome: UrlChangeOutcome | undefined;
    const failed = await attempt(async () => { outcome = await apps.addCallback(c.actor, c.clientId, url); });
    if (failed) return { ...(await credentials(c, { callback: { value: url, error: fieldOrForm(failed, 'redirect_uri') } })), status: failed.status };
    const said = outcome?.proposal ? AM.callbackProposed : outcome?.liveRequestWithdrawn ? AM.liveRequestWithdrawn : AM.callbackAdded;
    return done(c, `${sectionPath(c.clientId, 'credentials')}#callbacks`, said);
  });
  post('/apps/:clientId/callbacks/remove', async (c) => {
    await apps.removeCallback(c.actor, c.clientId, formField(c.req.body, 'url'));
    return done(c, `${sectionPath(c.clientId, 'credentials')}#callbacks`, AM.callbackRemoved);
  });
  post('/apps/:clientId/secrets', async (c) => {
    const form = { label: formField(c.req.body, 'label'), expires_on: formField(c.req.body, 'expires_on') };
    const expiry = endOfDay(form.expires_on);
    let created: { id: string; label: string; secret: string } | undefined;
    const failed = expiry.ok
      ? await attempt(async () => {
        const r = await apps.createSecret(c.actor, c.clientId, { label: form.label, expiresAt: expiry.iso });
        created = { id: r.record.id, label: r.record.label, secret: r.secret };
      })
      : { status: 400, fields: { expires_on: expiry.message } };
    if (failed || !created) {
      const f = failed!;
      const errors = { ...f.fields, ...(f.fields.expires_at ? { expires_on: f.fields.expires_at } : {}) };
      return { ...(await credentials(c, { secretForm: { ...form, errors, formError: f.message } })), status: f.status };
    }
    // Shown once, on the next page only: in an encrypted cookie bound to this session, never in the store or a URL.
    await area(deps).reveals.set(c.reply, c.who.session.key, revealName(c.clientId), JSON.stringify(created));
    return done(c, `${sectionPath(c.clientId, 'credentials')}#new-secret-box`, AM.secretCreated);
  });
  const secretOf = async (app: AppSummary, c: Ctx) => {
    const secret = (await apps.secretsOf(app)).find((s) => s.id === c.params.secretId);
    if (!secret) throw new NotFoundError('This secret does not exist (it may have been revoked already).');
    return secret;
  };
  get('/apps/:clientId/secrets/:secretId/revoke', async (c) => {
    const app = await apps.getApp(c.actor, c.clientId);
    return { title: title('Revoke a secret', app), body: revokeView(app, await secretOf(app, c), c.who.csrf) };
  });
  post('/apps/:clientId/secrets/:secretId/revoke', async (c) => {
    const secret = await secretOf(await apps.getApp(c.actor, c.clientId), c);
    await apps.revokeSecret(c.actor, c.clientId, secret.id);
    return done(c, `${sectionPath(c.clientId, 'credentials')}#secrets`, AM.secretRevoked(secret.label));
  });
}
