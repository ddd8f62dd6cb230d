import t from 'tap';
import { emailProblem, nameProblem, normaliseEmail } from '../../../src/developer/developer-accounts.js';
import { normalisePassword, passwordProblem } from '../../../src/developer/developer-password.js';
import { safeNext } from '../../../src/developer/pages/account-next.js';

t.test('passwords: 15 to 128 characters, not the email or name, not well known', async (t) => {
  t.equal(passwordProblem('a long developer passphrase'), undefined);
  t.equal(passwordProblem('🦊🦊🐱🐶🐭🐹🐰🦊🐻🐼🐨🐯🦁🐮🐷'), undefined, 'emoji count one each');
  t.match(passwordProblem('fourteen chars'), /at least 15/);
  t.match(passwordProblem('x'.repeat(129)), /at most 128/);
  t.match(passwordProblem('ada.lovelace@example.org', { email: 'ada.lovelace@example.org' }), /email/);
  t.match(passwordProblem('Ada Lovelace Countess', { displayName: 'ada lovelace countess' }), /name/);
  t.match(passwordProblem('aaaaaaaaaaaaaaaaaaaa'), /repeated/);
  t.match(passwordProblem('passwordpassword'), /well known/);
  t.match(passwordProblem('1234567890123456'), /well known|sequence/);
  t.match(passwordProblem('abcdefghijklmnopq'), /sequence/);
  t.equal(normalisePassword('ﬁ'.repeat(2)), 'fifi', 'NFKC: the same password typed another way matches');
});

t.test('emails and names', async (t) => {
  t.equal(normaliseEmail('  Ada@Example.ORG '), 'ada@example.org');
  t.equal(emailProblem('ada@example.org'), undefined);
  for (const bad of ['', 'ada', 'ada@', '@example.org', 'ada@example', 'a b@example.org', `${'a'.repeat(250)}@example.org`]) {
    t.ok(emailProblem(bad), `refused: ${bad.slice(0, 20)}`);
  }
  t.equal(nameProblem('Ada Lovelace'), undefined);
  t.match(nameProblem('Ada \u202Eecalevol'), /direction of text/, 'no direction override');
  t.match(nameProblem('Ada \u2067x\u2069'), /direction of text/, 'no direction isolate');
  t.equal(nameProblem('אדה'), undefined, 'right-to-left names are welcome');
  t.ok(nameProblem(''));
  t.ok(nameProblem('x'.repeat(101)));
  t.ok(nameProblem('Ada\nLovelace'));
});

t.test('?next= goes only to a page of the developer area', async (t) => {
  t.equal(safeNext('/developer/apps/abc?tab=secrets'), '/developer/apps/abc?tab=secrets');
  t.equal(safeNext('/developer'), '/developer');
  for (const bad of [undefined, '', 'https://evil.example/developer', '//evil.example/developer', '/\\evil.example', '/developer/../oauth/token',
    '/developerx', '/developer/api/apps', '/developer/sign-in?next=/x', '/docs', 'developer', '/developer/sign-out']) {
    t.equal(safeNext(bad), '/developer', `refused: ${String(bad)}`);
  }
});

t.test('an invitation token in a request line is redacted in the logs', async (t) => {
  const { redactUrl } = await import('../../../src/logging.js');
  const token = 'A'.repeat(43);
  t.equal(redactUrl(`/developer/invitations/${token}`), '/developer/invitations/[redacted]');
  t.equal(redactUrl(`/developer/invitations/${token}?x=1`), '/developer/invitations/[redacted]?x=1');
  t.equal(redactUrl('/developer/account'), '/developer/account');
  t.equal(redactUrl(`/developer/team-invitations/${token}`), '/developer/team-invitations/[redacted]', 'a team invitation’s link too');
  t.equal(redactUrl(`/developer/team-%69nvitations/${token}`), '/developer/team-%69nvitations/[redacted]', 'however it is encoded');
  // Signed out, the link sends the browser to the sign-in with next=<the link>: redacted there as well.
  t.equal(redactUrl(`/developer/sign-in?next=${encodeURIComponent(`/developer/team-invitations/${token}`)}`),
    `/developer/sign-in?next=${encodeURIComponent('/developer/team-invitations/[redacted]')}`, 'inside next');
  t.equal(redactUrl(`/developer/sign-in?next=/developer/invitations/${token}&x=1`), `/developer/sign-in?next=${encodeURIComponent('/developer/invitations/[redacted]')}&x=1`, 'unencoded too');
  t.equal(redactUrl('/developer/sign-in?next=%2Fdeveloper%2Fapps'), '/developer/sign-in?next=%2Fdeveloper%2Fapps', 'any other next kept byte for byte');
  const nested = `/developer/sign-in?next=${encodeURIComponent(`/developer/sign-in?next=${encodeURIComponent(`/developer/team-invitations/${token}`)}`)}`;
  t.notMatch(redactUrl(nested), /A{43}/, 'a next inside a next: its token is not in the line either');
});
