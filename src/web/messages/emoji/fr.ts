import type { Translation } from '../translation.js';
import type { emojiEn } from './en.js';

export const emojiFr: Translation<typeof emojiEn> = {
  'emoji.title': 'Se connecter à {school}',
  'emoji.prompt': 'Écris ton identifiant, puis touche tes images secrètes',
  'emoji.promptPictures': 'Touche tes images secrètes',
  'emoji.hello': 'Bonjour {name} ! Touche tes images secrètes',
  'emoji.username': 'Ton identifiant',
  'emoji.usernameFirst': 'Écris d’abord ton identifiant.',
  'emoji.tapAll': 'Touche tes {count} images, puis Entrer.',
  'emoji.signIn': 'Entrer',
  'emoji.undo': 'Effacer la dernière image',
  'emoji.undoShort': 'Effacer',
  'emoji.chosen': '{count} images choisies sur {total}',
  'emoji.slots': 'Tes images',
  'emoji.keyboard': 'Clavier d’émojis',
  'emoji.pages': 'Sortes d’images',
  'emoji.hint': 'Utilise les flèches pour passer d’une image à l’autre.',
  'emoji.page.animals': 'Animaux',
  'emoji.page.food': 'À manger',
  'emoji.page.nature': 'Nature',
  'emoji.page.things': 'Objets',
};
