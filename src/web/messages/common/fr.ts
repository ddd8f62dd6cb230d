import type { commonEn } from './en.js';
import type { Translation } from '../translation.js';

export const commonFr: Translation<typeof commonEn> = {
  'layout.brand': 'Lanyard',
  'layout.skip': 'Aller au contenu',
  'language.switch': 'Langue',
  'error.code': 'Code d’erreur :',
};
