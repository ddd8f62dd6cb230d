import type { Translation } from '../translation.js';
import type { attemptEn } from './en.js';

export const attemptEs: Translation<typeof attemptEn> = {
  'attempt.wrong.password': 'El usuario y la contraseña no coinciden. Revísalos y vuelve a intentarlo.',
  'attempt.wrong.emoji': 'Esos dibujos no coinciden. Revisa tu usuario y vuelve a intentarlo.',
  'attempt.wrong.emojiPictures': 'Esos no son tus dibujos. Vuelve a intentarlo.',
  'attempt.wrong.badge': 'Esa tarjeta no ha funcionado. Vuelve a intentarlo o pregunta a tu profe.',
  'attempt.wrong.helpCode': 'Ese código de ayuda no ha funcionado. Revisa tu usuario y el código, o pide uno nuevo a tu profe.',
  'attempt.wrong.helpCodeTile': 'Ese código de ayuda no ha funcionado. Revisa el código o pide uno nuevo a tu profe.',
  'attempt.stopped': 'Aquí no se puede entrar por ahora: demasiados intentos fallidos. Pregunta a tu profe, o usa un aparato de la clase o uno donde ya hayas entrado.',
  'attempt.tooMany': 'Demasiados intentos. Espera {wait} y vuelve a intentarlo, o pregunta a tu profe.',
  'attempt.busy': 'Mucha gente está entrando ahora mismo. Espera {wait} y vuelve a intentarlo.',
  'wait.seconds': '{count, plural, one {# segundo} many {# de segundos} other {# segundos}}',
  'wait.minutes': '{count, plural, one {# minuto} many {# de minutos} other {# minutos}}',
  'wait.aboutMinute': 'un minuto más o menos',
  'wait.now': 'un momento: ya puedes intentarlo',
};
