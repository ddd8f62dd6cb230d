/**
 * The emoji keyboard's words (interactions/views/emoji-keyboard.ts, interactions/public/emoji.js via the page).
 * The pictures' own names are in emojiNames/.
 */
export const emojiEn = {
  'emoji.title': 'Sign in to {school}',
  'emoji.prompt': 'Type your username, then tap your secret pictures',
  'emoji.promptPictures': 'Tap your secret pictures',
  'emoji.hello': 'Hello {name}! Tap your secret pictures',
  'emoji.username': 'Your username',
  'emoji.usernameFirst': 'Type your username first.',
  'emoji.tapAll': 'Tap all {count} of your pictures, then Sign in.',
  'emoji.signIn': 'Sign in',
  'emoji.undo': 'Delete the last picture',
  'emoji.undoShort': 'Delete',
  'emoji.chosen': '{count} of {total} pictures chosen',
  'emoji.slots': 'Your pictures',
  'emoji.keyboard': 'Emoji keyboard',
  'emoji.pages': 'Kinds of pictures',
  'emoji.hint': 'Use the arrow keys to move between the pictures.',
  'emoji.page.animals': 'Animals',
  'emoji.page.food': 'Food',
  'emoji.page.nature': 'Nature',
  'emoji.page.things': 'Things',
} as const;
