/**
 * What a developer account's password must be (NIST SP 800-63B-4 §3.1.1.2). The second factor is optional,
 * so the password may be the only one: at least 15 characters (the rule for single-factor passwords), at
 * most 128, any characters (spaces and emoji too), counted as Unicode code points after NFKC normalisation
 * (so the same password typed on another keyboard still matches). No composition rules, no expiry; refused
 * when it is the account's email or name, one character repeated, or a well-known or keyboard sequence.
 */
export const PASSWORD_MIN_LENGTH = 15;
export const PASSWORD_MAX_LENGTH = 128;

/** What is hashed and verified: NFKC (SP 800-63B-4 §3.1.1.2: normalise before hashing). */
export const normalisePassword = (plain: string): string => plain.normalize('NFKC');

/** The rule in words, for the forms' hints. */
export const PASSWORD_HINT =
  `At least ${PASSWORD_MIN_LENGTH} characters (a few unrelated words make a good one); any characters, spaces included. Not your email or name.`;

/** Known-weak passwords long enough to pass the length rule (a short sample of breach lists). */
const WEAK = new Set([
  'passwordpassword', 'password1234567', 'password12345678', 'password123456789', '123456789012345', '1234567890123456',
  'qwertyuiopasdfg', 'qwertyuiopasdfgh', 'qwertyuiopasdfghjkl', '1q2w3e4r5t6y7u8i', 'iloveyouiloveyou', 'letmeinletmein',
  'correcthorsebatterystaple', 'correct horse battery staple', 'abcdefghijklmnop', 'abcdefghijklmno', 'lanyardlanyard',
  'lanyardpassword', 'developerpassword', 'changemechangeme', 'adminadminadmin', 'welcomewelcome1',
]);

const SEQUENCES = ['0123456789012345678901234567890', 'abcdefghijklmnopqrstuvwxyz', 'qwertyuiopasdfghjklzxcvbnm', '9876543210987654321'];

/** Why the password is refused (a sentence for the form), or undefined when it is fine. */
export function passwordProblem(plain: string, account: { email?: string | undefined; displayName?: string | undefined } = {}): string | undefined {
  const p = normalisePassword(plain);
  const length = [...p].length;
  if (length < PASSWORD_MIN_LENGTH) return `Choose a password of at least ${PASSWORD_MIN_LENGTH} characters.`;
  if (length > PASSWORD_MAX_LENGTH) return `Choose a password of at most ${PASSWORD_MAX_LENGTH} characters.`;
  const lower = p.toLowerCase();
  const email = account.email?.toLowerCase();
  if (email && (lower === email || lower.includes(email) || lower === email.split('@')[0])) return 'Choose a password that is not your email address.';
  const name = account.displayName?.trim().toLowerCase();
  if (name && name.length >= 4 && lower.replace(/\s/g, '') === name.replace(/\s/g, '')) return 'Choose a password that is not your name.';
  if (new Set(lower).size <= 2) return 'Choose a password that is not one or two characters repeated.';
  if (WEAK.has(lower) || WEAK.has(lower.replace(/\s/g, ''))) return 'That password is well known to attackers. Choose another.';
  if (SEQUENCES.some((s) => s.includes(lower.replace(/\s/g, '')))) return 'Choose a password that is not a keyboard or number sequence.';
  return undefined;
}
