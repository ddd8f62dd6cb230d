/**
 * The class-link entry's words (src/dashboard/class-link-routes.ts): typing the code a teacher shows, and the
 * page for a link that has ended or was mistyped. Short, for young readers.
 */
export const classLinkEn = {
  'classLink.title': 'Your class',
  'classLink.heading': 'Type the class code',
  'classLink.hint': 'Your teacher shows it on the board: 10 letters and numbers.',
  'classLink.label': 'Class code',
  'classLink.submit': 'Open my class',
  'classLink.ended.title': 'Class link ended',
  'classLink.ended.heading': 'This class link has ended or is wrong',
  'classLink.ended.text': 'Check the code with your teacher, or ask for a new one.',
  'classLink.again': 'Type the code again',
  'classLink.expired.form': 'The page was open too long. Type the code again.',
  'classLink.card.title': '{class}: sign in with your class',
  'classLink.card.qr': 'QR code of the class link (the same link is written below)',
  'classLink.card.orType': 'Or open {address} and type the class code:',
  'classLink.card.untilToday': 'Works until {time} today.',
  'classLink.card.untilTomorrow': 'Works until {time} tomorrow.',
  'classLink.card.untilDay': 'Works until {day}, {time}.',
  'classLink.card.then': '{school}: then tap your name and your pictures.',
} as const;
