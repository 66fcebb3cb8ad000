import { writeFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { historyToJSON } from '@temporalio/common/lib/proto-utils';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { AgentSchema, ProbeTestJobSchema } from '../../src/db/entities';
import { connectTemporal } from '../../src/temporal/connection';
import { expireJob, storeCloudOutcome } from '../../src/usecases/probe-tests/jobs';
import { startWorker } from '../../src/composition/worker';
import { testTemporalAddress, testWorkflowBundle } from '../support/env';
import { probeTestWorkflowId, temporalProbeTestRunner } from '../../src/temporal/probe-test-runner';
import { type ApiHarness, startApi } from '../support/api-harness';
import { type OrgFixture, orgWithKeys } from '../support/org-fixture';
import { type AgentProcess, startAgentProcess } from '../support/agent-process';
import { eventually } from '../support/eventually';
import { type TemporalHarness, startTemporalHarness } from '../support/temporal-harness';
import { unusedPort } from '../support/webhook-receiver';

const SECRET = 's3cr3t-bearer-value-never-leaves-the-agent';

/** VIGIL_RECORD_HISTORIES=1 rewrites the replay test's history of this workflow. */
async function recordHistory(
  handle: { fetchHistory(): Promise<Parameters<typeof historyToJSON>[0]> },
  file: string,
): Promise<void> {
  if (process.env.VIGIL_RECORD_HISTORIES)
    writeFileSync(path.join(__dirname, '..', 'replay-histories', file), historyToJSON(await handle.fetchHistory()));
}

let h: TemporalHarness;
let api: ApiHarness;
let org: OrgFixture;
let target: http.Server;
let targetUrl: string;
let tcpServer: net.Server;
let tcpPort: number;
const agents: AgentProcess[] = [];

beforeAll(async () => {
  h = await startTemporalHarness();
  // Wired as `vigil start` wires it: cloud tests start eagerly on the worker in this process
  // (test/temporal/cloud-ssrf.test.ts covers an API without a worker).
  api = await startApi({
    probeTestRunner: temporalProbeTestRunner(h.temporal, { eagerClient: h.worker.eagerClient }),
    localProbeJobs: h.worker.localProbeJobs,
    probeTestExpiryMs: 4_000,
  });
  org = await orgWithKeys(api);
  // An HTTP target that only answers 200 to the secret the agent resolves from its environment.
  target = http.createServer((req, res) => {
    res.writeHead(req.headers.authorization === `Bearer ${SECRET}` ? 200 : 401, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ queue_depth: 17, secret_echo: req.headers.authorization ?? null }));
  });
  await new Promise<void>((r) => target.listen(0, '127.0.0.1', r));
  targetUrl = `http://127.0.0.1:${(target.address() as AddressInfo).port}/health`;
  tcpServer = net.createServer((s) => s.end());
  await new Promise<void>((r) => tcpServer.listen(0, '127.0.0.1', r));
  tcpPort = (tcpServer.address() as AddressInfo).port;
});
afterAll(async () => {
  for (const a of agents) await a.stop();
  target.closeAllConnections();
  await new Promise((r) => target.close(r));
  await new Promise((r) => tcpServer.close(r));
  await api.close();
  await h.close();
});

const call = (method: string, p: string, body?: unknown, key = org.key) => api.request(method, p, { key, body });
const test = (body: unknown, key?: string) => call('POST', '/v1/metrics/test', body, key);

async function registerAgent(o: OrgFixture = org, name = 'edge'): Promise<{ id: string; token: string }> {
  const res = await o.call('POST', '/v1/agents', { name });
  expect(res.status).toBe(201);
  expect(res.body.token).toMatch(/^vgl_agt_[0-9A-Za-z]{40}$/);
  return { id: res.body.id, token: res.body.token };
}

async function runningAgent(o: OrgFixture = org): Promise<{ id: string; process: AgentProcess }> {
  const { id, token } = await registerAgent(o);
  const p = await startAgentProcess(api.baseUrl, token, { VIGIL_SECRET_PROBE_BEARER: `Bearer ${SECRET}` });
  agents.push(p);
  return { id, process: p };
}

const ALL_THRESHOLDS = {
  healthy_operation: 'under',
  healthy_value: 1_000,
  unhealthy_operation: 'over',
  unhealthy_value: 5_000,
};

