import type { classSignInEn } from './en.js';
import type { Translation } from '../translation.js';

export const classSignInEs: Translation<typeof classSignInEn> = {
  'classSignIn.whoAreYou': '¿Quién eres?',
  'classSignIn.tapYourName': 'Toca tu nombre.',
  'classSignIn.names': 'Nombres de tu clase',
  'classSignIn.otherWay': 'Entrar de otra forma',
  'classSignIn.greeting': '¡Hola, {name}! Toca tus dibujos',
  'classSignIn.notYou': '¿No eres {name}? Volver a los nombres',
  'classSignIn.usePictures': 'Usar mis dibujos',
  'classSignIn.badge': 'Enseñar mi tarjeta',
  'classSignIn.hello': '¡Hola, {name}!',
  'classSignIn.badgeGreeting': '¡Hola, {name}! Enseña tu tarjeta a la cámara',
  'classSignIn.notYourBadge': 'Esa no es la tarjeta de {name}. Enseña tu propia tarjeta o pregunta a tu profe.',
  'classSignIn.helpCodeGreeting': '¡Hola, {name}! Escribe el código de ayuda de tu profe',
  'classSignIn.helpCodeIncomplete': 'Escribe los {count} números de tu código de ayuda.',
  'classSignIn.signIn': 'Entrar',
  'classSignIn.gone.title': 'Elige tu nombre otra vez',
  'classSignIn.gone.text': 'Este nombre ya no está aquí. Vuelve a la pantalla de entrada y elige otra vez.',
};
