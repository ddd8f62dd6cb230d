/**
 * What a refused sign-in says, on every method's screen (interactions/attempt.ts), and how a wait is told
 * (src/web/waits.ts, counted down by src/web/public/countdown.js from the same messages).
 */
export const attemptEn = {
  'attempt.wrong.password': 'That username and password do not match. Check them and try again.',
  'attempt.wrong.emoji': 'Those pictures do not match. Check your username and try again.',
  'attempt.wrong.emojiPictures': 'Those are not your pictures. Try again.',
  'attempt.wrong.badge': 'That badge did not work. Try again, or ask your teacher.',
  'attempt.wrong.helpCode': 'That help code did not work. Check your username and the code, or ask your teacher for a new one.',
  'attempt.wrong.helpCodeTile': 'That help code did not work. Check the code, or ask your teacher for a new one.',
  'attempt.stopped': 'Signing in here is paused after too many wrong tries. Ask your teacher, or use a classroom device or one you have signed in on before.',
  'attempt.tooMany': 'Too many tries. Please wait {wait}, then try again — or ask your teacher.',
  'attempt.busy': 'Lots of people are signing in right now. Please wait {wait}, then try again.',
  'wait.seconds': '{count, plural, one {# second} other {# seconds}}',
  'wait.minutes': '{count, plural, one {# minute} other {# minutes}}',
  'wait.aboutMinute': 'about a minute',
  'wait.now': 'a moment — try again now',
} as const;
