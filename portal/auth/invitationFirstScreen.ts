import type { Invitation } from './invitation';

/**
 * The invitation's details on the first screen. They are the invited page's largest
 * text, and they exist only once the token is checked; waiting for the app's scripts to send that
 * check held them back by seconds on a phone. So the first-screen script (scripts/prerender.ts)
 * sends the check itself, puts the intro into the prerendered page as soon as it answers, and
 * leaves the answer here for the page (InvitedSignUpPage), which renders the same intro from it.
 *
 * The two functions below run in the first-screen script as their own source text: they use
 * nothing but their parameters and browser globals, and declare no named inner functions (a
 * build's name-keeping helper would not exist there). The browser test in shell.spec runs them
 * from the real build; InvitedSignUpPage.test compares their intro with the page's.
 */

/** The invited page's address; its query carries the token. */
export const INVITED_PATH = '/account/invited';
/** Marks the element the intro goes into (the first screen fills it; the page renders into it). */
export const INTRO_ATTRIBUTE = 'data-invitation-intro';

/** What the first-screen script leaves for the page: the reply to its check, and the invitation once it answered. */
export interface FirstScreenInvitationCheck {
  token: string;
  reply: Promise<{ status: number; text: string }>;
  invitation?: Invitation;
  /** The invitation whose intro the script wrote into the first screen. */
  shown?: Invitation;
  /** Set by the page as it takes the first screen over: from then on the script writes nothing. */
  taken?: boolean;
}

declare global {
  interface Window {
    beaconInvitationCheck?: FirstScreenInvitationCheck;
  }
}

type Translate = (key: string, values: Record<string, string>) => string;

/** The invitation's token in an address's query ('' when there is none). */
export function tokenOf(query: URLSearchParams): string {
  return query.get('token')?.trim() ?? '';
}

/** 'You are invited to {company}.', and 'You join as {role}.' when the role is one this product knows. */
export function invitationIntro(invitation: Pick<Invitation, 'companyName' | 'role'>, t: Translate, knownRoles: readonly string[]): string {
  const intro = t('invited.intro', { company: invitation.companyName });
  if (knownRoles.indexOf(invitation.role) < 0) return intro;
  return `${intro} ${t('invited.role', { role: t(`invited.roles.${invitation.role}`, {}) })}`;
}

/**
 * In the first-screen script, right after the invited page's markup went into `root`: sends the
 * check and fills the prerendered intro when it answers, unless the app's own page has taken that
 * markup over by then. Only text goes in (the company's name is the inviter's words).
 */
export function sendFirstScreenCheck(root: HTMLElement, token: string, url: string, introSelector: string, intro: (invitation: Invitation) => string): void {
  const target = root.querySelector(introSelector);
  const check: FirstScreenInvitationCheck = {
    token,
    reply: fetch(url, {
      method: 'POST',
      credentials: 'include',
      headers: { accept: 'application/json', 'content-type': 'application/json' },
      body: JSON.stringify({ token }),
    }).then((res) => res.text().then((text) => ({ status: res.status, text }))),
  };
  window.beaconInvitationCheck = check;
  check.reply
    .then((reply) => {
      if (reply.status < 200 || reply.status > 299) return;
      const invitation = (JSON.parse(reply.text) as { payload: Invitation }).payload;
      check.invitation = invitation;
      if (check.taken || !target?.isConnected) return;
      target.textContent = intro(invitation);
      check.shown = invitation;
    })
    .catch(() => undefined);
}
