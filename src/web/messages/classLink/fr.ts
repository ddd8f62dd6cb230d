import type { classLinkEn } from './en.js';
import type { Translation } from '../translation.js';

export const classLinkFr: Translation<typeof classLinkEn> = {
  'classLink.title': 'Ta classe',
  'classLink.heading': 'Tape le code de la classe',
  'classLink.hint': 'Ton enseignant le montre au tableau : 10 lettres et chiffres.',
  'classLink.label': 'Code de la classe',
  'classLink.submit': 'Ouvrir ma classe',
  'classLink.ended.title': 'Lien de classe terminé',
  'classLink.ended.heading': 'Ce lien de classe est terminé ou n’est pas bon',
  'classLink.ended.text': 'Vérifie le code avec ton enseignant, ou demande-lui un nouveau code.',
  'classLink.again': 'Taper le code à nouveau',
  'classLink.expired.form': 'La page est restée ouverte trop longtemps. Tape le code à nouveau.',
  'classLink.card.title': '{class} : connecte-toi avec ta classe',
  'classLink.card.qr': 'QR code du lien de la classe (le même lien est écrit en dessous)',
  'classLink.card.orType': 'Ou ouvre {address} et tape le code de la classe :',
  'classLink.card.untilToday': 'Marche jusqu’à {time} aujourd’hui.',
  'classLink.card.untilTomorrow': 'Marche jusqu’à demain {time}.',
  'classLink.card.untilDay': 'Marche jusqu’au {day}, {time}.',
  'classLink.card.then': '{school} : ensuite, touche ton nom et tes images.',
};
