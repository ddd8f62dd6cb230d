import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Raw } from '../../web/html.js';
import { type Actor, actorOf } from '../actor.js';
import { AppService } from '../app-service.js';
import type { AppSummary } from '../app-summary.js';
import type { InvitationRecorded } from '../app-team.js';
import type { DeveloperDeps } from '../deps.js';
import { ForbiddenError, NotFoundError } from '../errors.js';
import { NO_LINK } from '../team-invitations.js';
import { credentialsView, type CredentialsData, type RevealedSecret, revokeView } from './app-credentials-view.js';
import { formField, formFields, seeOther, sendHtml } from '../../web/http.js';
import { endOfDay, fieldOrForm, type FormFailure, formFailure } from './app-form.js';
import { historyView } from './app-history-view.js';
import { appListView, refusedView, registerView } from './app-list-view.js';
import { deleteView, liveView } from './app-live-view.js';
import { AM } from './app-messages.js';
import { overviewView } from './app-overview-view.js';
import { appPath, sectionPath } from './app-parts.js';
import { launchView, logoutView, scopesView } from './app-settings-view.js';
import { type RevealedLink, teamView } from './app-team-view.js';
import { joinView } from './app-invitations-view.js';
import { checkCsrf, developerLayout, setFlash, setReveal, type SignedIn, signedIn, takeFlash, takeReveal } from './signed-in.js';

/** What every handler gets: the signed-in developer, the request and reply, and the app named by the URL. */
interface Ctx {
  who: SignedIn;
  actor: Actor;
  req: FastifyRequest;
  reply: FastifyReply;
  clientId: string;
  params: Record<string, string>;
}

/** A page to send (a handler that redirected returns nothing). */
interface Page {
  status?: number;
  title: string;
  body: Raw;
}

const revealName = (clientId: string) => `secret:${clientId}`;
const teamLinkReveal = (clientId: string) => `team-link:${clientId}`;

