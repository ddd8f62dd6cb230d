import type { classSignInEn } from './en.js';
import type { Translation } from '../translation.js';

export const classSignInFr: Translation<typeof classSignInEn> = {
  'classSignIn.whoAreYou': 'Qui es-tu ?',
  'classSignIn.tapYourName': 'Touche ton prénom.',
  'classSignIn.names': 'Les prénoms de ta classe',
  'classSignIn.otherWay': 'Se connecter autrement',
  'classSignIn.greeting': 'Bonjour {name} ! Touche tes images',
  'classSignIn.notYou': 'Tu n’es pas {name} ? Retour aux prénoms',
  'classSignIn.usePictures': 'Utiliser mes images',
  'classSignIn.badge': 'Montrer mon badge',
  'classSignIn.hello': 'Bonjour {name} !',
  'classSignIn.badgeGreeting': 'Bonjour {name} ! Montre ton badge à la caméra',
  'classSignIn.notYourBadge': 'Ce n’est pas le badge de {name}. Montre ton propre badge, ou demande à ton enseignant.',
  'classSignIn.helpCodeGreeting': 'Bonjour {name} ! Tape le code d’aide de ton enseignant',
  'classSignIn.helpCodeIncomplete': 'Tape les {count} chiffres de ton code d’aide.',
  'classSignIn.signIn': 'Se connecter',
  'classSignIn.gone.title': 'Choisis encore ton prénom',
  'classSignIn.gone.text': 'Ce prénom n’est plus là. Retourne à l’écran de connexion et choisis encore.',
};
