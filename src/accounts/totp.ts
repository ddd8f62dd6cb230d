import { Secret, TOTP } from 'otpauth';
import QRCode from 'qrcode';

/**
 * The second factor of the signed-in areas (the developer area, the school console): RFC 6238 TOTP as every
 * authenticator app speaks it (HMAC-SHA-1, 6 digits, 30-second steps, RFC 6238 §4.1/§5.2), over the `otpauth`
 * library. A code is accepted one step either side of now (§5.2: "at most one time step" of allowed network
 * delay and clock drift). Replay (§5.2: a verifier must not accept a code twice) is the caller's to prevent:
 * matchTotp says which step matched.
 */
export const TOTP_ALGORITHM = 'SHA1';
export const TOTP_DIGITS = 6;
export const TOTP_PERIOD_SECONDS = 30;
/** Steps accepted either side of the current one. */
export const TOTP_WINDOW = 1;
/** RFC 4226 §4 R6: the shared secret is at least 128 bits; 160 is recommended. */
const SECRET_BYTES = 20;

/** A new shared secret, base32 (how authenticator apps take it when typed in). */
export const newTotpSecret = (): string => new Secret({ size: SECRET_BYTES }).base32;

/** The step `at` falls in (seconds since the epoch over 30). */
export const totpStep = (at: Date): number => TOTP.counter({ period: TOTP_PERIOD_SECONDS, timestamp: at.getTime() });

/** The code of `secret` for the step `at` falls in (tests and set-up pages compute codes with it). */
export const totpCode = (secret: string, at: Date): string =>
  TOTP.generate({ secret: Secret.fromBase32(secret), algorithm: TOTP_ALGORITHM, digits: TOTP_DIGITS, period: TOTP_PERIOD_SECONDS, timestamp: at.getTime() });

/** Just the digits of what was typed (authenticator apps show "123 456"). */
export const normaliseTotpCode = (typed: string): string => typed.replace(/[\s-]/g, '');

export const looksLikeTotpCode = (typed: string): boolean => new RegExp(`^\\d{${TOTP_DIGITS}}$`).test(normaliseTotpCode(typed));

/** The step whose code `typed` is, within the window around `at`; undefined when it is none of them. */
export function matchTotp(secret: string, typed: string, at: Date): number | undefined {
  const token = normaliseTotpCode(typed);
  if (!looksLikeTotpCode(token)) return undefined;
  const delta = TOTP.validate({
    token,
    secret: Secret.fromBase32(secret),
    algorithm: TOTP_ALGORITHM,
    digits: TOTP_DIGITS,
    period: TOTP_PERIOD_SECONDS,
    timestamp: at.getTime(),
    window: TOTP_WINDOW,
  });
  return delta === null ? undefined : totpStep(at) + delta;
}

/** The `otpauth://totp/…` URI authenticator apps read from the QR code (Key Uri Format). */
export function totpUri(secret: string, o: { issuer: string; account: string }): string {
  return new TOTP({
    issuer: o.issuer,
    label: o.account,
    secret: Secret.fromBase32(secret),
    algorithm: TOTP_ALGORITHM,
    digits: TOTP_DIGITS,
    period: TOTP_PERIOD_SECONDS,
  }).toString();
}

/** The URI as a QR code image (a data: URL, which the content security policy allows for images). */
export const totpQrDataUrl = (uri: string): Promise<string> =>
  QRCode.toDataURL(uri, { errorCorrectionLevel: 'M', margin: 2, width: 232 });

/** The secret in groups of four, easier to type into an app that cannot scan. */
export const groupedSecret = (secret: string): string => secret.replace(/(.{4})(?=.)/g, '$1 ');
