/**
 * The guessing protection's scopes for the console (src/accounts/login-throttle.ts): a member of staff's
 * password checked again in the console, and their second step, each count apart from each other and from
 * the school's sign-in screens (so that guesses made with a stolen console session never stop the person's
 * own sign-in), by the user's id. `lanyard users unlock` clears them with the rest.
 */
export const STAFF_THROTTLE_SCOPE = { password: 'school-console', secondFactor: 'school-console-second-factor' } as const;