describe('POST /v1/metrics/test: validation (spec §7.2)', () => {
  it.each([
    ['a body that is not an object', [], 'invalid_json'],
    [
      'an agent_id that is not a uuid',
      { agent_id: 'edge-1', source_type: 'tcp', source_config: { host: '127.0.0.1', port: 1 } },
      'invalid_agent_id',
    ],
    ['a missing source_type', { source_config: {} }, 'invalid_source_type'],
    ['an unknown source_type', { source_type: 'smtp', source_config: {} }, 'invalid_source_type'],
    ['a source type that cannot be tested', { source_type: 'otlp', source_config: {} }, 'unsupported_source_type'],
    [
      'a source_config that fails its rules',
      { source_type: 'http', source_config: { url: 'ftp://example.com' } },
      'invalid_probe_config',
    ],
    [
      'thresholds out of shape',
      {
        source_type: 'http',
        source_config: { url: 'https://example.com' },
        thresholds: { healthy_operation: 'above' },
      },
      'invalid_thresholds',
    ],
    [
      'wait_seconds out of range',
      { source_type: 'http', source_config: { url: 'https://example.com' }, wait_seconds: 21 },
      'invalid_wait_seconds',
    ],
  ])('answers 400 for %s', async (_, body, title) => {
    const res = await test(body);
    expect([res.status, res.body.title]).toEqual([400, title]);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  });

  it('ignores unknown top-level fields (as the OpenAPI says) and checks the rest in the documented order', async () => {
    const o = await orgWithKeys(api);
    const extra = { wait_second: 3, note: 'not a field of ProbeTestRequest' };
    const ran = await o.call('POST', '/v1/metrics/test', {
      source_type: 'http',
      source_config: { url: targetUrl, expected_status: 401 },
      ...extra,
    });
    expect([ran.status, ran.body.title, ran.body.mode]).toEqual([200, undefined, 'cloud']);
    // Every field wrong at once, then fixed one by one: each answer names the first check that fails.
    let body: Record<string, unknown> = {
      ...extra,
      agent_id: 'edge-1',
      source_type: 'smtp',
      source_config: { url: 'ftp://example.com' },
      thresholds: { healthy_operation: 'above' },
      wait_seconds: 21,
    };
    const fixes: [string, Record<string, unknown>][] = [
      ['invalid_agent_id', { agent_id: '00000000-0000-4000-8000-000000000000' }],
      ['invalid_source_type', { source_type: 'otlp' }],
      ['unsupported_source_type', { source_type: 'tcp' }],
      ['invalid_probe_config', { source_config: { host: '127.0.0.1', port: tcpPort } }],
      ['invalid_thresholds', { thresholds: ALL_THRESHOLDS }],
      ['invalid_wait_seconds', { wait_seconds: 0 }],
      ['agent_not_found', {}],
    ];
    const seen: string[] = [];
    for (const [, fix] of fixes) {
      seen.push((await o.call('POST', '/v1/metrics/test', body)).body.title);
      body = { ...body, ...fix };
    }
    expect(seen).toEqual(fixes.map(([title]) => title));
  });

  it('documents that order, that unknown fields are ignored, and only tokens the route can answer', async () => {
    const op = (await api.request('GET', '/v1/openapi.json')).body.paths['/v1/metrics/test'].post;
    expect(op.description).toContain(
      '`invalid_json` → `invalid_agent_id` → `invalid_source_type` / `unsupported_source_type` → `invalid_probe_config` → `invalid_thresholds` → `invalid_wait_seconds`',
    );
    expect(op.description).toContain('Unknown top-level fields are ignored');
    const documented = JSON.stringify(op.responses);
    expect(documented).not.toContain('validation_failed');
    expect(documented).not.toContain('unsupported_media_type');
    expect(Object.keys(op.responses).sort()).toEqual([
      '200',
      '202',
      '400',
      '401',
      '403',
      '404',
      '409',
      '429',
      '500',
      '502',
      '503',
      '504',
    ]);
  });

  it('answers 400 invalid_json, not 415, for a body that is not JSON (other routes keep 415)', async () => {
    for (const [type, text] of [
      ['text/plain', '{"source_type":"http"}'],
      ['application/x-www-form-urlencoded', 'source_type=http'],
      ['application/xml', '<x/>'],
    ]) {
      const res = await api.request('POST', '/v1/metrics/test', {
        key: org.key,
        rawBody: text,
        headers: { 'content-type': type! },
      });
      expect([type, res.status, res.body.title]).toEqual([type, 400, 'invalid_json']);
      expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    }
    const other = await api.request('POST', '/v1/metrics', {
      key: org.key,
      rawBody: 'name=x',
      headers: { 'content-type': 'text/plain' },
    });
    expect([other.status, other.body.title]).toEqual([415, 'unsupported_media_type']);
  });

  it('lists each source_config problem with its path', async () => {
    const res = await test({
      source_type: 'database',
      source_config: {
        engine: 'oracle',
        connection_string_ref: 'postgres://user:pw@db/x',
        statement_timeout_ms: 60_000,
      },
    });
    expect(res.body.title).toBe('invalid_probe_config');
    expect(res.body.errors.map((e: { path: string }) => e.path)).toEqual(
      expect.arrayContaining([
        'source_config.engine',
        'source_config.connection_string_ref',
        'source_config.statement_timeout_ms',
      ]),
    );
  });

  it('accepts write:metrics or write:config, and refuses a key with neither', async () => {
    const body = { source_type: 'tcp', source_config: { host: '127.0.0.1', port: tcpPort } };
    for (const scope of ['write:metrics', 'write:config']) {
      const res = await test(body, await api.mintKey(org.id, [scope as never]));
      expect([scope, res.status, res.body.title]).toEqual([scope, 409, 'agent_unavailable']);
    }
    const denied = await test(body, await api.mintKey(org.id, ['read:metrics']));
    expect([denied.status, denied.body.title]).toEqual([403, 'forbidden']);
    expect(denied.body.detail).toContain('write:metrics or write:config');
  });
});

