/**
 * Hostile input against every operation of the served OpenAPI document, the agent protocol, the
 * public status host and the HTTP framework beneath them. It proves that no request, however
 * malformed, gets a 5xx; that every 4xx is a problem+json whose `title` is a token of
 * ERROR_CATALOG and whose `status` is the HTTP status (the status host's pages for people answer
 * HTML instead, by design); and that a refused request writes nothing: the row count and latest
 * change of the main tables of both organizations are compared before and after each request.
 * It also pins the answers of the cases it once found failing.
 *
 * The requests are seeded (VIGIL_FUZZ_SEED, VIGIL_FUZZ_RANDOM), so a run repeats. The harness
 * lives in test/support/fuzz/: stack.ts starts the real parts and the two organizations
 * (holdings.ts), operations.ts reads the served document, cases.ts, mutations.ts,
 * valid-bodies.ts and hostile-values.ts build the requests, status-host.ts the status host's,
 * invariants.ts judges every answer and watches for writes, wire.ts sends.
 */
import net from 'node:net';
import { ROUTE_SCOPES } from '../../src/api/route-scopes';
import { rawRows } from '../../src/db/raw-sql';
import { signLinkToken } from '../../src/crypto/signed-links';
import type { ApiHarness } from '../support/api-harness';
import { testLinkKey } from '../support/env';
import type { VendorReceiver } from '../support/vendor-receivers';
import { BAD_AUTH, casesOf, shotOf } from '../support/fuzz/cases';
import { encode, toBuffer } from '../support/fuzz/encoding';
import { HTTP_THRESHOLDS, type Holdings, must, unique } from '../support/fuzz/holdings';
import { FOREIGN_UUID, forged } from '../support/fuzz/hostile-values';
import type { Fire, FuzzStats } from '../support/fuzz/invariants';
import { HTML_PAGES, type Operation } from '../support/fuzz/operations';
import { STATUS_HOST, type FuzzStack, startFuzzStack } from '../support/fuzz/stack';
import { statusHostCases } from '../support/fuzz/status-host';
import { type Shot, rawRequest } from '../support/fuzz/wire';

let stack: FuzzStack | undefined;
let api: ApiHarness;
let port: number;
let pagerduty: VendorReceiver;
let owner: Holdings;
let stranger: Holdings;
let operations: Operation[];
let stats: FuzzStats;
let fire: Fire;
const started = Date.now();

beforeAll(async () => {
  stack = await startFuzzStack();
  ({ api, port, pagerduty, owner, stranger, operations, stats, fire } = stack);
}, 120_000);

afterAll(async () => {
  await stack?.close();
});

