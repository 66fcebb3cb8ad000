import { REASON_CODES } from '../../src/domain/reason-codes';
import { startApi } from '../support/api-harness';

describe('GET /docs/reasons.json and /docs/reasons: the reasons catalog with classes', () => {
  it('lists every code with its class, label and hint, public, and the page shows the same', async () => {
    const api = await startApi();
    try {
      const res = await api.request('GET', '/docs/reasons.json');
      expect(res.status).toBe(200);
      expect(Object.keys(res.body.codes).sort()).toEqual(Object.keys(REASON_CODES).sort());
      expect(res.body.codes.ECONNREFUSED).toEqual({
        reason_label: 'TCP connection refused',
        reason_hint: expect.any(String),
        reason_class: 'target',
      });
      expect(res.body.codes.stale_agent_silent.reason_class).toBe('measurement');
      expect(res.body.codes.invalid_config.reason_class).toBe('measurement');
      expect(res.body.variable.unexpected_status).toMatchObject({
        reason_class: 'target',
        example: 'unexpected_status:503',
      });
      expect(res.body.variable.target_not_public.reason_class).toBe('measurement');
      expect(res.body.legacy.ConnectionRefused).toBe('ECONNREFUSED');

      const page = await api.request('GET', '/docs/reasons');
      expect(page.status).toBe(200);
      expect(String(page.headers.get('content-type'))).toMatch(/^text\/html/);
      expect(page.text).toMatch(/<tr id="ECONNREFUSED"><td><code>ECONNREFUSED<\/code><\/td><td>target<\/td>/);
      expect(page.text).toMatch(
        /<tr id="header_ref_missing"><td><code>header_ref_missing<\/code><\/td><td>measurement<\/td>/,
      );
    } finally {
      await api.close();
    }
  });
});
