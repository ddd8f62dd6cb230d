import { PERSONAL_TOKEN_LABEL_MAX, PERSONAL_TOKEN_MAX_DAYS } from '../../accounts/personal-tokens.js';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../../accounts/user-password.js';

/**
 * Every sentence of the console's sign-in second step and account pages, in one place (ready for
 * translation). Refusals are generic on purpose: none says which of several things was wrong.
 */
export const M = {
  // The second step of signing in. Headings write "two-step sign-in" with non-breaking hyphens (\u2011): a narrow
  // screen breaks a heading at its spaces, never into "sign-" and "in".
  secondStepTitle: 'Two\u2011step sign\u2011in',
  secondStepIntro: 'Enter the 6-digit code from your authenticator app. Lost your phone? Enter one of your recovery codes instead.',
  codeLabel: 'Code',
  codeHint: 'Six digits, or one of your recovery codes.',
  wrongCode: 'That code did not work. Enter the newest code from your authenticator app, or an unused recovery code.',
  wrongPassword: 'That is not your password.',
  tooManyTries: 'Too many tries. Please wait',
  stopped: 'Checking codes and passwords for your account from a new device is paused after too many wrong tries. Use a device you have signed in on before, or ask the operator of this Lanyard to unlock your account.',
  secondStepExpired: 'That sign-in took too long, or was not started in this browser. Please sign in again.',
  secondStepTooManyWrong: 'Too many wrong codes. Please sign in again.',
  preCsrfRefused: 'This form had expired. It has been renewed: please try again.',
  signInAgain: 'Sign in to the school console',

  // The account page
  accountTitle: 'Your account',
  schoolsHeading: 'Your schools',
  roleAdmin: 'School admin',
  roleTeacher: 'Teacher',
  passwordHeading: 'Password',
  noPassword: 'You sign in without a Lanyard password (for example with your school’s Google or Microsoft account), so there is no password to change here.',
  currentPasswordLabel: 'Current password',
  newPasswordLabel: 'New password',
  newPasswordHint: `At least ${PASSWORD_MIN_LENGTH} characters; a few unrelated words make a good one.`,
  confirmPasswordLabel: 'New password again',
  passwordChangeNote: 'Changing your password signs you out everywhere else: in the console, in your apps, and your API tokens stop working.',
  currentPasswordMissing: 'Enter your current password.',
  newPasswordProblem: `Choose a password of ${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters.`,
  passwordsDiffer: 'The two new passwords are not the same.',
  passwordChanged: 'Your password is changed. You are signed out everywhere else.',

  // Two-step sign-in
  twoStepOnTitle: 'Two\u2011step sign\u2011in is on',
  twoStepOffTitle: 'Two\u2011step sign\u2011in is off',
  twoStepOn: 'Signing in to the console asks for a code from your authenticator app after your password.',
  twoStepOffTeacher: 'Anyone who learns your password could see your classes. Add a second step: a code from an authenticator app on your phone.',
  twoStepRequiredTitle: 'Set up two\u2011step sign\u2011in',
  twoStepRequired: 'School admins must use two-step sign-in. Before the console opens, set up an authenticator app on your phone: it shows a new 6-digit code every 30 seconds, which you enter after your password each time you sign in.',
  twoStepAdminsKeep: 'School admins keep two-step sign-in on: it cannot be turned off while you are a school admin.',
  setupTitle: 'Set up two\u2011step sign\u2011in',
  setupIntro: 'Scan this code with an authenticator app (for example one from your phone’s app store), then enter the 6-digit code it shows.',
  setupCannotScan: 'Cannot scan? Type this key into the app instead (time-based, 6 digits, every 30 seconds):',
  setupCodeLabel: 'The 6-digit code your app shows',
  setupWrongCode: 'That code does not match. Check the time on your phone and enter the newest code.',
  setupExpired: 'The set-up took too long. Start again.',
  twoStepEnabled: 'Two-step sign-in is on: signing in to the console asks for a code from your app from now on. You are signed out everywhere else, and your API tokens have stopped working. Keep your recovery codes somewhere safe.',
  twoStepDisabled: 'Two-step sign-in is off. You are signed out everywhere else, and your API tokens have stopped working.',
  recoveryTitle: 'Your recovery codes',
  recoveryIntro: 'Each code works once, instead of a code from your app. Save or print them now: Lanyard shows them only this once.',
  recoveryGone: 'Recovery codes are shown only once. Make new ones if you have lost them.',
  recoveryLeft: (n: number) => `You have ${n} unused recovery code${n === 1 ? '' : 's'}.`,
  recoveryReplaceHeading: 'New recovery codes',
  recoveryReplaceHint: 'Your old recovery codes stop working.',
  disableHeading: 'Turn two\u2011step sign\u2011in off',
  twoStepOffNote: 'Anyone who learns your password could then sign in to the console as you. Turning it off signs you out everywhere else, and your API tokens stop working.',

  // Confirming it is you
  confirmCodeOrPasswordLabel: 'Your password, or a code from your app',
  confirmCodeLabel: 'A code from your authenticator app',
  confirmCodeHint: 'The newest 6-digit code (not a recovery code).',
  confirmWithPasswordLabel: 'Your password',
  confirmMissing: 'Enter it first: this change asks who you are again.',
  confirmWrongCode: 'That code did not work. Enter the newest code from your authenticator app.',
  confirmWrong: 'That is neither your password nor a current code from your app.',
  confirmRecent: 'You signed in a moment ago, so nothing more is asked.',
  confirmSignInAgain: 'This asks you to sign in again first: you signed in a while ago and have no password to confirm with.',
  signInAgainButton: 'Sign in again',

  // API tokens
  tokensTitle: 'API tokens',
  tokensIntro: 'Personal tokens for the school console’s JSON API (/school/api), for your school information system and scripts. A token acts as you, with your roles: keep it secret, give it a short life, and revoke it when it is no longer needed.',
  tokensEnd: 'Tokens stop working when they expire, when your password is changed or reset, when two-step sign-in is turned on or off, and when you are signed out everywhere or suspended.',
  tokensNone: 'No API tokens yet.',
  tokenLabelHint: 'What the token is for, such as “Nightly roster sync”.',
  tokenLabelProblem: `Enter a label of one line, at most ${PERSONAL_TOKEN_LABEL_MAX} characters.`,
  tokenDaysProblem: `Enter a whole number of days from 1 to ${PERSONAL_TOKEN_MAX_DAYS}.`,
  tokenTooMany: (n: number) => `You already have ${n} API tokens that work: revoke one you no longer use first.`,
  tokenRevoked: (label: string) => `The token “${label}” is revoked; it no longer works.`,
  tokenRevokeWarning: 'Scripts still using this token get 401 from the moment you revoke it. This cannot be undone: make a new token if you need one.',
  tokenGone: 'This token does not exist (it may have been revoked already).',
} as const;