describe('agent availability', () => {
  const tcp = (agentId?: string) => ({
    agent_id: agentId,
    source_type: 'tcp',
    source_config: { host: '127.0.0.1', port: tcpPort },
  });

  it('answers 409 agent_unavailable no_agent for a non-HTTP test without agent_id, and 404 agent_not_found for an unknown agent', async () => {
    const res = await test(tcp());
    expect(res.body).toMatchObject({ status: 409, title: 'agent_unavailable', reason: 'no_agent', private_url: false });
    const unknown = await test(tcp('00000000-0000-4000-8000-000000000000'));
    expect([unknown.status, unknown.body.title]).toEqual([404, 'agent_not_found']);
    const stranger = await orgWithKeys(api);
    const theirs = await registerAgent(stranger);
    expect((await test(tcp(theirs.id))).body.title).toBe('agent_not_found');
  });

  it('names why: never_connected, outdated, offline, revoked', async () => {
    const a = await registerAgent();
    expect((await test(tcp(a.id))).body.reason).toBe('never_connected');
    // An old agent: it heartbeats with its version like any other.
    const beat = await api.request('POST', '/v1/agent/heartbeat', {
      headers: { authorization: `Bearer ${a.token}` },
      body: { version: '1.6.3' },
    });
    expect(beat.status).toBe(200);
    expect((await test(tcp(a.id))).body).toMatchObject({
      status: 409,
      title: 'agent_unavailable',
      reason: 'outdated',
      private_url: false,
      min_agent_version: '1.7.0',
    });
    const listed = (await call('GET', '/v1/agents')).body.items.find((x: { id: string }) => x.id === a.id);
    expect(listed).toMatchObject({ status: 'online', version: '1.6.3', can_run_probe_tests: false });
    await api.request('POST', '/v1/agent/heartbeat', {
      headers: { authorization: `Bearer ${a.token}` },
      body: { version: '1.7.0' },
    });
    await api.orm.em.fork().nativeUpdate(AgentSchema, { id: a.id }, { lastSeenAt: new Date(Date.now() - 5 * 60_000) });
    expect((await test(tcp(a.id))).body.reason).toBe('offline');
    expect((await call('GET', `/v1/agents/${a.id}`)).body.status).toBe('offline');
    expect((await call('POST', `/v1/agents/${a.id}/revoke`)).body.status).toBe('revoked');
    expect((await call('POST', `/v1/agents/${a.id}/revoke`)).body.title).toBe('already_revoked');
    expect((await test(tcp(a.id))).body.reason).toBe('revoked');
    const refused = await api.request('POST', '/v1/agent/heartbeat', {
      headers: { authorization: `Bearer ${a.token}` },
      body: { version: '1.8.0' },
    });
    expect([refused.status, refused.body.title, refused.body.detail]).toEqual([
      401,
      'unauthenticated',
      'The agent has been revoked.',
    ]);
  });
});

