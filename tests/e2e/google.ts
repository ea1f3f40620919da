import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import type { JWK } from 'jose';
import { signGoogleToken, type GoogleClaims } from '../support/google';

/**
 * A stand-in for Google Identity Services, served in place of accounts.google.com/gsi/client (the
 * test machine has no internet). Its button hands the page whatever ID token the test queued,
 * like Google's popup would after the person picks an account; the server checks the token for
 * real against the test JWKS.
 */
const FAKE_GSI = `
window.google = { accounts: { id: {
  initialize(options) { window.__gsi = options; },
  renderButton(parent, options) {
    const button = document.createElement('button');
    button.type = 'button';
    button.textContent = options.text === 'signup_with' ? 'Sign up with Google' : 'Sign in with Google';
    button.style.width = options.width + 'px';
    button.style.height = '40px';
    button.onclick = () => window.__gsi.callback({ credential: window.__nextGoogleCredential, select_by: 'btn' });
    parent.replaceChildren(button);
  },
} } };`;

export async function routeGoogleScript(page: Page) {
  await page.route('https://accounts.google.com/gsi/client', (route) => route.fulfill({ contentType: 'text/javascript', body: FAKE_GSI }));
}

/** Signs an ID token with the test key and queues it for the next click on the Google button. */
export async function queueGoogleToken(page: Page, claims: GoogleClaims) {
  const key = JSON.parse(readFileSync(process.env.E2E_GOOGLE_KEY_FILE ?? '', 'utf8')) as JWK;
  const token = await signGoogleToken(key, claims);
  await page.evaluate((credential) => {
    (window as unknown as { __nextGoogleCredential: string }).__nextGoogleCredential = credential;
  }, token);
}
