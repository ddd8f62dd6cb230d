import { createHash, createPrivateKey, createPublicKey, type JsonWebKey, type KeyObject, webcrypto, X509Certificate } from 'node:crypto';
import 'reflect-metadata'; // required by @peculiar/x509 (tsyringe)
import * as x509 from '@peculiar/x509';
import type { KeyPairPem } from './rsa-key-pair.js';

x509.cryptoProvider.set(webcrypto as unknown as Parameters<typeof x509.cryptoProvider.set>[0]);

const SIGNING = { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' } as const;

/** A self-signed X.509 certificate (SHA-256 with RSA, random serial), DER as base64 (the `x5c` form). */
export async function selfSignedCertificate(
  pair: KeyPairPem,
  subjectHost: string,
  notBefore: Date,
  notAfter: Date,
): Promise<string> {
  const toCrypto = (k: KeyObject, usage: 'sign' | 'verify') => k.toCryptoKey(SIGNING, true, [usage]);
  const keys = {
    privateKey: toCrypto(createPrivateKey(pair.privateKeyPem), 'sign'),
    publicKey: toCrypto(createPublicKey(pair.publicKeyPem), 'verify'),
  } as unknown as Parameters<typeof x509.X509CertificateGenerator.createSelfSigned>[0]['keys'];
  const serial = Buffer.from(webcrypto.getRandomValues(new Uint8Array(16)));
  serial[0] = (serial[0]! & 0x7f) | 0x01; // positive, non-zero leading byte
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: serial.toString('hex'),
    name: `CN=${subjectHost}, O=Lanyard`,
    notBefore,
    notAfter,
    keys,
    signingAlgorithm: SIGNING,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
    ],
  });
  return Buffer.from(cert.rawData).toString('base64');
}

/** base64url thumbprint of a DER certificate given as base64 (x5t = SHA-1, x5t#S256 = SHA-256). */
export function certificateThumbprint(certBase64: string, algorithm: 'sha1' | 'sha256'): string {
  return createHash(algorithm).update(Buffer.from(certBase64, 'base64')).digest('base64url');
}

/** The public key a DER certificate (base64, the x5c form) certifies, as a JWK; undefined when unreadable. */
export function certificatePublicJwk(certBase64: string): JsonWebKey | undefined {
  try {
    return new X509Certificate(Buffer.from(certBase64, 'base64')).publicKey.export({ format: 'jwk' });
  } catch {
    return undefined;
  }
}