describe('probe tests on a real agent process', () => {
  let agentId: string;
  beforeAll(async () => {
    agentId = (await runningAgent()).id;
  });

  it('answers 200 with the measurement and the status the thresholds give; nothing is stored', async () => {
    const res = await test({
      agent_id: agentId,
      source_type: 'tcp',
      source_config: { host: '127.0.0.1', port: tcpPort },
      thresholds: ALL_THRESHOLDS,
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      unit: 'ms',
      status: 'healthy',
      reason: null,
      reason_label: null,
      mode: 'agent',
      agent_id: agentId,
      thresholds_complete: true,
      skipped_secret_headers: [],
    });
    expect(res.body.value).toBeGreaterThanOrEqual(0);
    expect(res.body.job_id).toEqual(expect.any(String));
    expect(Object.keys(res.body).sort()).toEqual(
      [
        'agent_id',
        'duration_ms',
        'job_id',
        'mode',
        'reason',
        'reason_hint',
        'reason_label',
        'skipped_secret_headers',
        'status',
        'thresholds_complete',
        'unit',
        'value',
        'value_description',
      ].sort(),
    );
    for (const h of [
      'x-ratelimit-limit',
      'x-ratelimit-remaining',
      'x-ratelimit-reset',
      'x-ratelimit-daily-limit',
      'x-ratelimit-daily-remaining',
      'x-ratelimit-daily-reset',
    ]) {
      expect([h, res.headers.get(h)]).toEqual([h, expect.stringMatching(/^\d+$/)]);
    }
    const partial = await test({
      agent_id: agentId,
      source_type: 'tcp',
      source_config: { host: '127.0.0.1', port: tcpPort },
      thresholds: { healthy_operation: 'under', healthy_value: 1000 },
    });
    expect(partial.body).toMatchObject({ status: null, thresholds_complete: false });
  });

  it('answers 200 with value null, no_data and the reason when the measurement fails', async () => {
    const res = await test({
      agent_id: agentId,
      source_type: 'tcp',
      source_config: { host: '127.0.0.1', port: await unusedPort() },
      thresholds: ALL_THRESHOLDS,
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      value: null,
      status: 'no_data',
      reason: 'ECONNREFUSED',
      reason_label: 'TCP connection refused',
    });
    expect(res.body.reason_hint).toEqual(expect.any(String));
  });

  it('resolves header_refs on the agent and never returns the secret or the body', async () => {
    const res = await test({
      agent_id: agentId,
      source_type: 'http',
      source_config: {
        url: targetUrl,
        header_refs: { Authorization: 'VIGIL_SECRET_PROBE_BEARER' },
        json_path: '$.queue_depth',
      },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ value: 17, reason: null, mode: 'agent' });
    expect(res.text).not.toContain(SECRET);
    expect(res.text).not.toContain('secret_echo');
    const job = await api.orm.em.fork().findOneOrFail(ProbeTestJobSchema, res.body.job_id);
    expect(JSON.stringify(job)).not.toContain(SECRET);
    const missing = await test({
      agent_id: agentId,
      source_type: 'http',
      source_config: { url: targetUrl, header_refs: { Authorization: 'NOT_SET_ON_THE_AGENT' } },
    });
    expect(missing.body).toMatchObject({ value: null, reason: 'header_ref_missing' });
  });

  it('answers 202 with poll when asked not to wait, and the poll answers the result', async () => {
    const res = await test({
      agent_id: agentId,
      source_type: 'tcp',
      source_config: { host: '127.0.0.1', port: tcpPort },
      wait_seconds: 0,
    });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({
      job_id: expect.any(String),
      status: expect.stringMatching(/^(pending|running)$/),
      agent_id: agentId,
      poll: `/v1/metrics/test/${res.body.job_id}`,
    });
    expect(Date.parse(res.body.expires_at)).toBeGreaterThan(Date.now());
    expect(res.headers.get('x-ratelimit-remaining')).toMatch(/^\d+$/);
    const polled = await eventually(async () => {
      const p = await call('GET', res.body.poll);
      expect(p.status).toBe(200);
      return p;
    }, 10_000);
    expect(polled.body).toMatchObject({ job_id: res.body.job_id, unit: 'ms', mode: 'agent' });
    const handle = h.temporal.client.workflow.getHandle(probeTestWorkflowId(res.body.job_id));
    expect(await handle.result()).toBe('finished');
    await recordHistory(handle, 'probe-test-agent-v1.json');
    expect((await call('GET', '/v1/metrics/test/00000000-0000-4000-8000-000000000000')).status).toBe(404);
  });
});

