/**
 * The pages of a sign-in no one may complete here (interactions/views/refused-page.ts): the app is not the
 * school's, is still in development, or the sandbox school was asked for. The folded "for adults" parts too.
 */
export const refusalEn = {
  'refusal.goBack': 'Go back to {app}',
  'refusal.askAdult': 'If you think your class should have it, ask your teacher or your school’s IT team.',
  'refusal.yourSchool': 'your school',
  'refusal.notConnected.title': 'Not available at your school',
  'refusal.notConnected.heading': 'This app is not available at your school',
  'refusal.notConnected.text': '{app} is not one of the apps {school} uses, so you cannot sign in to it here.',
  'refusal.notConnected.textForAccount': '{app} is not one of the apps {school} uses for your account, so you cannot sign in to it here.',
  'refusal.forIt': 'For your school’s IT team',
  'refusal.notConnected.adults': '{school} has not connected {app}.',
  'refusal.notConnected.adultsForAccount': '{school} has not connected {app} for this kind of account.',
  'refusal.sandbox.title': 'Not available for the sandbox school',
  'refusal.sandbox.text': 'The sandbox school is for testing apps in development: its test users cannot sign in to this app.',
  'refusal.forDevelopers': 'For developers',
  'refusal.sandbox.adults': 'Only apps still in development sign in the sandbox school’s test users.',
  'refusal.development.title': '{app} is not available yet',
  'refusal.development.text': '{app} is still being made, and schools cannot use it yet.',
  'refusal.forAppDevelopers': 'For the app’s developers',
  'refusal.development.adults': 'This app is still in development: only the sandbox school can sign in to it.',
  'refusal.development.adultsHow': 'Its test users sign in to it when the request leaves out the {parameter} parameter or says {value}.',
} as const;
