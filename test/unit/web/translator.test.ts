import t from 'tap';
import { ENGLISH, isolated, translator } from '../../../src/web/i18n/translator.js';

const FSI = '\u2068';
const PDI = '\u2069';

t.test('on a right-to-left page each text argument is isolated (FSI … PDI): a Latin name keeps its punctuation where it is', async (t) => {
  const ar = translator('ar');
  t.equal(ar.t('signIn.signingInTo', { app: 'Maths!' }), `تسجيل الدخول إلى ${FSI}Maths!${PDI}`);
  t.equal(ar.t('signIn.notThisSchool', { school: "St. Mary's C.E." }), `لست في ${FSI}St. Mary's C.E.${PDI}؟ اختر مدرسة أخرى`);
  t.equal(ar.t('classSignIn.greeting', { name: isolated('Ava K.') }).split(FSI).length, 2, 'a name isolated already is isolated once');
  t.match(ar.t('wait.seconds', { count: 5 }), /٥|5/, 'numbers stay numbers (plurals work)');
  t.notMatch(ar.t('wait.seconds', { count: 5 }), FSI, 'and are not wrapped');
});

t.test('left-to-right pages keep their arguments as given', async (t) => {
  t.equal(ENGLISH.t('signIn.signingInTo', { app: 'Maths!' }), 'Signing in to Maths!');
  t.equal(translator('fr').t('signIn.title', { school: 'North' }).includes(FSI), false, 'French');
  t.equal(translator('es').t('signIn.title', { school: 'North' }).includes(FSI), false, 'Spanish');
});

t.test('isolated wraps a name once', async (t) => {
  t.equal(isolated('Ava'), `${FSI}Ava${PDI}`);
  t.equal(isolated(isolated('Ava')), `${FSI}Ava${PDI}`);
});