describe('the agent protocol, spoken by a hand-written agent', () => {
  const as = (token: string) => ({ authorization: `Bearer ${token}` });

  it('answers 502 probe_test_failed with the reason an agent could not run the test (older codes shown as current)', async () => {
    const a = await registerAgent(org, 'custom');
    await api.request('POST', '/v1/agent/heartbeat', {
      headers: as(a.token),
      body: { version: '2.0.0', hostname: 'edge-7' },
    });
    const posted = await test({
      agent_id: a.id,
      source_type: 'tcp',
      source_config: { host: '127.0.0.1', port: tcpPort },
      wait_seconds: 0,
    });
    expect(posted.status).toBe(202);
    const polled = await api.request('GET', '/v1/agent/jobs?wait_seconds=5', { headers: as(a.token) });
    expect(polled.body.jobs).toEqual([
      {
        job_id: posted.body.job_id,
        source_type: 'tcp',
        source_config: { host: '127.0.0.1', port: tcpPort },
        expires_at: posted.body.expires_at,
      },
    ]);
    expect((await call('GET', posted.body.poll)).body.status).toBe('running');

    // Another organization's agent cannot see or answer it.
    const stranger = await orgWithKeys(api);
    const theirs = await registerAgent(stranger);
    expect(
      (await api.request('GET', '/v1/agent/jobs?wait_seconds=0', { headers: as(theirs.token) })).body.jobs,
    ).toEqual([]);
    const foreign = await api.request('POST', `/v1/agent/jobs/${posted.body.job_id}/result`, {
      headers: as(theirs.token),
      body: { error: { reason: 'agent_error' } },
    });
    expect([foreign.status, foreign.body.title]).toEqual([404, 'not_found']);

    const answered = await api.request('POST', `/v1/agent/jobs/${posted.body.job_id}/result`, {
      headers: as(a.token),
      body: { error: { reason: 'TimeoutError' } },
    });
    expect(answered.body).toEqual({ accepted: true });
    const again = await api.request('POST', `/v1/agent/jobs/${posted.body.job_id}/result`, {
      headers: as(a.token),
      body: { error: { reason: 'agent_error' } },
    });
    expect(again.body).toEqual({ accepted: false });
    const failed = await call('GET', posted.body.poll);
    expect(failed.body).toMatchObject({ status: 502, title: 'probe_test_failed', reason: 'ETIMEDOUT' });
    expect(await h.temporal.client.workflow.getHandle(probeTestWorkflowId(posted.body.job_id)).result()).toBe(
      'finished',
    );
    expect((await call('GET', `/v1/agents/${a.id}`)).body).toMatchObject({
      status: 'online',
      version: '2.0.0',
      hostname: 'edge-7',
      can_run_probe_tests: true,
    });
  });

  it('wakes a long poll the moment a job is queued', async () => {
    const a = await registerAgent(org, 'long-poller');
    await api.request('POST', '/v1/agent/heartbeat', { headers: as(a.token), body: { version: '1.7.0' } });
    const started = Date.now();
    const poll = api.request('GET', '/v1/agent/jobs?wait_seconds=20', { headers: as(a.token) });
    // Gives the poll time to be waiting when the job is queued (a shorter wait only makes the test weaker, never wrong).
    await new Promise((r) => setTimeout(r, 300));
    await test({
      agent_id: a.id,
      source_type: 'tcp',
      source_config: { host: '127.0.0.1', port: tcpPort },
      wait_seconds: 0,
    });
    const res = await poll;
    expect(res.body.jobs).toHaveLength(1);
    // The bound is the feature (woken, not answered at the end of its wait): a poll nobody woke
    // answers after its 20 s, so anything well under that shows the wake (was 5 s).
    expect(Date.now() - started).toBeLessThan(15_000);
  });

  it('rejects results that are not one outcome or one error', async () => {
    const a = await registerAgent(org, 'sloppy');
    const res = await api.request('POST', '/v1/agent/jobs/00000000-0000-4000-8000-000000000000/result', {
      headers: as(a.token),
      body: { outcome: { value: 1, unit: 'ms', reason: null, duration_ms: 1 }, error: { reason: 'x' } },
    });
    expect([res.status, res.body.title]).toEqual([400, 'validation_failed']);
  });
});

