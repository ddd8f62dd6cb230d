import type { Translation } from '../translation.js';
import type { attemptEn } from './en.js';

export const attemptAr: Translation<typeof attemptEn> = {
  'attempt.wrong.password': 'اسم المستخدم وكلمة المرور غير متطابقين. تحقّق منهما وحاول مرة أخرى.',
  'attempt.wrong.emoji': 'هذه الصور غير صحيحة. تحقّق من اسم المستخدم وحاول مرة أخرى.',
  'attempt.wrong.emojiPictures': 'هذه ليست صورك. حاول مرة أخرى.',
  'attempt.wrong.badge': 'لم تنجح هذه البطاقة. حاول مرة أخرى، أو اسأل معلّمك.',
  'attempt.wrong.helpCode': 'لم ينجح رمز المساعدة هذا. تحقّق من اسم المستخدم والرمز، أو اطلب رمزًا جديدًا من معلّمك.',
  'attempt.wrong.helpCodeTile': 'لم ينجح رمز المساعدة هذا. تحقّق من الرمز، أو اطلب رمزًا جديدًا من معلّمك.',
  'attempt.stopped': 'الدخول من هنا متوقّف بعد محاولات خاطئة كثيرة. اسأل معلّمك، أو استخدم جهاز الصف أو جهازًا دخلت منه من قبل.',
  'attempt.tooMany': 'محاولات كثيرة. انتظر {wait}، ثم حاول مرة أخرى — أو اسأل معلّمك.',
  'attempt.busy': 'كثيرون يدخلون الآن. انتظر {wait}، ثم حاول مرة أخرى.',
  'wait.seconds': '{count, plural, zero {# ثانية} one {ثانية واحدة} two {ثانيتين} few {# ثوانٍ} many {# ثانية} other {# ثانية}}',
  'wait.minutes': '{count, plural, zero {# دقيقة} one {دقيقة واحدة} two {دقيقتين} few {# دقائق} many {# دقيقة} other {# دقيقة}}',
  'wait.aboutMinute': 'دقيقة تقريبًا',
  'wait.now': 'لحظة — حاول الآن',
};