/** The app pages: list, register, settings, secrets, team, history, going live. */
export function appPages(scope: FastifyInstance, deps: DeveloperDeps): void {
  const apps = new AppService(deps);

  const handle = (method: 'GET' | 'POST') => (path: string, handler: (c: Ctx) => Promise<Page | undefined>) => {
    scope.route<{ Params: Record<string, string> }>({
      method,
      url: path,
      // The area's own address, /developer, has no second spelling with a slash.
      ...(path === '/' ? { prefixTrailingSlash: 'no-slash' as const } : {}),
      handler: async (req, reply) => {
        const who = await signedIn(deps, req, reply);
        if (!who) return reply;
        // CSRF before anything else: a forged post learns nothing, not even whether the app exists.
        if (method === 'POST') checkCsrf(deps, who, req.body);
        let page: Page | undefined;
        try {
          page = await handler({ who, actor: actorOf(who.developer), req, reply, clientId: req.params.clientId ?? '', params: req.params });
        } catch (err) {
          // Inside the area's frame, with a way on: another developer's app is "not found", never "forbidden".
          if (err instanceof NotFoundError) {
            page = { status: 404, title: 'Not found', body: refusedView('Not found', err.noSuchApp ? AM.noSuchApp : err.message, err.noSuchApp ? undefined : req.params.clientId) };
          } else if (err instanceof ForbiddenError) page = { status: 403, title: 'Not allowed', body: refusedView('Not allowed', err.message, req.params.clientId) };
          else throw err;
        }
        return page ? sendHtml(reply, page.status ?? 200, developerLayout(page.title, page.body, who, 'apps')) : reply;
      },
    });
  };
  const get = handle('GET');
  const post = handle('POST');

  /** After a change: the message for the next page, and a 303 to it. */
  const done = (c: Ctx, to: string, message: string): undefined => {
    setFlash(deps, c.reply, message);
    seeOther(c.reply, to);
    return undefined;
  };
  const flashOf = (c: Ctx) => takeFlash(deps, c.req, c.reply);
  const title = (section: string, app: AppSummary) => `${section} · ${app.client.name}`;
  /** Runs a change; a refusal the form can show is returned, anything else (404, 403, 503) goes up. */
  const attempt = async (work: () => Promise<unknown>): Promise<FormFailure | undefined> => {
    try {
      await work();
      return undefined;
    } catch (err) {
      const failure = formFailure(err);
      if (!failure) throw err;
      return failure;
    }
  };

  get('/', async (c) => ({
    title: AM.appsTitle, body: appListView(await apps.listApps(c.actor), await apps.invitations.list(c.actor), c.who.csrf, flashOf(c)),
  }));
  // An invitation's answer. One already answered or withdrawn is a 404 without a way to the app (it is not theirs).
  const answer = async (work: () => Promise<Page | undefined>): Promise<Page | undefined> => {
    try {
      return await work();
    } catch (err) {
      if (err instanceof NotFoundError) return { status: 404, title: 'Not found', body: refusedView('Not found', err.message, undefined) };
      if (err instanceof ForbiddenError) return { status: 403, title: 'Not allowed', body: refusedView('Not allowed', err.message, undefined) };
      throw err;
    }
  };
  // The link of an invitation (open sign-up: team-invitation-links.ts), opened signed in.
  get('/team-invitations/:token', async (c) => {
    const token = c.params.token ?? '';
    const invitation = await apps.invitations.byLink(c.actor, token);
    if (!invitation) return { status: 404, title: 'Not found', body: refusedView('Not found', NO_LINK, undefined) };
    return { title: AM.joinTitle(invitation.client.name), body: joinView(invitation, token, c.who.csrf) };
  });
  post('/invitations/:clientId/accept', (c) => answer(async () => {
    const { client } = await apps.invitations.accept(c.actor, c.clientId, formField(c.req.body, 'token') || undefined);
    return done(c, appPath(client.clientId), AM.invitationAccepted(client.name));
  }));
  post('/invitations/:clientId/decline', (c) => answer(async () => {
    const client = await apps.invitations.decline(c.actor, c.clientId);
    return done(c, '/developer', AM.invitationDeclined(client.name));
  }));

  get('/apps/new', async (c) => ({ title: AM.registerTitle, body: registerView(c.who.csrf) }));
  post('/apps/new', async (c) => {
    const form = { name: formField(c.req.body, 'name'), description: formField(c.req.body, 'description'), homepage_url: formField(c.req.body, 'homepage_url'), logo_url: formField(c.req.body, 'logo_url') };
    let clientId = '';
    const failed = await attempt(async () => {
      ({ clientId } = await apps.register(c.actor, { name: form.name, description: form.description, homepageUrl: form.homepage_url, logoUrl: form.logo_url }));
    });
    if (failed) return { status: failed.status, title: AM.registerTitle, body: registerView(c.who.csrf, form, failed.fields, failed.message) };
    return done(c, appPath(clientId), AM.registered(form.name.trim()));
  });

  // Overview and details.
  const overview = async (c: Ctx, failed?: FormFailure, form?: Record<string, string>): Promise<Page> => {
    const app = await apps.getApp(c.actor, c.clientId);
    const secrets = await apps.secretsOf(app);
    return {
      status: failed?.status, title: app.client.name,
      body: overviewView({ app, secrets, issuer: deps.issuer, now: deps.clock.now(), csrf: c.who.csrf, message: failed ? undefined : flashOf(c), form, errors: failed?.fields, formError: failed?.message }),
    };
  };
  get('/apps/:clientId', (c) => overview(c));
  post('/apps/:clientId/details', async (c) => {
    const form = { name: formField(c.req.body, 'name'), description: formField(c.req.body, 'description'), homepage_url: formField(c.req.body, 'homepage_url'), logo_url: formField(c.req.body, 'logo_url') };
    const failed = await attempt(() => apps.updateDetails(c.actor, c.clientId, { name: form.name, description: form.description, homepageUrl: form.homepage_url, logoUrl: form.logo_url }));
    return failed ? overview(c, failed, form) : done(c, `${appPath(c.clientId)}#details`, AM.detailsSaved);
  });

  // Credentials: callback URLs and secrets.
  const credentials = async (c: Ctx, extra: Partial<CredentialsData> = {}): Promise<Page> => {
    const app = await apps.getApp(c.actor, c.clientId);
    const secrets = await apps.secretsOf(app);
    let revealed: RevealedSecret | undefined;
    if (!extra.callback && !extra.secretForm) {
      const sealed = await takeReveal(deps, c.req, c.reply, c.who, revealName(c.clientId));
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
    const failed = await attempt(() => apps.addCallback(c.actor, c.clientId, url));
    if (failed) return { ...(await credentials(c, { callback: { value: url, error: fieldOrForm(failed, 'redirect_uri') } })), status: failed.status };
    return done(c, `${sectionPath(c.clientId, 'credentials')}#callbacks`, AM.callbackAdded);
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
    await setReveal(deps, c.reply, c.who, revealName(c.clientId), JSON.stringify(created));
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

  // Default scopes, the initiate login URI (dashboard launches) and the logout URL.
  get('/apps/:clientId/scopes', async (c) => {
    const app = await apps.getApp(c.actor, c.clientId);
    return { title: title('Scopes', app), body: scopesView(app, c.who.csrf, flashOf(c)) };
  });
  post('/apps/:clientId/scopes', async (c) => {
    const scopes = formFields(c.req.body, 'default_scopes');
    const failed = await attempt(() => apps.setDefaultScopes(c.actor, c.clientId, scopes));
    // None chosen (any unknown one fails above): "cleared", over the page's warning of what that means.
    if (!failed) return done(c, sectionPath(c.clientId, 'scopes'), scopes.length ? AM.scopesSaved : AM.scopesCleared);
    const app = await apps.getApp(c.actor, c.clientId);
    return { status: failed.status, title: title('Scopes', app), body: scopesView(app, c.who.csrf, undefined, fieldOrForm(failed, 'default_scopes')) };
  });
  get('/apps/:clientId/initiate-login-uri', async (c) => {
    const app = await apps.getApp(c.actor, c.clientId);
    return { title: title('Dashboard launch', app), body: launchView(app, c.who.csrf, { message: flashOf(c) }) };
  });
  post('/apps/:clientId/initiate-login-uri', async (c) => {
    const value = formField(c.req.body, 'initiate_login_uri');
    const failed = await attempt(() => apps.setInitiateLoginUri(c.actor, c.clientId, value));
    if (!failed) return done(c, sectionPath(c.clientId, 'launch'), value.trim() ? AM.launchSaved : AM.launchCleared);
    const app = await apps.getApp(c.actor, c.clientId);
    return { status: failed.status, title: title('Dashboard launch', app), body: launchView(app, c.who.csrf, { value, error: fieldOrForm(failed, 'initiate_login_uri') }) };
  });
  post('/apps/:clientId/initiate-login-uri/clear', async (c) => {
    await apps.setInitiateLoginUri(c.actor, c.clientId, undefined);
    return done(c, sectionPath(c.clientId, 'launch'), AM.launchCleared);
  });
  get('/apps/:clientId/logout-url', async (c) => {
    const app = await apps.getApp(c.actor, c.clientId);
    return { title: title('Logout URL', app), body: logoutView(app, c.who.csrf, { message: flashOf(c) }) };
  });
  post('/apps/:clientId/logout-url', async (c) => {
    const value = formField(c.req.body, 'logout_url');
    const failed = await attempt(() => apps.setLogoutUrl(c.actor, c.clientId, value));
    if (!failed) return done(c, sectionPath(c.clientId, 'logout'), value.trim() ? AM.logoutSaved : AM.logoutCleared);
    const app = await apps.getApp(c.actor, c.clientId);
    return { status: failed.status, title: title('Logout URL', app), body: logoutView(app, c.who.csrf, { value, error: fieldOrForm(failed, 'logout_url') }) };
  });
  post('/apps/:clientId/logout-url/clear', async (c) => {
    await apps.setLogoutUrl(c.actor, c.clientId, undefined);
    return done(c, sectionPath(c.clientId, 'logout'), AM.logoutCleared);
  });

  // Team.
  const team = async (c: Ctx, failed?: { status: number; add?: { email: string; error?: string | undefined }; formError?: string | undefined }): Promise<Page> => {
    const app = await apps.getApp(c.actor, c.clientId);
    const members = await apps.teamOf(app);
    const sealed = failed ? undefined : await takeReveal(deps, c.req, c.reply, c.who, teamLinkReveal(c.clientId));
    return {
      status: failed?.status, title: title('Team', app),
      body: teamView({
        app, team: members, me: c.who.developer.id, csrf: c.who.csrf, message: failed ? undefined : flashOf(c), add: failed?.add, formError: failed?.formError,
        byLink: deps.signup === 'open', revealed: sealed ? JSON.parse(sealed) as RevealedLink : undefined,
      }),
    };
  };
  get('/apps/:clientId/team', (c) => team(c));
  post('/apps/:clientId/team', async (c) => {
    const email = formField(c.req.body, 'email');
    let recorded: InvitationRecorded = { email: '' };
    const failed = await attempt(async () => { recorded = await apps.addTeamMember(c.actor, c.clientId, email); });
    if (failed) return team(c, { status: failed.status, add: { email, error: fieldOrForm(failed, 'email') } });
    if (!recorded.link) return done(c, sectionPath(c.clientId, 'team'), AM.invitationRecorded(recorded.email));
    const revealed: RevealedLink = { email: recorded.email, url: recorded.link.url, expiresAt: recorded.link.expiresAt.toISOString() };
    await setReveal(deps, c.reply, c.who, teamLinkReveal(c.clientId), JSON.stringify(revealed));
    return done(c, sectionPath(c.clientId, 'team'), AM.invitationRecordedLink(recorded.email));
  });
  post('/apps/:clientId/team/remove', async (c) => {
    const developerId = formField(c.req.body, 'developer_id');
    const app = await apps.getApp(c.actor, c.clientId);
    const members = await apps.teamOf(app);
    const failed = await attempt(() => apps.removeTeamMember(c.actor, c.clientId, developerId));
    if (failed) return team(c, { status: failed.status, formError: fieldOrForm(failed, 'developer_id') });
    if (developerId === c.who.developer.id) return done(c, '/developer', AM.left(app.client.name));
    const removed = members.find((m) => m.developerId === developerId);
    return done(c, sectionPath(c.clientId, 'team'), (removed?.role === 'invited' ? AM.invitationWithdrawn : AM.memberRemoved)(removed?.displayName ?? 'They'));
  });

  // History, going live, deleting.
  get('/apps/:clientId/history', async (c) => {
    const app = await apps.getApp(c.actor, c.clientId);
    return { title: title('History', app), body: historyView(app, await apps.historyOf(app), flashOf(c)) };
  });
  get('/apps/:clientId/go-live', async (c) => {
    const app = await apps.getApp(c.actor, c.clientId);
    return { title: title('Go live', app), body: liveView(app, c.who.csrf, flashOf(c)) };
  });
  post('/apps/:clientId/go-live', async (c) => {
    const failed = await attempt(() => apps.requestLive(c.actor, c.clientId));
    if (!failed) return done(c, sectionPath(c.clientId, 'live'), AM.liveRequested);
    const app = await apps.getApp(c.actor, c.clientId);
    return { status: failed.status, title: title('Go live', app), body: liveView(app, c.who.csrf, undefined, failed.message) };
  });
  const ownerApp = async (c: Ctx) => {
    const app = await apps.getApp(c.actor, c.clientId);
    if (app.role !== 'owner') throw new ForbiddenError(AM.ownerOnlyDelete);
    return app;
  };
  get('/apps/:clientId/delete', async (c) => {
    const app = await ownerApp(c);
    return { title: title('Delete', app), body: deleteView(app, c.who.csrf) };
  });
  post('/apps/:clientId/delete', async (c) => {
    const app = await ownerApp(c);
    const typed = formField(c.req.body, 'confirm_name');
    if (typed.trim() !== app.client.name) {
      return { status: 400, title: title('Delete', app), body: deleteView(app, c.who.csrf, { value: typed, error: AM.deleteMismatch }) };
    }
    await apps.deleteApp(c.actor, c.clientId);
    return done(c, '/developer', AM.deleted(app.client.name));
  });
}