describe('an agent that stops answering', () => {
  it('expires the job: 202 first, then 504 probe_test_expired; 429 queue_full past 20 waiting jobs', async () => {
    const o = await orgWithKeys(api);
    const { id, process: p } = await runningAgent(o);
    await p.stop();
    const body = {
      agent_id: id,
      source_type: 'tcp',
      source_config: { host: '127.0.0.1', port: tcpPort },
      wait_seconds: 1,
    };
    const first = await o.call('POST', '/v1/metrics/test', body);
    // 'running' when the dead agent's last long poll claimed it before the API saw the connection close.
    expect(first.status).toBe(202);
    expect(['pending', 'running']).toContain(first.body.status);
    for (let i = 1; i < 20; i++)
      expect((await o.call('POST', '/v1/metrics/test', { ...body, wait_seconds: 0 })).status).toBe(202);
    const full = await o.call('POST', '/v1/metrics/test', { ...body, wait_seconds: 0 });
    expect([full.status, full.body.title]).toEqual([429, 'queue_full']);
    expect(full.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(full.body.retry_after).toBe(Number(full.headers.get('retry-after')));
    // Spec §8: every 429 body carries `limit`; for queue_full, max is the agent's queue size.
    expect(full.body.limit).toEqual({ scope: 'organization', window: 'minute', max: 20, plan: 'business' });
    expect(full.headers.get('x-ratelimit-limit')).toMatch(/^\d+$/);

    expect(await h.temporal.client.workflow.getHandle(probeTestWorkflowId(first.body.job_id)).result()).toBe('expired');
    const expired = await o.call('GET', first.body.poll);
    expect([expired.status, expired.body.title]).toEqual([504, 'probe_test_expired']);
  }, 60_000);
});

describe('cloud probe tests', () => {
  it('runs a public HTTP check from the cloud at once, without the secret headers', async () => {
    const take = jest.spyOn(h.worker.localProbeJobs, 'take');
    const finish = jest.spyOn(h.worker.localProbeJobs, 'finish');
    const res = await test({
      source_type: 'http',
      source_config: {
        url: targetUrl,
        header_refs: { Authorization: 'VIGIL_SECRET_PROBE_BEARER' },
        expected_status: 401,
      },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      mode: 'cloud',
      job_id: null,
      agent_id: null,
      unit: 'ms',
      reason: null,
      skipped_secret_headers: ['Authorization'],
    });
    const [job] = await api.orm.em
      .fork()
      .find(ProbeTestJobSchema, { organization: org.id, mode: 'cloud' }, { orderBy: { createdAt: 'desc' }, limit: 1 });
    // Handed over in process (the eager start ran it on this worker), and the stored result handed back.
    expect(take.mock.results.some((r) => r.value?.id === job!.id)).toBe(true);
    // The handback can land a moment after the answer when the machine is loaded (a clean-clone CI run saw it).
    await eventually(
      async () =>
        expect(finish).toHaveBeenCalledWith(
          expect.objectContaining({ id: job!.id, state: 'completed', outcome: job!.outcome }),
        ),
      10_000,
    );
    expect(h.worker.localProbeJobs.size).toBe(0);
    take.mockRestore();
    finish.mockRestore();
    const handle = h.temporal.client.workflow.getHandle(probeTestWorkflowId(job!.id));
    expect(await handle.result()).toBe('completed');
    await recordHistory(handle, 'probe-test-cloud-v1.json');
  });

  it('runs mtls_http, the deprecated alias of http (§9), from the cloud exactly as http', async () => {
    const o = await orgWithKeys(api);
    const config = {
      url: targetUrl,
      header_refs: { Authorization: 'VIGIL_SECRET_PROBE_BEARER' },
      expected_status: 401,
    };
    const alias = await o.call('POST', '/v1/metrics/test', { source_type: 'mtls_http', source_config: config });
    expect(alias.status).toBe(200);
    expect(alias.body).toMatchObject({
      mode: 'cloud',
      job_id: null,
      agent_id: null,
      unit: 'ms',
      reason: null,
      value_description: 'HTTP response time',
      skipped_secret_headers: ['Authorization'],
    });
    const refused = await o.call('POST', '/v1/metrics/test', {
      source_type: 'mtls_http',
      source_config: { url: 'http://10.20.30.40/health' },
    });
    expect(refused.body).toMatchObject({
      status: 409,
      title: 'agent_unavailable',
      reason: 'no_agent',
      private_url: true,
    });
  });

  it('reports the unit named in source_config for the number at json_path, null without one', async () => {
    const o = await orgWithKeys(api);
    const run = (config: Record<string, unknown>) =>
      o.call('POST', '/v1/metrics/test', {
        source_type: 'http',
        source_config: { url: targetUrl, expected_status: 401, json_path: '$.queue_depth', ...config },
      });
    expect((await run({ unit: 'jobs' })).body).toMatchObject({ value: 17, unit: 'jobs', reason: null, mode: 'cloud' });
    expect((await run({})).body).toMatchObject({ value: 17, unit: null, reason: null });
    const bad = await run({ unit: 'x'.repeat(17) });
    expect([bad.status, bad.body.title, bad.body.errors]).toEqual([
      400,
      'invalid_probe_config',
      [{ path: 'source_config.unit', message: expect.any(String) }],
    ]);
  });

  it('refuses internal and single-label names with 409 private_url; invalid names and unresolved ones are 200 with their reason', async () => {
    const o = await orgWithKeys(api);
    const cloud = (url: string) => o.call('POST', '/v1/metrics/test', { source_type: 'http', source_config: { url } });
    for (const [url, code] of [
      ['http://printer.local/', 'host_internal'],
      ['http://localhost/', 'host_internal'],
      ['http://intranet/', 'host_not_fqdn'],
    ]) {
      const res = await cloud(url!);
      expect([url, res.status, res.body.title, res.body.reason, res.body.private_url]).toEqual([
        url,
        409,
        'agent_unavailable',
        'no_agent',
        true,
      ]);
      expect(res.body.detail).toContain(`(${code})`);
    }
    const invalid = await cloud('http://a..b.example.com/');
    expect([invalid.status, invalid.body.value, invalid.body.reason, invalid.body.status]).toEqual([
      200,
      null,
      'invalid_host',
      'no_data',
    ]);
    const unresolved = await cloud('http://nothing.invalid/');
    expect(unresolved.status).toBe(200);
    expect(unresolved.body).toMatchObject({ value: null, reason: expect.stringMatching(/^dns_(failed|no_answer)$/) });
  });

  it('refuses a non-public target with 409 agent_unavailable and private_url', async () => {
    const res = await test({ source_type: 'http', source_config: { url: 'http://10.20.30.40/health' } });
    expect(res.body).toMatchObject({ status: 409, title: 'agent_unavailable', reason: 'no_agent', private_url: true });
    const metadata = await test({
      source_type: 'http',
      source_config: { url: 'http://169.254.169.254/latest/meta-data/' },
    });
    expect(metadata.body).toMatchObject({ title: 'agent_unavailable', private_url: true });
  });

  it('limits an organization to 20 cloud tests a minute (429 rate_limited with limit and Retry-After)', async () => {
    // 21 tests must fall in one UTC minute.
    const second = new Date().getUTCSeconds();
    if (second > 40) await new Promise((r) => setTimeout(r, (61 - second) * 1000));
    const o = await orgWithKeys(api);
    const body = { source_type: 'http', source_config: { url: targetUrl, expected_status: 401 } };
    for (let i = 0; i < 20; i++) expect((await o.call('POST', '/v1/metrics/test', body)).status).toBe(200);
    const over = await o.call('POST', '/v1/metrics/test', body);
    expect(over.status).toBe(429);
    expect(over.body).toMatchObject({
      title: 'rate_limited',
      limit: { scope: 'organization', window: 'minute', max: 20, plan: 'business' },
    });
    expect(over.body.retry_after).toBe(Number(over.headers.get('retry-after')));
    expect(over.headers.get('x-ratelimit-daily-remaining')).toMatch(/^\d+$/);
    // A refused test is not counted, and records no job.
    const counted = await api.orm.em
      .fork()
      .getConnection()
      .execute(`select count from rate_limit_counters where organization_id = ? and window_kind = 'ptest_c'`, [o.id]);
    expect(counted).toEqual([{ count: 20 }]);
    const jobs = await api.orm.em
      .fork()
      .getConnection()
      .execute(`select count(*)::int as n from probe_test_jobs where organization_id = ?`, [o.id]);
    expect(jobs).toEqual([{ n: 20 }]);
  }, 60_000);

  it("answers 500 internal_error soon, not at the expiry, when the cloud test's workflow fails", async () => {
    // A worker started without the cloud prober: its activity fails for good, and so does the workflow.
    const taskQueue = `no-prober-${randomUUID()}`;
    const worker = await startWorker({
      address: testTemporalAddress(),
      namespace: 'default',
      taskQueue,
      deps: { orm: h.orm },
      workflowBundlePath: testWorkflowBundle(),
    });
    const temporal = await connectTemporal({ address: testTemporalAddress(), namespace: 'default', taskQueue });
    const failing = await startApi({ probeTestRunner: temporalProbeTestRunner(temporal), probeTestExpiryMs: 60_000 });
    try {
      const o = await orgWithKeys(failing);
      const started = Date.now();
      const res = await o.call('POST', '/v1/metrics/test', { source_type: 'http', source_config: { url: targetUrl } });
      expect(res.status).toBe(500);
      expect(res.body.title).toBe('internal_error');
      expect(Date.now() - started).toBeLessThan(30_000);
      const [job] = await failing.orm.em.fork().find(ProbeTestJobSchema, { organization: o.id });
      expect(job).toMatchObject({ mode: 'cloud', state: 'running', outcome: null });
      const description = await temporal.client.workflow.getHandle(probeTestWorkflowId(job!.id)).describe();
      expect(description.status.name).toBe('FAILED');
    } finally {
      await failing.close();
      await temporal.close();
      await worker.shutdown();
    }
  }, 60_000);

  it('never overwrites a finished job with a late cloud outcome', async () => {
    const { id: agentId } = await registerAgent(org, 'late');
    const em = api.orm.em.fork();
    const base = {
      organization: org.id,
      agent: agentId,
      mode: 'agent',
      sourceType: 'http',
      sourceConfig: { url: targetUrl },
      thresholds: null,
      failureReason: null,
      claimedAt: null,
    };
    const now = new Date();
    const done = em.create(ProbeTestJobSchema, {
      ...base,
      id: randomUUID(),
      state: 'completed',
      outcome: { value: 1, unit: 'ms', value_description: null, reason: null, duration_ms: 1 },
      createdAt: now,
      completedAt: now,
      expiresAt: new Date(now.getTime() + 60_000),
    });
    const expired = em.create(ProbeTestJobSchema, {
      ...base,
      id: randomUUID(),
      state: 'expired',
      outcome: null,
      createdAt: now,
      completedAt: now,
      expiresAt: now,
    });
    const running = em.create(ProbeTestJobSchema, {
      ...base,
      id: randomUUID(),
      state: 'running',
      outcome: null,
      createdAt: now,
      completedAt: null,
      expiresAt: new Date(now.getTime() + 60_000),
    });
    await em.flush();
    const late = { value: 99, unit: 'ms', reason: null, duration_ms: 99 };
    const at = new Date(now.getTime() + 1_000);
    expect(await storeCloudOutcome(api.orm.em.fork(), done.id, late, at)).toBeNull();
    expect(await storeCloudOutcome(api.orm.em.fork(), expired.id, late, at)).toBeNull();
    expect(await storeCloudOutcome(api.orm.em.fork(), running.id, late, at)).toEqual({
      state: 'completed',
      outcome: { ...late, value_description: null },
      completedAt: at,
    });
    const rows = await api.orm.em.fork().find(ProbeTestJobSchema, { id: { $in: [done.id, expired.id, running.id] } });
    const byId = new Map(rows.map((r) => [r.id, r]));
    expect(byId.get(done.id)).toMatchObject({ state: 'completed', outcome: { value: 1 }, completedAt: now });
    expect(byId.get(expired.id)).toMatchObject({ state: 'expired', outcome: null, completedAt: now });
    expect(byId.get(running.id)).toMatchObject({
      state: 'completed',
      outcome: { value: 99, value_description: null },
      completedAt: at,
    });
    // Expiry, through the same statement: a finished job stays as it is, its outcome kept.
    await expireJob(api.orm.em.fork(), running.id, new Date(at.getTime() + 1_000));
    expect(await api.orm.em.fork().findOneOrFail(ProbeTestJobSchema, running.id)).toMatchObject({
      state: 'completed',
      outcome: { value: 99 },
      completedAt: at,
    });
    const waiting = api.orm.em.fork();
    const open = waiting.create(ProbeTestJobSchema, {
      ...base,
      id: randomUUID(),
      state: 'running',
      outcome: null,
      createdAt: now,
      completedAt: null,
      expiresAt: now,
    });
    await waiting.flush();
    await expireJob(api.orm.em.fork(), open.id, at);
    expect(await api.orm.em.fork().findOneOrFail(ProbeTestJobSchema, open.id)).toMatchObject({
      state: 'expired',
      outcome: null,
      completedAt: at,
    });
  });

  it('lets no more than 20 cloud tests of a minute through when they arrive at once', async () => {
    const second = new Date().getUTCSeconds();
    if (second > 45) await new Promise((r) => setTimeout(r, (61 - second) * 1000));
    const o = await orgWithKeys(api);
    const body = { source_type: 'http', source_config: { url: targetUrl, expected_status: 401 } };
    const answers = await Promise.all(Array.from({ length: 26 }, () => o.call('POST', '/v1/metrics/test', body)));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(20);
    expect(answers.filter((a) => a.status === 429)).toHaveLength(6);
    const jobs = await api.orm.em
      .fork()
      .getConnection()
      .execute(`select count(*)::int as n from probe_test_jobs where organization_id = ?`, [o.id]);
    expect(jobs).toEqual([{ n: 20 }]);
  }, 60_000);
});
