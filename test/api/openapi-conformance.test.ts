import { type ApiHarness, type HttpResult, startApi } from '../support/api-harness';
import { type Exchange, OpenApiConformance } from '../support/openapi-conformance';

/**
 * The harness checks every exchange of every suite against the served document (see
 * test/support/openapi-conformance.ts). These tests show that the check catches each kind of drift,
 * by altering real exchanges one way at a time.
 */
let api: ApiHarness;
let conformance: OpenApiConformance;
let key: string;
beforeAll(async () => {
  api = await startApi();
  conformance = await OpenApiConformance.create(JSON.parse(JSON.stringify(api.app.swagger())));
  key = (await api.createOrg()).key;
});
afterAll(async () => api.close());

function exchange(method: string, url: string, res: HttpResult, changes: Partial<Exchange> = {}): Exchange {
  return {
    method,
    url,
    requestHeaders: { authorization: `Bearer ${key}` },
    status: res.status,
    responseHeaders: new Headers(res.headers),
    responseBody: res.body,
    responseText: res.text,
    ...changes,
  };
}

function withoutHeader(headers: Headers, name: string): Headers {
  const copy = new Headers(headers);
  copy.delete(name);
  return copy;
}

describe('the OpenAPI conformance check of every exchange', () => {
  it('passes real exchanges: a list, a create with Idempotency-Key, an optional body left out, a 404 and a 429', async () => {
    const list = await api.request('GET', '/v1/services?limit=5', { key });
    expect(conformance.check(exchange('GET', '/v1/services?limit=5', list))).toEqual([]);
    const body = { name: 'Checkout' };
    const headers = { 'idempotency-key': 'conformance-1' };
    const created = await api.request('POST', '/v1/services', { key, body, headers });
    const replayed = await api.request('POST', '/v1/services', { key, body, headers });
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    expect(
      conformance.check(
        exchange('POST', '/v1/services', replayed, {
          requestBody: body,
          requestHeaders: { authorization: `Bearer ${key}`, ...headers },
        }),
      ),
    ).toEqual([]);
    const incident = await api.request('POST', '/v1/incidents', {
      key,
      body: { title: 'Down', severity: 'major', publish: true, affected_services: [created.body.id] },
    });
    const resolved = await api.request('POST', `/v1/incidents/${incident.body.id}/resolve`, { key });
    expect(resolved.status).toBe(200);
    expect(conformance.check(exchange('POST', `/v1/incidents/${incident.body.id}/resolve`, resolved))).toEqual([]);
    const missing = await api.request('GET', '/v1/services/00000000-0000-4000-8000-000000000000', { key });
    expect(missing.status).toBe(404);
  });

  it('reports a response body that breaks its schema', async () => {
    const list = await api.request('GET', '/v1/services', { key });
    const { next_cursor: _drop, ...body } = list.body;
    const problems = conformance.check(exchange('GET', '/v1/services', list, { responseBody: body }));
    expect(problems.join('\n')).toMatch(/listServices.*response body.*next_cursor/);
  });

  it('reports a status the operation does not document, and a media type it does not', async () => {
    const list = await api.request('GET', '/v1/services', { key });
    expect(conformance.check(exchange('GET', '/v1/services', list, { status: 418 })).join('\n')).toMatch(
      /status 418 is not documented/,
    );
    const html = new Headers(list.headers);
    html.set('content-type', 'text/html; charset=utf-8');
    expect(conformance.check(exchange('GET', '/v1/services', list, { responseHeaders: html })).join('\n')).toMatch(
      /media type text\/html is not documented/,
    );
  });

  it('reports a missing required header, and a header sent that the document does not declare', async () => {
    const list = await api.request('GET', '/v1/services', { key });
    expect(
      conformance
        .check(
          exchange('GET', '/v1/services', list, {
            responseHeaders: withoutHeader(list.headers, 'x-ratelimit-remaining'),
          }),
        )
        .join('\n'),
    ).toMatch(/required header x-ratelimit-remaining is missing/);
    const etag = new Headers(list.headers);
    etag.set('etag', '"v1"');
    expect(conformance.check(exchange('GET', '/v1/services', list, { responseHeaders: etag })).join('\n')).toMatch(
      /header etag is sent but not declared/,
    );
    const badValue = new Headers(list.headers);
    badValue.set('x-ratelimit-limit', 'lots');
    expect(conformance.check(exchange('GET', '/v1/services', list, { responseHeaders: badValue })).join('\n')).toMatch(
      /header x-ratelimit-limit: lots/,
    );
  });

  it('reports a 429 whose body lacks `limit` (spec §8) or whose answer lacks Retry-After', async () => {
    const body = {
      type: 'https://docs.vigil.test/api/getting-started/errors#rate_limited',
      title: 'rate_limited',
      status: 429,
      detail: 'Slow down.',
      retry_after: 5,
    };
    const headers = new Headers({ 'content-type': 'application/problem+json', 'retry-after': '5' });
    for (const h of [
      'x-ratelimit-limit',
      'x-ratelimit-remaining',
      'x-ratelimit-reset',
      'x-ratelimit-daily-limit',
      'x-ratelimit-daily-remaining',
      'x-ratelimit-daily-reset',
    ])
      headers.set(h, '1');
    const tooMany = { status: 429, headers, body, text: JSON.stringify(body) } as HttpResult;
    expect(conformance.check(exchange('GET', '/v1/services', tooMany)).join('\n')).toMatch(/response body.*limit/);
    const withLimit = { ...body, limit: { scope: 'organization', window: 'minute', max: 60, plan: 'team' } };
    const complete = { ...tooMany, body: withLimit, text: JSON.stringify(withLimit) };
    expect(conformance.check(exchange('GET', '/v1/services', complete))).toEqual([]);
    expect(
      conformance
        .check(exchange('GET', '/v1/services', { ...complete, headers: withoutHeader(headers, 'retry-after') }))
        .join('\n'),
    ).toMatch(/required header retry-after/);
  });

  it('reports a request the API accepted that the document would refuse (the document stricter than the runtime)', async () => {
    const created = await api.request('POST', '/v1/services', { key, body: { name: 'Search' } });
    expect(created.status).toBe(201);
    expect(conformance.check(exchange('POST', '/v1/services', created, { requestBody: { name: 'Search' } }))).toEqual(
      [],
    );
    expect(
      conformance.check(exchange('POST', '/v1/services', created, { requestBody: { title: 'Search' } })).join('\n'),
    ).toMatch(/createService.*accepted request/);
  });

  it('reports a path no operation serves unless the answer is the catch-all 404', async () => {
    const none = await api.request('GET', '/v1/nothing-here', { key });
    expect(none.status).toBe(404);
    expect(conformance.check(exchange('GET', '/v1/nothing-here', { ...none, status: 200 })).join('\n')).toMatch(
      /no operation in the document serves this path/,
    );
  });
});
