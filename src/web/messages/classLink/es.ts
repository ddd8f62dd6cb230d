import type { classLinkEn } from './en.js';
import type { Translation } from '../translation.js';

export const classLinkEs: Translation<typeof classLinkEn> = {
  'classLink.title': 'Tu clase',
  'classLink.heading': 'Escribe el código de la clase',
  'classLink.hint': 'Tu profe lo enseña en la pizarra: 10 letras y números.',
  'classLink.label': 'Código de la clase',
  'classLink.submit': 'Abrir mi clase',
  'classLink.ended.title': 'El enlace de clase terminó',
  'classLink.ended.heading': 'Este enlace de clase ha terminado o no es correcto',
  'classLink.ended.text': 'Revisa el código con tu profe o pídele uno nuevo.',
  'classLink.again': 'Escribir el código otra vez',
  'classLink.expired.form': 'La página estuvo abierta demasiado tiempo. Escribe el código otra vez.',
  'classLink.card.title': '{class}: entra con tu clase',
  'classLink.card.qr': 'Código QR del enlace de la clase (el mismo enlace está escrito abajo)',
  'classLink.card.orType': 'O abre {address} y escribe el código de la clase:',
  'classLink.card.untilToday': 'Funciona hasta las {time} de hoy.',
  'classLink.card.untilTomorrow': 'Funciona hasta mañana a las {time}.',
  'classLink.card.untilDay': 'Funciona hasta el {day}, a las {time}.',
  'classLink.card.then': '{school}: luego toca tu nombre y tus dibujos.',
};
