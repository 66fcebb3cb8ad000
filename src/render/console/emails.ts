import { esc } from '../html';

/** The sign-in (or invitation) email: a one-time link. */
export function signInEmail(d: { organization: string; url: string; expiresAt: string; invitation: boolean }): {
  subject: string;
  text: string;
  html: string;
} {
  const subject = d.invitation
    ? `You are invited to the Vigil console of ${d.organization}`
    : `Sign in to the Vigil console of ${d.organization}`;
  const lead = d.invitation
    ? `You have been given access to the Vigil console of ${d.organization}.`
    : `Someone (hopefully you) asked to sign in to the Vigil console of ${d.organization}.`;
  const text = `${lead}\n\nSign in: ${d.url}\n\nThe link works once, until ${d.expiresAt}. If you did not ask for it, ignore this email.\n`;
  const html = `<p>${esc(lead)}</p><p><a href="${esc(d.url)}">Sign in to Vigil</a></p><p>The link works once, until ${esc(d.expiresAt)}. If you did not ask for it, ignore this email.</p>`;
  return { subject, text, html };
}
