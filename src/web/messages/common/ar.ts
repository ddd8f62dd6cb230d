import type { commonEn } from './en.js';
import type { Translation } from '../translation.js';

export const commonAr: Translation<typeof commonEn> = {
  'layout.brand': 'Lanyard',
  'layout.skip': 'انتقل إلى المحتوى',
  'language.switch': 'اللغة',
  'error.code': 'رمز الخطأ:',
};