describe('fuzzing', () => {
  it('answers every operation of the served OpenAPI document without a 5xx, with catalogued problems, writing nothing when refusing', async () => {
    expect(operations.length).toBeGreaterThanOrEqual(100);
    for (const op of operations) {
      stats.operations.add(op.operationId);
      for (const c of casesOf(op, owner, stranger)) {
        const shot = shotOf(op, c, owner, stranger);
        await fire(`${op.operationId} [${c.label}]`, shot, {
          html: HTML_PAGES.has(op.operationId),
          ...(c.raw ? { raw: rawRequest(shot, `127.0.0.1:${port}`) } : {}),
        });
      }
    }
    expect(stats.failures).toEqual([]);
    // What the alert operations and channel tests sent still kept the Events API v2 contract.
    expect(pagerduty.requests.length).toBeGreaterThanOrEqual(4);
    expect(pagerduty.violations()).toEqual([]);
  }, 600_000);

  it('answers the agent protocol with every kind of credential', async () => {
    const agentOps = operations.filter((op) => ROUTE_SCOPES[op.operationId] === 'agent');
    expect(agentOps.length).toBeGreaterThanOrEqual(5);
    const before = stats.failures.length;
    // The fuzzing above revoked the owner's agent (revokeAgent ran last): a fresh one, connected.
    const agent = await must<{ id: string; token: string }>(owner.org, 'POST', '/v1/agents', { name: 'protocol' });
    const beat = await api.request('POST', '/v1/agent/heartbeat', {
      headers: { authorization: `Bearer ${agent.token}` },
      body: { version: '1.7.0' },
    });
    expect(beat.status).toBe(200);
    const own: Holdings = { ...owner, agentToken: agent.token, live: { ...owner.live, agent: agent.id } };
    for (const op of agentOps) {
      for (const auth of BAD_AUTH(own)) {
        const shot = shotOf(op, { label: 'credential', auth }, own, stranger);
        await fire(
          `${op.operationId} [authorization ${auth === null ? '(none)' : JSON.stringify(auth.slice(0, 24))}]`,
          shot,
        );
      }
      // Another organization's agent, on this organization's job.
      await fire(
        `${op.operationId} [another organization's agent]`,
        shotOf(op, { label: 'foreign agent', auth: `Bearer ${stranger.agentToken}` }, own, stranger),
      );
    }
    expect(stats.failures.slice(before)).toEqual([]);
  }, 300_000);

  it('answers the public status host (pages, feeds, subscribe, confirm) without a 5xx, writing nothing when refusing', async () => {
    const before = stats.failures.length;
    const page = owner.live.subdomain;
    const cases = statusHostCases(owner, stranger);
    for (const c of cases) {
      const host = `${c.host ?? page}.${STATUS_HOST}:${port}`;
      const headers: Record<string, string> = { host, ...c.headers };
      if (c.type) headers['content-type'] = c.type;
      const shot: Shot = { method: c.method ?? 'GET', path: c.path, headers, body: c.body };
      stats.statusHostRoutes.add(
        `${shot.method} ${c.path
          .split('?')[0]!
          .replace(/^\/(incidents|maintenances)\/.*/, '/$1/:id')
          .replace(/%ED%A0%80$/, '')}`,
      );
      const where = `status host ${shot.method} ${c.path.slice(0, 60)} [${c.label}]`;
      const ans = await fire(where, shot, {
        html: !c.program,
        ...(c.raw ? { raw: rawRequest({ ...shot, headers: c.headers ?? {} }, host) } : {}),
      });
      if (c.program && ans && ans.status >= 400 && ans.type.startsWith('text/html'))
        stats.failures.push(`${where}: a feed or summary answered HTML ${ans.status}`);
    }
    expect(stats.failures.slice(before)).toEqual([]);
  }, 300_000);

  it('answers framework-level errors as catalogued problems', async () => {
    const before = stats.failures.length;
    const key = owner.org.key;
    const expectProblem = async (where: string, raw: string | Buffer, status: number, title: string) => {
      const ans = await fire(where, { method: 'GET', path: '/', headers: {} }, { raw });
      if (ans && (ans.status !== status || !ans.text.includes(`"title":"${title}"`)))
        stats.failures.push(`${where}: expected ${status} ${title}, got ${ans.status} ${ans.text.slice(0, 120)}`);
    };
    const get = (path: string, extra = '', host = `127.0.0.1:${port}`) =>
      `GET ${path} HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${key}\r\n${extra}Connection: close\r\n\r\n`;
    await expectProblem('malformed percent-encoding in a path', get('/v1/services/%ED%A0%80'), 400, 'invalid_url');
    await expectProblem('invalid percent-encoding in a path', get('/v1/services/%zz'), 400, 'invalid_url');
    await expectProblem(
      'malformed percent-encoding on the status host',
      get('/%ED%A0%80', '', `${owner.live.subdomain}.${STATUS_HOST}:${port}`),
      400,
      'invalid_url',
    );
    await expectProblem(
      'a path parameter over the router limit',
      get(`/v1/services/${'a'.repeat(500)}`),
      404,
      'not_found',
    );
    await expectProblem(
      'headers over maxHeaderSize',
      get('/v1/services', `X-Fuzz: ${'h'.repeat(20_000)}\r\n`),
      431,
      'headers_too_large',
    );
    await expectProblem('a header name with a space', get('/v1/services', 'X Bad: 1\r\n'), 400, 'malformed_request');
    await expectProblem('a garbage request line', 'GARBAGE\r\n\r\n', 400, 'malformed_request');
    await expectProblem(
      'Content-Length and Transfer-Encoding together',
      `POST /v1/services HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n0\r\n\r\n`,
      400,
      'malformed_request',
    );
    await expectProblem(
      'a broken chunked body',
      `POST /v1/services HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\nzz\r\n{}\r\n0\r\n\r\n`,
      400,
      'malformed_request',
    );
    await expectProblem(
      'a body over the limit',
      `POST /v1/services HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Length: 99999999\r\nConnection: close\r\n\r\n{}`,
      413,
      'payload_too_large',
    );
    await expectProblem(
      'malformed JSON',
      `POST /v1/services HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{"`,
      400,
      'invalid_json',
    );
    await expectProblem(
      'an XML body',
      `POST /v1/services HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/xml\r\nContent-Length: 4\r\nConnection: close\r\n\r\n<a/>`,
      415,
      'unsupported_media_type',
    );

    // A request timeout is Node's to detect (headersTimeout, requestTimeout); what it answers is
    // Fastify's clientErrorHandler: raise the error Node raises on a live connection.
    const server = api.app.server;
    const accepted = new Promise<net.Socket>((resolve) => server.once('connection', resolve));
    const answer = new Promise<string>((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => socket.write('GET /v1/services HTTP/1.1\r\nHost: x\r\n'));
      let text = '';
      socket.on('data', (d) => (text += d.toString()));
      socket.on('close', () => resolve(text));
      socket.on('error', () => undefined);
    });
    server.emit(
      'clientError',
      Object.assign(new Error('Request timeout'), { code: 'ERR_HTTP_REQUEST_TIMEOUT' }),
      await accepted,
    );
    const timeout = await answer;
    stats.requests++;
    if (
      !/^HTTP\/1\.1 408 /.test(timeout) ||
      !/application\/problem\+json/.test(timeout) ||
      !timeout.includes('"title":"request_timeout"')
    )
      stats.failures.push(`request timeout: ${timeout.slice(0, 200)}`);
    expect(stats.failures.slice(before)).toEqual([]);
  }, 60_000);

  /** What the fuzzer found, pinned: each was a 500 (or a write behind a refusal) before its fix. */
  it('keeps the answers of the cases it found', async () => {
    const before = stats.failures.length;
    const org = owner.org;
    const key = `Bearer ${org.key}`;
    const service = (await must<{ id: string }>(org, 'POST', '/v1/services', { name: 'regressions' })).id;
    const metric = (
      await must<{ id: string }>(org, 'POST', '/v1/metrics', {
        service_id: service,
        name: 'regressions',
        source_type: 'manual',
        source_config: {},
      })
    ).id;
    const incident = (await must<{ id: string }>(org, 'POST', '/v1/incidents', { title: 'regressions' })).id;
    const maintenance = (
      await must<{ id: string }>(org, 'POST', '/v1/maintenances', {
        title: 'regressions',
        scheduled_start_at: '2099-05-01T00:00:00.000Z',
        scheduled_end_at: '2099-05-01T01:00:00.000Z',
      })
    ).id;
    const slo = (
      await must<{ id: string }>(org, 'POST', '/v1/slos', {
        name: 'regressions',
        service_id: service,
        objective: '99',
        window: { kind: 'rolling', days: 7 },
      })
    ).id;
    const webhook = (
      await must<{ id: string }>(org, 'POST', '/v1/webhooks', {
        url: 'https://hooks.example.com/regressions',
        event_types: ['incident.created'],
        enabled: false,
      })
    ).id;
    const page = (
      await must<{ id: string }>(org, 'POST', '/v1/status-pages', {
        subdomain: unique('fzreg'),
        title: 'regressions',
        groups: [{ name: null, components: [{ kind: 'service', id: service }] }],
      })
    ).id;
    const agent = await must<{ id: string; token: string }>(org, 'POST', '/v1/agents', { name: 'regressions' });
    const beat = await api.request('POST', '/v1/agent/heartbeat', {
      headers: { authorization: `Bearer ${agent.token}` },
      body: { version: '1.7.0' },
    });
    expect(beat.status).toBe(200);
    const agentMetric = (
      await must<{ id: string }>(org, 'POST', '/v1/metrics', {
        service_id: service,
        name: 'regressions',
        source_type: 'prometheus',
        source_config: { query: 'up' },
        thresholds: HTTP_THRESHOLDS,
        agent_id: agent.id,
      })
    ).id;
    const customer = (await must<{ id: string }>(org, 'POST', '/v1/customers', { name: 'regressions' })).id;
    // Berlin kept local mean time (+00:53:28) until April 1893, a month of no whole number of minutes;
    // a contract may start in year 0000, which PostgreSQL cannot hold.
    const berlin = (
      await must<{ id: string }>(org, 'POST', '/v1/contracts', {
        customer_id: customer,
        name: 'regressions',
        service_ids: [service],
        sla_target_pct: '99.9',
        timezone: 'Europe/Berlin',
        currency: 'EUR',
        monthly_fee_minor: 1000,
        effective_from: '0000-01-01',
        credit_terms: { type: 'tiered', steps: [{ below_pct: '99.9', credit_pct: '10' }], maintenance_notice_hours: 0 },
      })
    ).id;
    const json = (v: unknown) => toBuffer(encode(v));
    const cases: {
      label: string;
      method: string;
      path: string;
      body?: Buffer;
      type?: string;
      auth?: string;
      expect: [number, string | null];
    }[] = [
      {
        label: 'a cursor at year +275760',
        method: 'GET',
        path: `/v1/services?cursor=${forged('+275760-09-13T00:00:00.000Z', FOREIGN_UUID)}`,
        expect: [400, 'validation_failed'],
      },
      {
        label: 'a cursor at year -271821',
        method: 'GET',
        path: `/v1/agents?cursor=${forged('-271821-04-20T00:00:00.000Z', FOREIGN_UUID)}`,
        expect: [400, 'validation_failed'],
      },
      {
        label: 'a cursor at year 0000',
        method: 'GET',
        path: `/v1/slos?cursor=${forged('0000-01-01T00:00:00.000Z', FOREIGN_UUID)}`,
        expect: [400, 'validation_failed'],
      },
      {
        label: 'NUL in a service description',
        method: 'POST',
        path: '/v1/services',
        body: json({ name: 'x', description: 'nul \u0000 byte' }),
        expect: [400, 'validation_failed'],
      },
      {
        label: 'NUL in a metadata key',
        method: 'POST',
        path: '/v1/change-events',
        body: json({ kind: 'deploy', title: 'x', metadata: { ['ver\u0000sion']: '1' } }),
        expect: [400, 'validation_failed'],
      },
      {
        label: 'a lone surrogate in an incident title',
        method: 'PATCH',
        path: `/v1/incidents/${incident}`,
        body: json({ title: 'lone \ud800 surrogate' }),
        expect: [400, 'validation_failed'],
      },
      {
        label: 'a lone low surrogate in change-event metadata',
        method: 'POST',
        path: '/v1/change-events',
        body: json({ kind: 'deploy', title: 'x', metadata: { version: 'low \udc00 first' } }),
        expect: [400, 'validation_failed'],
      },
      {
        label: 'NUL in a webhook URL',
        method: 'PATCH',
        path: `/v1/webhooks/${webhook}`,
        body: json({ url: 'https://xn--80ak6aa92e.com/\u0000' }),
        expect: [400, 'validation_failed'],
      },
      {
        label: 'NUL in an agent name',
        method: 'POST',
        path: '/v1/agents',
        body: json({ name: 'a\u0000b' }),
        expect: [400, 'validation_failed'],
      },
      {
        label: 'NUL in a probe test (its own tokens)',
        method: 'POST',
        path: '/v1/metrics/test',
        body: json({
          agent_id: agent.id,
          source_type: 'http',
          source_config: { url: 'https://example.com/\u0000' },
          wait_seconds: 0,
        }),
        expect: [400, 'invalid_json'],
      },
      {
        label: 'NUL in a YAML configuration document',
        method: 'POST',
        path: '/v1/config/apply',
        type: 'application/yaml',
        body: Buffer.from('version: 1\nservices:\n  - config_key: nul\n    name: "a\\0b"\n'),
        expect: [400, 'config_invalid'],
      },
      {
        label: 'month 13, hour 25',
        method: 'PATCH',
        path: `/v1/maintenances/${maintenance}`,
        body: json({ scheduled_end_at: '2026-13-01T25:61:61.000Z' }),
        expect: [400, 'validation_failed'],
      },
      {
        label: '30 February',
        method: 'POST',
        path: '/v1/maintenances',
        body: json({
          title: 'x',
          scheduled_start_at: '2099-02-30T00:00:00.000Z',
          scheduled_end_at: '2099-03-01T01:00:00.000Z',
        }),
        expect: [400, 'validation_failed'],
      },
      {
        label: 'year 0000',
        method: 'GET',
        path: '/v1/incidents?since=0000-01-01T00:00:00.000Z',
        expect: [400, 'validation_failed'],
      },
      {
        label: 'a sample in month 13',
        method: 'POST',
        path: '/v1/agent/samples',
        auth: `Bearer ${agent.token}`,
        body: json({ samples: [{ metric_id: agentMetric, sampled_at: '2026-13-01T10:00:00.000Z', value: 1 }] }),
        expect: [400, 'validation_failed'],
      },
      {
        label: 'a contract id that is no uuid',
        method: 'DELETE',
        path: '/v1/contracts/not-a-uuid',
        expect: [404, 'not_found'],
      },
      {
        label: 'a NUL subdomain',
        method: 'POST',
        path: '/v1/status-page/%00/subscribe',
        body: json({ email: 'a@example.com' }),
        expect: [404, 'not_found'],
      },
      {
        label: 'an SLO config_key over 100 characters',
        method: 'PATCH',
        path: `/v1/slos/${slo}`,
        body: json({ config_key: 'y'.repeat(301) }),
        expect: [400, 'validation_failed'],
      },
      {
        label: 'an empty customer_id on an imported subscriber',
        method: 'POST',
        path: `/v1/status-pages/${page}/subscribers/import`,
        body: json({
          subscribers: [{ email: `${unique('reg')}@example.com`, customer_id: '' }],
          skip_confirmation: true,
        }),
        expect: [200, null],
      },
      {
        label: 'an empty agent_id on a metric',
        method: 'PATCH',
        path: `/v1/metrics/${metric}`,
        body: json({ agent_id: '' }),
        expect: [200, null],
      },
      {
        label: 'a statement for April 1893 in Europe/Berlin',
        method: 'POST',
        path: `/v1/contracts/${berlin}/statements`,
        body: json({ period: '1893-04' }),
        expect: [400, 'validation_failed'],
      },
      {
        label: 'a statement for 0000-01',
        method: 'POST',
        path: `/v1/contracts/${berlin}/statements`,
        body: json({ period: '0000-01' }),
        expect: [400, 'validation_failed'],
      },
      {
        label: 'a statement for 0001-01 in Europe/Berlin (starting in year 0 UTC)',
        method: 'POST',
        path: `/v1/contracts/${berlin}/statements`,
        body: json({ period: '0001-01' }),
        expect: [400, 'validation_failed'],
      },
    ];
    for (const c of cases) {
      const headers: Record<string, string> = { authorization: c.auth ?? key };
      if (c.body) headers['content-type'] = c.type ?? 'application/json';
      const ans = await fire(`regression [${c.label}]`, { method: c.method, path: c.path, headers, body: c.body });
      const title = ans && ans.status >= 400 ? (JSON.parse(ans.text) as { title: string }).title : null;
      if (ans && (ans.status !== c.expect[0] || title !== c.expect[1]))
        stats.failures.push(
          `regression [${c.label}]: expected ${c.expect.join(' ')}, got ${ans.status} ${title ?? ''} ${ans.text.slice(0, 160)}`,
        );
    }

    // Subscriber links: a signed token naming no uuid, and one of another organization's page,
    // followed on this page (it used to confirm or unsubscribe before answering that it does not work).
    const host = `${owner.live.subdomain}.${STATUS_HOST}:${port}`;
    const pending = async () =>
      (
        await rawRows<{ state: string }>(api.orm.em.fork(), 'select state from status_page_subscribers where id = ?', [
          stranger.pendingSubscriber,
        ])
      )[0]?.state;
    const stateBefore = await pending();
    for (const purpose of ['confirm', 'unsubscribe'] as const) {
      for (const subscriberId of ['not-a-uuid', stranger.pendingSubscriber]) {
        const token = signLinkToken(testLinkKey(), { purpose, subscriberId, expiresAtMs: Date.now() + 3_600_000 });
        for (const method of ['GET', 'POST']) {
          const ans = await fire(
            `regression [${method} /${purpose}, token for ${subscriberId}]`,
            { method, path: `/${purpose}?token=${token}`, headers: { host } },
            { html: true },
          );
          if (ans && ans.status !== 400)
            stats.failures.push(
              `regression [${method} /${purpose}, token for ${subscriberId}]: expected 400, got ${ans.status}`,
            );
        }
      }
    }
    expect(await pending()).toBe(stateBefore);
    expect(stats.failures.slice(before)).toEqual([]);
  }, 60_000);

  it('sent thousands of requests and got no 5xx', () => {
    const seconds = Math.round((Date.now() - started) / 1000);
    const statuses = [...stats.byStatus.entries()]
      .sort(([a], [b]) => a - b)
      .map(([s, n]) => `${s}×${n}`)
      .join(' ');
    console.log(
      `fuzz: ${stats.operations.size} operations of the OpenAPI document and ${stats.statusHostRoutes.size} status-host routes, ${stats.requests} requests, ${stats.fiveXX} answered 5xx, ${stats.failures.length} failures, ${seconds} s (statuses: ${statuses})`,
    );
    expect(stats.requests).toBeGreaterThan(2000);
    expect(stats.fiveXX).toBe(0);
  });
});
