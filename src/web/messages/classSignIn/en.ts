/**
 * Class sign-in (docs/childrens-sign-in.md → Class sign-in): the name tiles of a class on a classroom device or
 * through a class link, and the screens for the pupil whose tile was tapped (interactions/class-tiles.ts).
 * Every other language's file has exactly these keys.
 */
export const classSignInEn = {
  'classSignIn.whoAreYou': 'Who are you?',
  'classSignIn.tapYourName': 'Tap your name.',
  'classSignIn.names': 'Names in your class',
  'classSignIn.otherWay': 'Sign in another way',
  'classSignIn.greeting': 'Hi {name}! Tap your pictures',
  'classSignIn.notYou': 'Not {name}? Back to the names',
  'classSignIn.usePictures': 'Use my pictures',
  'classSignIn.badge': 'Show my badge',
  'classSignIn.hello': 'Hi {name}!',
  'classSignIn.badgeGreeting': 'Hi {name}! Show your badge to the camera',
  'classSignIn.notYourBadge': 'That is not the badge of {name}. Show your own badge, or ask your teacher.',
  'classSignIn.helpCodeGreeting': 'Hi {name}! Type the help code from your teacher',
  'classSignIn.helpCodeIncomplete': 'Type all {count} numbers of your help code.',
  'classSignIn.signIn': 'Sign in',
  'classSignIn.gone.title': 'Choose your name again',
  'classSignIn.gone.text': 'This name is not here any more. Go back to the sign-in screen and choose again.',
} as const;
