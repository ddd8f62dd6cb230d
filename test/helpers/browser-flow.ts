import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as client from 'openid-client';
import type { BrowserContextOptions } from 'playwright-core';
import type { Test } from 'tap';
import { launchBrowser } from './browser.js';
import { writeQrVideo } from './fake-camera.js';
import { startLanyard } from './lanyard.js';
import { type AuthorizationRequest, authorizationRequest, DEMO_CLIENT, relyingParty } from './relying-party.js';

export const DESKTOP: BrowserContextOptions = { viewport: { width: 1280, height: 800 } };
/** A classroom tablet in portrait (iPad-sized), touched, not clicked. */
export const TABLET: BrowserContextOptions = { viewport: { width: 768, height: 1024 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true };
export const PHONE: BrowserContextOptions = { viewport: { width: 375, height: 667 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true };
/** A school Chromebook's screen. */
export const CHROMEBOOK: BrowserContextOptions = { viewport: { width: 1366, height: 768 } };
/** The three sizes every page is looked at (Standards: phone, tablet and Chromebook), by the name its screenshots carry. */
export const THREE_SIZES: readonly [string, BrowserContextOptions][] = [['phone', PHONE], ['tablet', TABLET], ['chromebook', CHROMEBOOK]];

/**
 * A browser sign-in's cast: a Lanyard (the demo, or another config file), an openid-client relying party
 * configured by discovery, a fresh authorization request, and Chromium (with a fake camera playing a QR
 * code holding `qr`, when given; refused to the page with `cameraRefused`).
 */
export async function browserSetUp(t: Test, o: { qr?: string; config?: string; cameraRefused?: boolean } = {}) {
  const lanyard = await startLanyard(t, o.config ? { env: { LANYARD_CONFIG: o.config } } : {});
  const rp = await relyingParty(lanyard.url);
  const req = await authorizationRequest(rp);
  let fakeCameraFile: string | undefined;
  if (o.qr) {
    const dir = mkdtempSync(join(tmpdir(), 'lanyard-camera-'));
    t.teardown(() => rmSync(dir, { recursive: true, force: true }));
    fakeCameraFile = writeQrVideo(o.qr, dir);
  }
  const browser = await launchBrowser(t, fakeCameraFile ? { fakeCameraFile, cameraRefused: o.cameraRefused } : {});
  return { lanyard, rp, req, browser };
}

/** The relying party's half: the callback's code → tokens with openid-client, then the ID token's claims. */
export async function assertSignedIn(
  t: Test,
  rp: client.Configuration,
  req: AuthorizationRequest,
  callback: URL,
  want: { givenName: string; type: string },
): Promise<void> {
  t.equal(`${callback.origin}${callback.pathname}`, DEMO_CLIENT.redirectUri, 'browser lands on the registered callback');
  t.equal(callback.searchParams.get('state'), req.state, 'with the state');
  t.ok(callback.searchParams.get('code'), 'and a code');
  const tokens = await client.authorizationCodeGrant(rp, callback, {
    expectedNonce: req.nonce,
    expectedState: req.state,
    pkceCodeVerifier: req.codeVerifier,
  });
  const claims = tokens.claims()!;
  t.match(claims.sub, /^[a-z]\d+$/, 'ID token sub');
  t.equal(claims.given_name, want.givenName, `ID token given_name: ${want.givenName}`);
  t.equal(claims.type, want.type, 'ID token type');
  t.equal(claims.nonce, req.nonce, 'ID token nonce');
}
