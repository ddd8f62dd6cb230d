import type { Translation } from '../translation.js';
import type { emojiEn } from './en.js';

export const emojiAr: Translation<typeof emojiEn> = {
  'emoji.title': 'الدخول إلى {school}',
  'emoji.prompt': 'اكتب اسم المستخدم، ثم المس صورك السرية',
  'emoji.promptPictures': 'المس صورك السرية',
  'emoji.hello': 'مرحبًا يا {name}! المس صورك السرية',
  'emoji.username': 'اسم المستخدم',
  'emoji.usernameFirst': 'اكتب اسم المستخدم أولًا.',
  'emoji.tapAll': 'المس صورك الـ{count} كلها، ثم «دخول».',
  'emoji.signIn': 'دخول',
  'emoji.undo': 'حذف آخر صورة',
  'emoji.undoShort': 'حذف',
  'emoji.chosen': 'اخترت {count} من {total} صور',
  'emoji.slots': 'صورك',
  'emoji.keyboard': 'لوحة الإيموجي',
  'emoji.pages': 'أنواع الصور',
  'emoji.hint': 'استخدم مفاتيح الأسهم للتنقل بين الصور.',
  'emoji.page.animals': 'حيوانات',
  'emoji.page.food': 'طعام',
  'emoji.page.nature': 'طبيعة',
  'emoji.page.things': 'أشياء',
};
