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
};
