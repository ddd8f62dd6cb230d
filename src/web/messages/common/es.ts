import type { commonEn } from './en.js';
import type { Translation } from '../translation.js';

export const commonEs: Translation<typeof commonEn> = {
  'layout.brand': 'Lanyard',
  'layout.skip': 'Ir al contenido',
  'language.switch': 'Idioma',
  'error.code': 'Código de error:',
};
