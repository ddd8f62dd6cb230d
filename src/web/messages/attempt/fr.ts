import type { Translation } from '../translation.js';
import type { attemptEn } from './en.js';

export const attemptFr: Translation<typeof attemptEn> = {
  'attempt.wrong.password': 'L’identifiant et le mot de passe ne correspondent pas. Vérifie-les et réessaie.',
  'attempt.wrong.emoji': 'Ces images ne correspondent pas. Vérifie ton identifiant et réessaie.',
  'attempt.wrong.emojiPictures': 'Ce ne sont pas tes images. Réessaie.',
  'attempt.wrong.badge': 'Ce badge n’a pas marché. Réessaie, ou demande à ton enseignant.',
  'attempt.wrong.helpCode': 'Ce code d’aide n’a pas marché. Vérifie ton identifiant et le code, ou demande un nouveau code à ton enseignant.',
  'attempt.wrong.helpCodeTile': 'Ce code d’aide n’a pas marché. Vérifie le code, ou demande un nouveau code à ton enseignant.',
  'attempt.stopped': 'La connexion est en pause ici après trop d’essais ratés. Demande à ton enseignant, ou utilise un appareil de la classe ou un appareil où tu t’es déjà connecté.',
  'attempt.tooMany': 'Trop d’essais. Attends {wait}, puis réessaie — ou demande à ton enseignant.',
  'attempt.busy': 'Beaucoup de monde se connecte en ce moment. Attends {wait}, puis réessaie.',
  'wait.seconds': '{count, plural, one {# seconde} many {# de secondes} other {# secondes}}',
  'wait.minutes': '{count, plural, one {# minute} many {# de minutes} other {# minutes}}',
  'wait.aboutMinute': 'environ une minute',
  'wait.now': 'un instant — tu peux réessayer',
};
