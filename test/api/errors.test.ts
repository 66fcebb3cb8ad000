import { type ApiHarness, startApi } from '../support/api-harness';

let api: ApiHarness;
beforeAll(async () => {
  api = await startApi({
    bodyLimit: 1024,
    beforeListen: (app) => {
      app.get('/__boom', async () => {
        throw new Error('secret internal detail at /srv/vigil/db.ts:42');
      });
      // Hands its query value and path segment to PostgreSQL, as a lookup by name would.
      app.get('/__lookup/:name', async (request) => {
        const { name } = request.params as { name: string };
        const { q } = request.query as { q?: string };
        const rows = await request.em
          .getConnection()
          .execute('select ?::text as name, ?::text as q', [name, q ?? null]);
        return rows[0];
      });
    },
  });
});
afterAll(async () => api.close());

describe('problem+json errors (spec §2.5, §7.1)', () => {
  it.each([
    ['malformed JSON', '{"name": '],
    ['a JSON array', '[{"name":"x"}]'],
    ['a JSON string', '"name"'],
    ['JSON null', 'null'],
  ])('answers 400 invalid_json for %s', async (_what, raw) => {
    const org = await api.createOrg();
    const res = await api.request('POST', '/v1/services', {
      key: org.key,
      rawBody: raw,
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toBe('application/problem+json; charset=utf-8');
    expect(res.body).toEqual({
      type: 'https://docs.vigil.test/api/getting-started/errors#invalid_json',
      title: 'invalid_json',
      status: 400,
      detail: expect.any(String),
    });
  });

  it('answers 404 not_found for an unknown route', async () => {
    const res = await api.request('GET', '/v1/no-such-thing');
    expect(res.status).toBe(404);
    expect(res.body.title).toBe('not_found');
  });

  it('answers 413 payload_too_large for an oversized body', async () => {
    const org = await api.createOrg();
    const res = await api.request('POST', '/v1/services', {
      key: org.key,
      body: { name: 'x', description: 'y'.repeat(4096) },
    });
    expect(res.status).toBe(413);
    expect(res.body.title).toBe('payload_too_large');
  });

  it.each(['application/x-www-form-urlencoded', 'text/plain', 'application/xml'])(
    'answers 415 unsupported_media_type for a %s body',
    async (type) => {
      const org = await api.createOrg();
      const res = await api.request('POST', '/v1/services', {
        key: org.key,
        rawBody: 'name=x',
        headers: { 'content-type': type },
      });
      expect(res.status).toBe(415);
      expect(res.body.title).toBe('unsupported_media_type');
    },
  );

  it('answers 500 internal_error without a stack trace or the original message', async () => {
    const res = await api.request('GET', '/__boom');
    expect(res.status).toBe(500);
    expect(res.body.title).toBe('internal_error');
    expect(res.text).not.toMatch(/secret|\/srv|at .*\.ts/);
  });

  it('names the query parameter in validation errors of the query string', async () => {
    const org = await api.createOrg();
    const res = await api.request('GET', '/v1/services?limit=abc', { key: org.key });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].path).toBe('query.limit');
  });

  it('refuses U+0000 in a query value naming the parameter, and answers 404 for a path segment holding it, before PostgreSQL sees it', async () => {
    const org = await api.createOrg();
    for (const path of [
      '/v1/services?cursor=%00',
      '/v1/metrics?service_id=a%00b',
      '/v1/sla/statements?period=2026-0%00',
    ]) {
      const res = await api.request('GET', path, { key: org.key });
      expect([path, res.status, res.body.title]).toEqual([path, 400, 'validation_failed']);
      expect(res.body.errors[0].path).toMatch(/^query\./);
    }
    // A route that reads them from PostgreSQL never sees them (the protocol refuses U+0000: a 500 before).
    expect((await api.request('GET', '/__lookup/ok?q=fine')).body).toEqual({ name: 'ok', q: 'fine' });
    const query = await api.request('GET', '/__lookup/ok?q=a%00b');
    expect([query.status, query.body.title, query.body.errors]).toEqual([
      400,
      'validation_failed',
      [{ path: 'query.q', message: expect.stringContaining('U+0000') }],
    ]);
    expect((await api.request('GET', '/__lookup/a%00b')).status).toBe(404);
    for (const [method, path] of [
      ['GET', '/v1/services/%00'],
      ['POST', '/v1/status-page/a%00b/subscribe'],
      ['GET', '/v1/heartbeats/hb_%00'],
    ] as const) {
      const res = await api.request(method, path, {
        key: org.key,
        ...(method === 'POST' ? { body: { email: 'a@example.com' } } : {}),
      });
      expect([path, res.status, res.body.title]).toEqual([path, 404, 'not_found']);
    }
  });

  it('echoes or assigns X-Request-Id', async () => {
    const given = await api.request('GET', '/healthz', { headers: { 'x-request-id': 'trace-123' } });
    expect(given.headers.get('x-request-id')).toBe('trace-123');
    const assigned = await api.request('GET', '/healthz');
    expect(assigned.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });
});
