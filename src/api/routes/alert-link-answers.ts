import { ProblemError } from '../../domain/error-catalog';
import { alertLinkPage } from '../../render/alert-link-page';
import type { AlertLinkOutcome } from '../../usecases/alerting/alert-links';
import { documentCsp } from '../document-csp';
import type { HumanPage } from '../human-page';

/** The document CSP, except that its one form may post back to this URL. */
const linkCsp = (html: string) => documentCsp(html).replace("form-action 'none'", "form-action 'self'");

/** What following a one-click link answers: its page, and the problem an error outcome is to a client that did not ask for HTML. */
export function alertLinkAnswer(outcome: AlertLinkOutcome): HumanPage {
  const html = alertLinkPage(outcome);
  return {
    status: outcome.status,
    html,
    headers: { 'content-security-policy': linkCsp(html), 'cache-control': 'no-store' },
    problem: outcome.status >= 400 ? linkProblem(outcome) : null,
  };
}

function linkProblem(outcome: AlertLinkOutcome): ProblemError {
  const o = outcome as { kind: string; status: number; title?: string; state?: string; detail?: string };
  const about = o.title ? ` (alert “${o.title}”${o.state ? `, now ${o.state}` : ''})` : '';
  switch (o.kind) {
    case 'invalid':
      return new ProblemError(
        'link_invalid',
        'This link is not valid: it may have been cut short when it was copied. Open the alert in the Vigil console instead.',
      );
    case 'expired':
      return new ProblemError(
        'link_expired',
        'This link has expired: one-click links work for 24 hours. Open the alert in the Vigil console instead.',
      );
    case 'used':
      return new ProblemError('link_used', `This link was already used${about}; each link works once.`);
    case 'revoked':
      return new ProblemError(
        'forbidden',
        `This link no longer works${about}: ${(outcome as { why: string }).why}. Sign in to the Vigil console to act on the alert.`,
      );
    case 'failed':
      return new ProblemError(
        'link_not_applied',
        `The alert was not changed${about}: ${o.detail ?? 'it could not be changed'}.`,
      );
    default:
      // An outcome without a token of its own answers the catalog's token for its status.
      return o.status === 403
        ? new ProblemError(
            'forbidden',
            `This link no longer works${about}; sign in to the Vigil console to act on the alert.`,
          )
        : new ProblemError('link_invalid', `This link cannot be used${about}.`);
  }
}
