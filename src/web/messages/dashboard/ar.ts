import type { dashboardEn } from './en.js';
import type { Translation } from '../translation.js';

export const dashboardAr: Translation<typeof dashboardEn> = {
  'dashboard.home.title': 'ادخل إلى مدرستك',
  'dashboard.home.heading': 'ابحث عن مدرستك',
  'dashboard.home.lead': 'ادخل مرة واحدة، ثم افتح كل تطبيقات مدرستك.',
  'dashboard.home.cancelled': 'لم تدخل. ابحث عن مدرستك لتحاول مرة أخرى.',
  'dashboard.home.noMatch': 'لا توجد مدرسة باسم «{query}». تحقق من الكتابة، أو اسأل معلمك عن اسم مدرستك.',
  'dashboard.title': 'تطبيقات {school}',
  'dashboard.hello': 'مرحبًا يا {name}',
  'dashboard.signOut': 'خروج',
  'dashboard.yourApps': 'تطبيقاتك',
  'dashboard.noApps': 'لم تضف {school} أي تطبيقات لك بعد. اسأل معلمك.',
  'dashboard.formExpired.title': 'حاول مرة أخرى',
  'dashboard.formExpired.text': 'بقيت هذه الصفحة مفتوحة وقتًا طويلًا. ارجع إلى تطبيقاتك وحاول مرة أخرى.',
  'dashboard.notYourApp.title': 'ليس من تطبيقاتك',
  'dashboard.notYourApp.text': 'هذا التطبيق ليس في صفحتك. ارجع إلى تطبيقاتك واختر غيره.',
};
