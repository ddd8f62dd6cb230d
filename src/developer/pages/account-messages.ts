import { emailAddress } from '../../web/components.js';
import { html } from '../../web/html.js';
import { API_TOKEN_LABEL_MAX, API_TOKEN_MAX_DAYS } from '../api-tokens.js';
import { PASSWORD_HINT } from '../developer-password.js';
import { INVITATION_DAYS } from '../invitations.js';

/**
 * Every sentence of the developer account pages, in one place (ready for translation). Sign-in messages are
 * generic on purpose: none says whether an email has an account (Standards: generic login errors).
 */
export const M = {
  // Sign-in
  signInTitle: 'Sign in to the developer area',
  signInIntro: 'Sign in with the email and password of your Lanyard developer account.',
  wrongPassword: 'The email or password is wrong. Check them and try again.',
  wrongCode: 'That code did not work. Enter the newest code from your authenticator app, or an unused recovery code.',
  tooManyTries: 'Too many tries. Please wait',
  signInStopped: 'Signing in to this account from a new device is paused after too many wrong tries. Sign in from a device you have used before, or ask the operator of this Lanyard to unlock it.',
  noAccount: `No account yet? Accounts are by invitation: ask the operator of this Lanyard for a link. It is valid ${INVITATION_DAYS} days and works once.`,
  signUpLink: 'Create a developer account',
  // Headings write "two-step sign-in" with non-breaking hyphens (\u2011): a narrow screen breaks a heading at its
  // spaces, never into "sign-" and "in". Screen readers read them as the usual hyphen.
  verifyTitle: 'Two\u2011step sign\u2011in',
  verifyIntro: 'Enter the 6-digit code from your authenticator app. Lost your phone? Enter one of your recovery codes instead.',
  verifyExpired: 'That sign-in took too long. Enter your email and password again.',
  verifyTooManyWrong: 'Too many wrong codes. Enter your email and password again.',
  codeLabel: 'Code',
  codeHint: 'Six digits, or one of your recovery codes.',
  signedOut: 'You are signed out.',
  signedOutEverywhere: 'You are signed out everywhere: every session of your account has ended.',
  preCsrfRefused: 'This form had expired. It has been renewed: please try again.',
  csrfRefused: 'This form had expired or did not come from Lanyard. Go back, reload the page and try again.',

  // Joining
  signUpTitle: 'Create a developer account',
  signUpIntro: 'A developer account lets you register apps that sign people in with Lanyard. You can add a second step (an authenticator app) once you are in.',
  signUpClosedTitle: 'Sign-up is by invitation',
  signUpClosed: 'Developer accounts on this Lanyard are created by invitation. Ask the operator of this Lanyard for an invitation link.',
  signUpBusy: 'Too many accounts were created from your network just now. Try again in an hour.',
  invitationTitle: 'Accept your invitation',
  invitationIntro: (email: string) => html`You have been invited to the Lanyard developer area as ${emailAddress(email)}. Choose the name other developers will see and a password.`,
  invitationGoneTitle: 'This invitation cannot be used',
  invitationGone: `This invitation link has expired or was never valid. Invitations are valid for ${INVITATION_DAYS} days. Ask the operator of this Lanyard for a new one.`,
  invitationUsed: 'This invitation has been used already: each link works once. If it was you, sign in with the password you chose.',
  emailTaken: 'An account with this email already exists. Sign in instead.',
  welcome: (name: string) => `Welcome, ${name}. Your account is ready. Consider turning on two-step sign-in below.`,
  emailLabel: 'Email',
  nameLabel: 'Your name',
  nameHint: 'Shown to the other developers of your apps, and in the history of changes.',
  passwordLabel: 'Password',
  passwordHint: PASSWORD_HINT,
  confirmLabel: 'Password again',
  passwordsDiffer: 'The two passwords are not the same.',

  // Account
  accountTitle: 'Your account',
  renamed: 'Your name is changed.',
  passwordChanged: 'Your password is changed. Every other session of your account has ended.',
  currentPasswordWrong: 'Your current password is not right.',
  totpOnTitle: 'Two\u2011step sign\u2011in is on',
  totpOffTitle: 'Two\u2011step sign\u2011in is off',
  totpOff: 'Anyone who learns your password can change your apps. Add a second step: a code from an authenticator app on your phone.',
  totpEnabled: 'Two-step sign-in is on. Every other session of your account has ended. Keep your recovery codes somewhere safe.',
  totpDisabled: 'Two-step sign-in is off. Every other session of your account has ended.',
  totpSetupTitle: 'Set up two\u2011step sign\u2011in',
  totpSetupIntro: 'Scan this code with an authenticator app (for example one from your phone’s app store), then enter the 6-digit code it shows.',
  totpSetupExpired: 'The set-up took too long. Start again.',
  recoveryTitle: 'Your recovery codes',
  recoveryIntro: 'Each code works once, instead of a code from your app. Save or print them now: Lanyard shows them only this once.',
  recoveryGone: 'Recovery codes are shown only once. Make new ones if you have lost them.',
  sessionsTitle: 'Sessions',
  sessionsIntro: 'A session ends after 30 minutes without use, 12 hours after signing in, or when you sign out. Signing out everywhere ends all of them, and revokes every API token (as changing the password or the second step does).',

  // API tokens
  tokensTitle: 'API tokens',
  tokensIntro: 'Personal tokens for the developer JSON API (/developer/api). A token acts as you: keep it secret, give it a short life, and revoke it when it is no longer needed.',
  tokenRevoked: (label: string) => `The token “${label}” is revoked; it no longer works.`,
  tokenRevokeWarning: 'Scripts still using this token get 401 from the moment you revoke it, on every Lanyard server. This cannot be undone: make a new token if you need one.',
  tokenLabelHint: 'What the token is for, such as “Deploy script”.',
  tokenDaysProblem: `Enter a whole number of days from 1 to ${API_TOKEN_MAX_DAYS}.`,
  tokenLabelProblem: `Enter a label of at most ${API_TOKEN_LABEL_MAX} characters.`,
  tokenPasswordLabel: 'Your password',
  tokenPasswordHint: 'A token acts as you, so making one asks for your password again.',
  tokenPasswordMissing: 'Enter your password: making a token asks for it again.',
  tokenPasswordWrong: 'Your password is not right: no token was made.',
  tokenCodeLabel: 'Code from your authenticator app',
  tokenCodeHint: 'A token acts as you, so making one asks for a new code from your app (not a recovery code).',
  tokenCodeMissing: 'Enter the 6-digit code from your authenticator app: making a token asks for it.',
  tokenCodeWrong: 'That code did not work: no token was made. Enter the newest code from your authenticator app.',
  noHistory: 'Nothing recorded yet.',
  historyInvitedBy: (name: string) => `invited by ${name}`,
  historySignedUp: 'signed up',
  historyRenamed: (from: string, to: string) => `from “${from}” to “${to}”`,
  historyWithTotp: 'with an authenticator code',
  historyWithRecoveryCode: 'with a recovery code',
  historyPasswordOnly: 'with the password alone',
  historyCodesLeft: (n: number) => `${n} ${n === 1 ? 'code' : 'codes'} left`,
} as const;

/** What the history calls each recorded change. */
export const ACTION_TEXT: Record<string, string> = {
  'account.created': 'Account created',
  'account.renamed': 'Name changed',
  'password.changed': 'Password changed',
  'totp.enabled': 'Two-step sign-in turned on',
  'totp.disabled': 'Two-step sign-in turned off',
  'recovery_codes.regenerated': 'New recovery codes made',
  'recovery_code.used': 'Recovery code used',
  'sessions.ended': 'Signed out everywhere',
  signed_in: 'Signed in',
  'token.created': 'API token created',
  'token.revoked': 'API token revoked',
};
