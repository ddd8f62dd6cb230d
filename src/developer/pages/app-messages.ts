import type { ClientStatus } from '../../../adapters/store.js';

/**
 * Every sentence the app pages show, in one place (the web layer's message catalogue for apps): easy to
 * review, to keep consistent, and to translate later. Field errors come from the service (src/developer).
 */
export const STATUS_TEXT: Record<ClientStatus, { label: string; meaning: string }> = {
  development: {
    label: 'In development',
    meaning: 'Only the test users of the sandbox school can sign in to this app, so you can try the whole flow — '
      + 'username and password, emoji password and badge sign-in — before any real child is involved. '
      + 'When it works, ask to go live.',
  },
  pending: {
    label: 'Waiting for review',
    meaning: 'You asked for this app to go live and an operator will review it. Until it is approved it still '
      + 'signs in only the sandbox school’s test users.',
  },
  live: {
    label: 'Live',
    meaning: 'Users of real schools can sign in to this app.',
  },
};

export const AM = {
  appsTitle: 'Your apps',
  appsIntro: 'Apps you registered, or whose team you are in. Each gets a client_id, callback URLs and secrets for signing people in with Lanyard.',
  yourApps: 'Apps you work on',
  noAppsButInvited: 'None of your own yet: join an app’s team through an invitation above, or register an app.',
  noApps: 'You have no apps yet. Register one to get a client_id and try sign-in with the sandbox school within minutes.',
  registerTitle: 'Register an app',
  registerIntro: 'Lanyard gives the app a client_id at once. It starts in development: only the sandbox school’s test users can sign in until an operator approves it.',
  registered: (name: string) => `“${name}” is registered. Next: add a callback URL and create a secret.`,
  detailsSaved: 'Details saved.',
  callbackAdded: 'Callback URL added. It works at once.',
  callbackProposed: 'Callback URL sent for review: the app is live, so an operator approves it before it works.',
  changeProposed: 'Sent for review: the app is live, so an operator approves the new URL before it takes effect. The current one stays until then.',
  changeWithdrawn: 'The change waiting for review is withdrawn.',
  pendingTitle: 'Waiting for review.',
  pendingHelp: 'This app is live: new callback URLs, logout URLs and initiate login URIs take effect once an operator approves them.',
  proposedBy: (name: string) => `proposed by ${name}`,
  asciiHost: (host: string) => `Its host as DNS spells it: ${host}`,
  hostWarning: (why: string) => `Check this address: ${why}.`,
  callbackRemoved: 'Callback URL removed. Sign-ins that send it are refused from now on.',
  secretCreated: 'Secret created.',
  secretRevoked: (label: string) => `Secret “${label}” revoked. Requests using it are refused with invalid_client from now on.`,
  scopesSaved: 'Default scopes saved.',
  scopesCleared: 'Default scopes cleared.',
  logoutSaved: 'Logout URL saved.',
  logoutCleared: 'Logout URL cleared.',
  launchSaved: 'Initiate login URI saved. Dashboard launches now start at it.',
  launchCleared: 'Initiate login URI cleared. Dashboard launches now bring a code to your first callback URL.',
  invitationRecordedLink: (email: string) => `Invitation recorded for ${email}. Send them the link below: they join the team through it.`,
  invitationWithdrawn: (name: string) => `The invitation to ${name} is withdrawn.`,
  invitationsTitle: 'Invitations to a team',
  invitationsIntro: 'Accept to join the app’s team: you can then see and change its settings, callback URLs and secrets. Decline an invitation you did not expect.',
  invitationsIntroLink: 'To join an app’s team, open the invitation link its owner sent you while you are signed in. Decline an invitation you did not expect.',
  acceptByLink: 'To accept, open the link the owner sent you.',
  joinTitle: (app: string) => `Join the team of “${app}”?`,
  joinIntro: 'As a member of the team you can see and change the app’s settings, callback URLs and secrets. Accept only if you expected this invitation.',
  teamLinkTitle: 'Invitation link for',
  teamLinkOnce: 'Send this link to them yourself: Lanyard sends no email. It works once, and only for the developer account with the address you typed. It is shown only now; if it is lost, withdraw the invitation and invite them again.',
  invitedBy: (name: string) => `Invited by ${name}`,
  invitationAccepted: (app: string) => `You joined the team of “${app}”.`,
  invitationDeclined: (app: string) => `You declined the invitation to the team of “${app}”.`,
  memberRemoved: (name: string) => `${name} is no longer in the team.`,
  left: (app: string) => `You left the team of “${app}”.`,
  liveRequested: 'Request sent. An operator will review the app; you can keep changing it meanwhile.',
  deleted: (name: string) => `“${name}” is deleted. Its secrets no longer work and its users’ tokens are revoked.`,
  secretOnce: 'Copy this secret now and keep it somewhere safe, such as your app’s secret store. Lanyard keeps only a hash of it and cannot show it again.',
  callbacksHelp: 'Where Lanyard sends people back after sign-in. The redirect_uri your app sends must equal one of these exactly, character for character. Use https://; plain http:// only for 127.0.0.1, [::1] or localhost while developing.',
  secretsHelp: 'Your app authenticates at POST /oauth/token with HTTP Basic: its client_id and one of these secrets. Several may be active at once, so you can rotate without downtime: create a new secret, deploy it, then revoke the old one.',
  revokeWarning: 'Anything still using this secret gets invalid_client from the moment you revoke it, on every Lanyard server. This cannot be undone.',
  scopesHelp: 'Default scopes apply when a sign-in request sends no scope at all. That is how users launch your app from their dashboards: Lanyard starts the sign-in itself and sends no scope, so only these defaults decide what your app receives.',
  // SPEC: OpenID Connect rules 1.
  openidWhy: 'Keep openid chosen if your app reads the user from an ID token. Your own sign-in requests should still send scope=openid; without openid as a default scope, a launch from the dashboard returns no id_token, and an app that expects one cannot sign the user in.',
  noScopesWarning: 'With no default scopes, a sign-in request that sends no scope is refused (invalid_scope): dashboard launches will not work.',
  logoutHelp: 'Where GET /oauth/logout?client_id=… sends the browser after signing the user out of Lanyard. Without one, Lanyard shows an error page instead of sending people back to your app.',
  // OpenID Connect Core §4 (third-party initiated login); src/dashboard/ launches.
  launchHelp: 'Optional. When a user opens your app from their Lanyard dashboard, Lanyard sends the browser here with iss, login_hint and target_link_uri; start a normal sign-in (authorization request) from it. Without it, the launch brings an authorization code to your first callback URL, with your default scopes (no state, no nonce).',
  teamHelp: 'Everyone in the team can change the app’s settings, callback URLs and secrets. Only owners can add or remove people and delete the app.',
  teamInviteHelp: 'Adding someone gives you an invitation link to send them: they join the team by opening it, signed in with the address you type (or once they make a developer account with it), and accepting. Someone whose address Lanyard has verified (their account came from an invitation to the developer area) may also accept on their apps page. Lanyard does not say whether the address has an account yet.',
  historyHelp: 'Every change to the app: who made it and when. Secrets appear only by their label and last characters.',
  noHistory: 'No changes recorded yet.',
  liveHelp: 'A live app can sign in users of real schools. An operator reviews each request; until then the app keeps working with the sandbox school.',
  liveNeedsCallback: 'Add at least one callback URL before asking to go live.',
  deleteWarning: 'Deleting the app removes its settings, callback URLs, secrets and team. Every user signed in to it loses their tokens at once, and its client_id stops working everywhere. This cannot be undone.',
  deleteConfirmLabel: 'Type the app’s name to confirm',
  deleteMismatch: 'Type the app’s name exactly as shown to confirm.',
  ownerOnlyDelete: 'Only an owner of the app can delete it.',
  noSuchApp: 'There is no such app, or you are not in its team. Ask its owner to add you.',
} as const;

/** How each recorded action reads in the history (unknown ones are shown by their name). */
export const ACTION_TEXT: Record<string, string> = {
  'app.registered': 'Registered the app',
  'app.details_changed': 'Changed the details',
  'callback.added': 'Added a callback URL',
  'callback.removed': 'Removed a callback URL',
  'secret.created': 'Created a secret',
  'secret.revoked': 'Revoked a secret',
  'scopes.changed': 'Changed the default scopes',
  'logout_url.set': 'Set the logout URL',
  'logout_url.cleared': 'Cleared the logout URL',
  'initiate_login_uri.set': 'Set the initiate login URI',
  'initiate_login_uri.cleared': 'Cleared the initiate login URI',
  'team.member_added': 'Added to the team',
  'team.member_removed': 'Removed from the team',
  'team.member_left': 'Left the team',
  'team.member_invited': 'Invited to the team',
  'team.invitation_accepted': 'Accepted the invitation to the team',
  'team.invitation_declined': 'Declined the invitation to the team',
  'team.invitation_withdrawn': 'Withdrew an invitation to the team',
  'app.live_requested': 'Asked to go live',
  'app.approved': 'Approved the app: it is live',
  'app.declined': 'Declined the request to go live',
  'app.deleted': 'Deleted the app',
};
