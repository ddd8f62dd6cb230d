import type { classLinkEn } from './en.js';
import type { Translation } from '../translation.js';

export const classLinkAr: Translation<typeof classLinkEn> = {
  'classLink.title': 'صفّك',
  'classLink.heading': 'اكتب رمز الصف',
  'classLink.hint': 'يعرضه معلّمك على السبّورة: 10 حروف وأرقام.',
  'classLink.label': 'رمز الصف',
  'classLink.submit': 'افتح صفّي',
  'classLink.ended.title': 'انتهى رابط الصف',
  'classLink.ended.heading': 'رابط الصف هذا انتهى أو غير صحيح',
  'classLink.ended.text': 'تحقّق من الرمز مع معلّمك، أو اطلب رمزًا جديدًا.',
  'classLink.again': 'اكتب الرمز مرة أخرى',
  'classLink.expired.form': 'بقيت الصفحة مفتوحة مدة طويلة. اكتب الرمز مرة أخرى.',
  'classLink.card.title': '{class}: ادخل مع صفك',
  'classLink.card.qr': 'رمز QR لرابط الصف (الرابط نفسه مكتوب في الأسفل)',
  'classLink.card.orType': 'أو افتح {address} واكتب رمز الصف:',
  'classLink.card.untilToday': 'يعمل حتى الساعة {time} اليوم.',
  'classLink.card.untilTomorrow': 'يعمل حتى الساعة {time} غدًا.',
  'classLink.card.untilDay': 'يعمل حتى {day}، الساعة {time}.',
  'classLink.card.then': '{school}: ثم المس اسمك وصورك.',
};
