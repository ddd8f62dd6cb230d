/**
 * The error pages a pupil may meet (src/web/error-page.ts, page-errors.ts, the sign-in's own refusals, the
 * provider's error page): what happened, in a sentence a child can read, and the way on.
 */
export const errorsEn = {
  'errors.schoolApps': 'Go to your school apps',
  'errors.expired.title': 'Sign-in expired',
  'errors.expired.text': 'This sign-in took too long or was already finished. Start again from the app, or from your school apps.',
  'errors.unavailable.title': 'Try again in a moment',
  'errors.unavailable.text': 'Lanyard is busy for a moment. Please wait a few seconds and try again.',
  'errors.notFound.title': 'Page not found',
  'errors.notFound.text': 'There is nothing at this address. Check it for a typing mistake, or start again from your school apps.',
  'errors.tooMany.title': 'Too many sign-ins at once',
  'errors.tooMany.text': 'Lots of sign-ins are coming from your network right now. Please wait {wait}, then try again.',
  'errors.server.title': 'Something went wrong',
  'errors.server.text': 'Lanyard could not finish this step. Start again from the app, or from your school apps.',
  'errors.unreadable.title': 'That did not work',
  'errors.unreadable.text': 'The form could not be read. Start again from the app, or from your school apps.',
  'errors.notFoundShort': 'Not found',
  'errors.cannotSignIn': 'Cannot sign you in',
  'errors.formExpired': 'This form has expired. Start again from the app, or from your school apps.',
  'errors.unexpectedStep': 'This sign-in step is not expected now.',
  'errors.unsupportedStep': 'This sign-in step is not supported.',
  'errors.notAvailable': 'Not available',
  'errors.methodDisabled': '{school} does not use this way of signing in.',
  'errors.cannotCancel': 'Cannot cancel',
  'errors.app.unregistered': 'This app is not registered with Lanyard. Tell your teacher, or whoever runs the app.',
  'errors.app.badAddress': 'This app asked to send you to an address it has not registered. Tell your teacher, or whoever runs the app.',
  'errors.app.badRequest': 'The app sent a sign-in request Lanyard could not understand. Go back and try again.',
  'errors.app.other': 'Something went wrong while signing you in. Go back to the app and try again.',
  'errors.logout.title': 'Cannot sign you out here',
  'errors.logout.refused': 'The app asked Lanyard to sign you out, but its request was not right, so Lanyard has not signed you out. To sign out, go to your school apps and press Sign out. Tell your teacher, or whoever runs the app.',
} as const;
