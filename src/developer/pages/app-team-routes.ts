import { formField } from '../../web/http.js';
import type { InvitationRecorded } from '../app-team.js';
import { area } from '../area.js';
import { fieldOrForm } from './app-form.js';
import { AM } from './app-messages.js';
import { sectionPath } from './app-parts.js';
import type { AppRouting, Ctx, Page } from './app-routing.js';
import { type RevealedLink, teamView } from './app-team-view.js';

const teamLinkReveal = (clientId: string) => `team-link:${clientId}`;

/** An app's team: members, invitations (each with a link shown once), leaving. */
export function teamRoutes(r: AppRouting): void {
  const { deps, apps, get, post, done, flashOf, title, attempt } = r;
  const team = async (c: Ctx, failed?: { status: number; add?: { email: string; error?: string | undefined }; formError?: string | undefined }): Promise<Page> => {
    const app = await apps.getApp(c.actor, c.clientId);
    const members = await apps.teamOf(app);
    const sealed = failed ? undefined : await area(deps).reveals.take(c.req, c.reply, c.who.session.key, teamLinkReveal(c.clientId));
    return {
      status: failed?.status, title: title('Team', app),
      body: teamView({
        app, team: members, me: c.who.account.id, csrf: c.who.csrf, message: failed ? undefined : flashOf(c), add: failed?.add, formError: failed?.formError,
        revealed: sealed ? JSON.parse(sealed) as RevealedLink : undefined,
      }),
    };
  };
  get('/apps/:clientId/team', (c) => team(c));
  post('/apps/:clientId/team', async (c) => {
    const email = formField(c.req.body, 'email');
    let recorded: InvitationRecorded = { email: '', link: { url: '', expiresAt: new Date(0) } };
    const failed = await attempt(async () => { recorded = await apps.addTeamMember(c.actor, c.clientId, email); });
    if (failed) return team(c, { status: failed.status, add: { email, error: fieldOrForm(failed, 'email') } });
    const revealed: RevealedLink = { email: recorded.email, url: recorded.link.url, expiresAt: recorded.link.expiresAt.toISOString() };
    await area(deps).reveals.set(c.reply, c.who.session.key, teamLinkReveal(c.clientId), JSON.stringify(revealed));
    return done(c, sectionPath(c.clientId, 'team'), AM.invitationRecordedLink(recorded.email));
  });
  post('/apps/:clientId/team/remove', async (c) => {
    const developerId = formField(c.req.body, 'developer_id');
    const app = await apps.getApp(c.actor, c.clientId);
    const members = await apps.teamOf(app);
    const failed = await attempt(() => apps.removeTeamMember(c.actor, c.clientId, developerId));
    if (failed) return team(c, { status: failed.status, formError: fieldOrForm(failed, 'developer_id') });
    if (developerId === c.who.account.id) return done(c, '/developer', AM.left(app.client.name));
    const removed = members.find((m) => m.developerId === developerId);
    return done(c, sectionPath(c.clientId, 'team'), (removed?.role === 'invited' ? AM.invitationWithdrawn : AM.memberRemoved)(removed?.displayName ?? 'They'));
  });
}
