import { prefersHtml } from '../../src/api/human-page';
import { alertLinkAnswer } from '../../src/api/routes/alert-link-answers';
import type { AlertLinkOutcome } from '../../src/usecases/alerting/alert-links';
import { type ApiHarness, startApi } from '../support/api-harness';

/**
 * Pages for people under /v1 (the one-click alert links): a browser gets the page whatever the
 * outcome, any other client gets an error as application/problem+json with its token, as every
 * other error under /v1. Over real HTTP; every exchange is checked against the served OpenAPI
 * document by the harness.
 */
let api: ApiHarness;

beforeAll(async () => {
  api = await startApi();
});
afterAll(async () => api?.close());

/** What Chromium and Firefox send when a person follows a link or posts a form. */
const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8';
const MALFORMED = '/v1/alert-actions/not-a-link';

describe('one-click alert links under /v1', () => {
  it('answers a malformed link to curl, fetch and JSON clients as problem+json link_invalid', async () => {
    for (const method of ['GET', 'POST']) {
      for (const accept of [
        undefined,
        '*/*',
        'application/json',
        'application/problem+json',
        'text/html;q=0.5, application/json',
      ]) {
        const res = await api.request(method, MALFORMED, { headers: accept ? { accept } : {} });
        const where = `${method} Accept: ${accept ?? '(none)'}`;
        expect([where, res.status, res.headers.get('content-type')]).toEqual([
          where,
          400,
          'application/problem+json; charset=utf-8',
        ]);
        expect(res.body).toMatchObject({
          type: 'https://docs.vigil.test/api/getting-started/errors#link_invalid',
          title: 'link_invalid',
          status: 400,
        });
        expect(res.body.detail).toMatch(/This link is not valid/);
        expect(res.headers.get('vary')).toMatch(/accept/i);
      }
    }
  });

  it('answers a browser the HTML page, with its status, for a GET and for the form post', async () => {
    for (const method of ['GET', 'POST']) {
      for (const accept of [BROWSER_ACCEPT, 'text/html']) {
        const res = await api.request(method, MALFORMED, { headers: { accept } });
        expect([method, accept, res.status, res.headers.get('content-type')]).toEqual([
          method,
          accept,
          400,
          'text/html; charset=utf-8',
        ]);
        expect(res.text).toContain('<h1>This link is not valid</h1>');
        expect(res.headers.get('content-security-policy')).toContain("form-action 'self'");
        expect(res.headers.get('cache-control')).toBe('no-store');
        expect(res.headers.get('vary')).toMatch(/accept/i);
      }
    }
  });

  it('gives every error outcome of a link its own token with the status of its page', () => {
    const base = { title: 'Checkout down', action: 'acknowledge' as const, state: 'acknowledged' };
    const outcomes: [AlertLinkOutcome, string][] = [
      [{ status: 400, kind: 'invalid' }, 'link_invalid'],
      [{ status: 410, kind: 'expired' }, 'link_expired'],
      [{ status: 410, kind: 'used', ...base }, 'link_used'],
      [{ status: 409, kind: 'failed', ...base, detail: 'the alert is already resolved' }, 'link_not_applied'],
    ];
    for (const [outcome, token] of outcomes) {
      const page = alertLinkAnswer(outcome);
      expect([outcome.kind, page.status, page.problem?.token, page.problem?.status]).toEqual([
        outcome.kind,
        outcome.status,
        token,
        outcome.status,
      ]);
    }
    expect(alertLinkAnswer({ status: 200, kind: 'confirm', ...base }).problem).toBeNull();
  });
});

describe('prefersHtml', () => {
  it('is true only when the client names HTML at least as high as anything a problem matches', () => {
    for (const accept of [
      BROWSER_ACCEPT,
      'text/html',
      'application/xhtml+xml',
      'text/html, application/json',
      'TEXT/HTML;Q=1',
    ])
      expect([accept, prefersHtml(accept)]).toEqual([accept, true]);
    for (const accept of [
      undefined,
      '',
      '*/*',
      'application/json',
      'application/problem+json',
      'text/*',
      'text/html;q=0.5, */*',
      'text/html;q=0',
      'text/plain',
    ])
      expect([accept, prefersHtml(accept)]).toEqual([accept, false]);
  });
});
