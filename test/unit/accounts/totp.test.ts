import t from 'tap';
import {
  groupedSecret, looksLikeTotpCode, matchTotp, newTotpSecret, totpCode, totpQrDataUrl, totpStep, totpUri,
} from '../../../src/accounts/totp.js';

// RFC 6238 Appendix B: the SHA-1 seed "12345678901234567890" (base32 below); 6-digit codes are the last six digits.
const RFC_SECRET = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';
const VECTORS: [number, string][] = [
  [59, '287082'], [1111111109, '081804'], [1111111111, '050471'], [1234567890, '005924'], [2000000000, '279037'],
];

t.test('codes match RFC 6238 Appendix B (SHA-1, 30-second steps, 6 digits)', async (t) => {
  for (const [seconds, code] of VECTORS) {
    const at = new Date(seconds * 1000);
    t.equal(totpCode(RFC_SECRET, at), code, `T=${seconds}`);
    t.equal(matchTotp(RFC_SECRET, code, at), totpStep(at), 'accepted at its own step');
  }
});

t.test('one step either side is accepted, two are not', async (t) => {
  const at = new Date(1_700_000_000_000);
  const step = totpStep(at);
  const codeAt = (s: number) => totpCode(RFC_SECRET, new Date(s * 30_000));
  t.equal(matchTotp(RFC_SECRET, codeAt(step - 1), at), step - 1);
  t.equal(matchTotp(RFC_SECRET, codeAt(step + 1), at), step + 1);
  t.equal(matchTotp(RFC_SECRET, codeAt(step - 2), at), undefined);
  t.equal(matchTotp(RFC_SECRET, codeAt(step + 2), at), undefined);
});

t.test('what people type: spaces allowed, anything but six digits refused', async (t) => {
  const at = new Date(59_000);
  t.equal(matchTotp(RFC_SECRET, '287 082', at), totpStep(at));
  t.equal(matchTotp(RFC_SECRET, '28708', at), undefined);
  t.equal(matchTotp(RFC_SECRET, '2870823', at), undefined);
  t.equal(matchTotp(RFC_SECRET, 'abcdef', at), undefined);
  t.equal(matchTotp(RFC_SECRET, '', at), undefined);
  t.ok(looksLikeTotpCode('123 456'));
  t.notOk(looksLikeTotpCode('ABCD-EFGH-JKLM-NPQR'));
});

t.test('new secrets: 160 bits, base32, different every time; URI and QR code', async (t) => {
  const a = newTotpSecret();
  t.match(a, /^[A-Z2-7]{32}$/, '20 bytes in base32');
  t.not(newTotpSecret(), a);
  const uri = totpUri(a, { issuer: 'Lanyard (id.example.org)', account: 'ada@example.org' });
  const parsed = new URL(uri);
  t.equal(parsed.protocol, 'otpauth:');
  t.equal(parsed.host, 'totp');
  t.equal(parsed.searchParams.get('secret'), a);
  t.equal(parsed.searchParams.get('issuer'), 'Lanyard (id.example.org)');
  t.equal(parsed.searchParams.get('algorithm'), 'SHA1');
  t.equal(parsed.searchParams.get('digits'), '6');
  t.equal(parsed.searchParams.get('period'), '30');
  t.match(decodeURIComponent(parsed.pathname), 'ada@example.org');
  t.match(await totpQrDataUrl(uri), /^data:image\/png;base64,/);
  t.equal(groupedSecret('ABCDEFGHIJ'), 'ABCD EFGH IJ');
});
