import t from 'tap';
import { EMAIL_MAX_LENGTH, emailProblem, normaliseEmail, unseenInEmail } from '../../../src/formats/email-address.js';

t.test('normaliseEmail(): trimmed, NFC, lower-cased, the domain in ASCII (punycode)', async (t) => {
  t.equal(normaliseEmail('  Ada@Example.ORG \n'), 'ada@example.org', 'trimmed and lower-cased');
  t.equal(normaliseEmail('zoe\u0308@example.org'), 'zoë@example.org', 'NFC: e + combining diaeresis is ë');
  t.equal(normaliseEmail('zoe\u0308@example.org').length, 'zoë@example.org'.length);
  t.equal(normaliseEmail('Ada@Bücher.Example'), 'ada@xn--bcher-kva.example', 'an IDN domain as punycode');
  t.equal(normaliseEmail('ada@xn--bcher-kva.example'), 'ada@xn--bcher-kva.example', 'already ASCII: unchanged');
  t.equal(normaliseEmail('ada@ｅxample.org'), 'ada@example.org', 'a full-width letter mapped (UTS #46)');
  t.equal(normaliseEmail(normaliseEmail('Ada@Bücher.Example ')), normaliseEmail('Ada@Bücher.Example '), 'idempotent');
  t.equal(normaliseEmail('carol@example.org\u200B'), 'carol@example.org\u200B', 'a domain with an invisible character is left for emailProblem to refuse, not silently cleaned');
  t.equal(normaliseEmail('carol@example.org\uFEFF'), 'carol@example.org\uFEFF', 'a byte-order mark is not trimmed');
  t.equal(normaliseEmail('no-at-sign'), 'no-at-sign');
});

t.test('emailProblem(): each class of unseen character refused with its own words and its code point', async (t) => {
  const cases: [string, RegExp][] = [
    ['carol@example.org\u200B', /an invisible character \(U\+200B\)/],
    ['car\u200Dol@example.org', /an invisible character \(U\+200D\)/],
    ['carol@exa\u00ADmple.org', /an invisible character \(U\+00AD\)/],
    ['carol@example.org\uFEFF', /an invisible character \(U\+FEFF\)/],
    ['\u2060carol@example.org', /an invisible character \(U\+2060\)/],
    ['carol@\u202Egro.elpmaxe', /a character that changes the direction of text \(U\+202E\)/],
    ['carol\u2066@example.org', /direction of text \(U\+2066\)/],
    ['carol@example.org\u200E', /direction of text \(U\+200E\)/],
    ['carol\u061C@example.org', /direction of text \(U\+061C\)/],
    ['carol@example.org\u0000', /a control character \(U\+0000\)/],
    ['car\u0009ol@example.org', /a control character \(U\+0009\)/],
    ['carol@example.org\u0085x', /a control character \(U\+0085\)/],
    ['carol\u007F@example.org', /a control character \(U\+007F\)/],
  ];
  for (const [email, message] of cases) {
    t.match(emailProblem(email), message, JSON.stringify(email));
    t.match(emailProblem(email), /type the address again without it/);
    t.equal(unseenInEmail(email), emailProblem(email), 'unseenInEmail says the same');
  }
});

t.test('emailProblem(): the shape', async (t) => {
  t.equal(emailProblem(''), 'Enter your email address.');
  t.equal(emailProblem('   '), 'Enter your email address.');
  for (const bad of ['ada', 'ada@', '@example.org', 'ada@example', 'a b@example.org', 'ada@exa mple.org', 'ada@@example.org', '<ada@example.org>', `${'a'.repeat(EMAIL_MAX_LENGTH)}@example.org`]) {
    t.equal(emailProblem(bad), 'Enter an email address like name@example.org.', JSON.stringify(bad));
  }
  for (const good of ['ada@example.org', ' Ada@Example.org ', 'ada+lanyard@sub.example.co.uk', 'zoë@bücher.example', 'ada@xn--bcher-kva.example', 'ada@ｅxample.org']) {
    t.equal(emailProblem(good), undefined, JSON.stringify(good));
  }
  t.equal(unseenInEmail('ada@example.org'), undefined);
});
