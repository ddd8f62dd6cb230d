import type { classSignInEn } from './en.js';
import type { Translation } from '../translation.js';

export const classSignInAr: Translation<typeof classSignInEn> = {
  'classSignIn.whoAreYou': 'من أنت؟',
  'classSignIn.tapYourName': 'المس اسمك.',
  'classSignIn.names': 'أسماء صفّك',
  'classSignIn.otherWay': 'الدخول بطريقة أخرى',
  'classSignIn.greeting': 'مرحبًا يا {name}! المس صورك',
  'classSignIn.notYou': 'لست {name}؟ عُد إلى الأسماء',
  'classSignIn.usePictures': 'استخدم صوري',
  'classSignIn.badge': 'أُري بطاقتي',
  'classSignIn.hello': 'مرحبًا يا {name}!',
  'classSignIn.badgeGreeting': 'مرحبًا يا {name}! أرِ بطاقتك للكاميرا',
  'classSignIn.notYourBadge': 'هذه ليست بطاقة {name}. أرِ بطاقتك أنت، أو اسأل معلّمك.',
  'classSignIn.helpCodeGreeting': 'مرحبًا يا {name}! اكتب رمز المساعدة من معلّمك',
  'classSignIn.helpCodeIncomplete': 'اكتب كل أرقام رمز المساعدة ({count}).',
  'classSignIn.signIn': 'دخول',
  'classSignIn.gone.title': 'اختر اسمك مرة أخرى',
  'classSignIn.gone.text': 'هذا الاسم لم يعد هنا. عُد إلى شاشة الدخول واختر مرة أخرى.',
};
