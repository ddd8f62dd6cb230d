import t from 'tap';
import { reviewedUrl, reviewLine } from '../../../src/clients/reviewed-url.js';

t.test('hosts are shown in ASCII, with how they read, and a host mixing writing systems is flagged', async (t) => {
  t.same(reviewedUrl('https://аpple.com/cb'), {
    ascii: 'https://xn--pple-43d.com/cb', unicodeHost: 'аpple.com',
    warning: 'the host mixes writing systems (Cyrillic and Latin in “аpple”): it may imitate another name',
  }, 'a Cyrillic а among Latin letters');
  t.match(reviewedUrl('https://ρaypal.com/'), { ascii: 'https://xn--aypal-2ce.com/', warning: /Greek and Latin/ });
  t.same(reviewedUrl('https://apple.com/cb'), { ascii: 'https://apple.com/cb', unicodeHost: undefined, warning: undefined }, 'plain ASCII');
  t.same(reviewedUrl('https://bücher.example/cb'), { ascii: 'https://xn--bcher-kva.example/cb', unicodeHost: 'bücher.example', warning: undefined }, 'Latin with accents is one script');
  t.same(reviewedUrl('https://яндекс.рф/'), { ascii: 'https://xn--d1acpjx3f.xn--p1ai/', unicodeHost: 'яндекс.рф', warning: undefined }, 'all Cyrillic: shown in ASCII, not flagged');
  t.equal(reviewedUrl('https://例え.テスト/cb').warning, undefined, 'Japanese mixes Han and kana as a matter of course');
  t.equal(reviewedUrl('https://xn--pple-43d.com/').unicodeHost, 'аpple.com', 'typed as punycode: still shown as it reads');
  t.match(reviewedUrl('http://localhost:8080/callback'), { ascii: 'http://localhost:8080/callback', warning: undefined });
  t.match(reviewedUrl('not a url'), { ascii: 'not a url', warning: /not a URL/ });
  t.equal(reviewLine('https://apple.com/cb'), 'https://apple.com/cb');
  t.match(reviewLine('https://аpple.com/cb'), /^https:\/\/xn--pple-43d\.com\/cb {2}\(reads as аpple\.com; WARNING: the host mixes/);
});
