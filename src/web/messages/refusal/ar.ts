import type { refusalEn } from './en.js';
import type { Translation } from '../translation.js';

export const refusalAr: Translation<typeof refusalEn> = {
  'refusal.goBack': 'الرجوع إلى {app}',
  'refusal.askAdult': 'إذا كنت تظن أن صفك يجب أن يستخدمه، فاسأل معلمك أو فريق تقنية المعلومات في مدرستك.',
  'refusal.yourSchool': 'مدرستك',
  'refusal.notConnected.title': 'غير متاح في مدرستك',
  'refusal.notConnected.heading': 'هذا التطبيق غير متاح في مدرستك',
  'refusal.notConnected.text': '{app} ليس من التطبيقات التي تستخدمها {school}، لذلك لا يمكنك الدخول إليه هنا.',
  'refusal.notConnected.textForAccount': '{app} ليس من التطبيقات التي تستخدمها {school} لحسابك، لذلك لا يمكنك الدخول إليه هنا.',
  'refusal.forIt': 'لفريق تقنية المعلومات في مدرستك',
  'refusal.notConnected.adults': 'لم تربط {school} التطبيق {app}.',
  'refusal.notConnected.adultsForAccount': 'لم تربط {school} التطبيق {app} لهذا النوع من الحسابات.',
  'refusal.sandbox.title': 'غير متاح لمدرسة التجربة',
  'refusal.sandbox.text': 'مدرسة التجربة لاختبار التطبيقات قيد التطوير: لا يستطيع مستخدموها التجريبيون الدخول إلى هذا التطبيق.',
  'refusal.forDevelopers': 'للمطورين',
  'refusal.sandbox.adults': 'التطبيقات التي ما زالت قيد التطوير وحدها تُدخل مستخدمي مدرسة التجربة.',
  'refusal.development.title': '{app} غير متاح بعد',
  'refusal.development.text': 'ما زال {app} قيد الإعداد، ولا تستطيع المدارس استخدامه بعد.',
  'refusal.forAppDevelopers': 'لمطوري التطبيق',
  'refusal.development.adults': 'هذا التطبيق ما زال قيد التطوير: مدرسة التجربة وحدها تستطيع الدخول إليه.',
  'refusal.development.adultsHow': 'يدخل إليه مستخدموه التجريبيون عندما يخلو الطلب من المعامل {parameter} أو يقول {value}.',
};
