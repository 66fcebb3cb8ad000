import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ProbeTestJobSchema } from '../../src/db/entities';
import { probeTestWorkflowId, temporalProbeTestRunner } from '../../src/temporal/probe-test-runner';
import { metricSweepWorkflow } from '../../src/workflows';
import { type ApiHarness, startApi } from '../support/api-harness';
import { type AgentProcess, startAgentProcess } from '../support/agent-process';
import { eventually as eventuallyEvery } from '../support/eventually';
import { type OrgFixture, orgWithKeys } from '../support/org-fixture';
import { type TemporalHarness, startTemporalHarness } from '../support/temporal-harness';

/**
 * Issue 18, the agent's faults, against the real parts: the real `vigil-agent` bin, the real API,
 * PostgreSQL and Temporal, loopback targets. (a) An agent process SIGKILLed while it holds
 * probe-test jobs; (b) an agent whose host clock is 5 minutes off, ahead and behind.
 * Recovery times are printed (`[agent-faults]`) for docs/faults.
 */

/** Real agents measure every few seconds: poll the API gently, well inside the organization's rate limit. */
const eventually = <T>(check: () => Promise<T>, withinMs?: number) => eventuallyEvery(check, withinMs, 250);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const report = (what: string, ms: number) => process.stderr.write(`[agent-faults] ${what}: ${ms} ms\n`);

/** Long enough for a restarted agent to come back (a tsx start on a busy 2-core machine), short enough to matter. */
const EXPIRY_MS = 45_000;
/** The API whose jobs nobody comes back for. */
const SHORT_EXPIRY_MS = 6_000;
const SKEW_MS = 5 * 60_000;

let h: TemporalHarness;
let api: ApiHarness;
let shortApi: ApiHarness;
let org: OrgFixture<never, 'Edge'>;
let target: http.Server;
let base: string;
/** While true, /hold/* requests are kept unanswered (an agent stuck on a job). */
let holding = false;
const hits = new Map<string, number>();
const answered = new Map<string, number>();
const agents: AgentProcess[] = [];

beforeAll(async () => {
  h = await startTemporalHarness();
  api = await startApi({
    probeTestRunner: temporalProbeTestRunner(h.temporal, { eagerClient: h.worker.eagerClient }),
    localProbeJobs: h.worker.localProbeJobs,
    probeTestExpiryMs: EXPIRY_MS,
  });
  shortApi = await startApi({
    probeTestRunner: temporalProbeTestRunner(h.temporal),
    probeTestExpiryMs: SHORT_EXPIRY_MS,
  });
  org = await orgWithKeys(api, { plan: 'enterprise', services: ['Edge'] });
  target = http.createServer((req, res) => {
    const p = req.url ?? '/';
    hits.set(p, (hits.get(p) ?? 0) + 1);
    const answer = () => {
      answered.set(p, (answered.get(p) ?? 0) + 1);
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ depth: 5 }));
    };
    if (p.startsWith('/hold/') && holding) return; // never answered: the socket dies with the agent
    if (p.startsWith('/slow')) return void setTimeout(answer, 2_000);
    answer();
  });
  await new Promise<void>((r) => target.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(target.address() as AddressInfo).port}`;
}, 120_000);
afterAll(async () => {
  for (const a of agents) await a.stop();
  target.closeAllConnections();
  await new Promise((r) => target.close(r));
  await shortApi?.close();
  await api?.close();
  await h?.close();
});

const THRESHOLDS = { healthy_operation: 'under', healthy_value: 10, unhealthy_operation: 'over', unhealthy_value: 20 };
const metric = async (id: string) => (await org.call('GET', `/v1/metrics/${id}`)).body;

async function registerAgent(o: OrgFixture<string, string>, name: string): Promise<{ id: string; token: string }> {
  const res = await o.call('POST', '/v1/agents', { name });
  expect(res.status).toBe(201);
  return { id: res.body.id, token: res.body.token };
}

async function agentProcess(a: ApiHarness, token: string, env: Record<string, string> = {}): Promise<AgentProcess> {
  const p = await startAgentProcess(a.baseUrl, token, env);
  agents.push(p);
  return p;
}

async function agentMetric(agentId: string, name: string): Promise<string> {
  const created = await org.call('POST', '/v1/metrics', {
    service_id: org.services.Edge,
    name,
    source_type: 'http',
    source_config: { url: `${base}/stats`, json_path: '$.depth' },
    thresholds: THRESHOLDS,
    interval_seconds: 5,
    agent_id: agentId,
  });
  expect(created.status).toBe(201);
  return created.body.id;
}

const holdTest = (agentId: string, k: string) => ({
  agent_id: agentId,
  source_type: 'http',
  source_config: { url: `${base}/hold/${k}`, timeout_ms: 25_000 },
  wait_seconds: 0,
});

describe('an agent that dies holding jobs', () => {
  it('hands the jobs to its next process, which runs each once before the deadline; its metrics resume', async () => {
    const a = await registerAgent(org, 'crashes');
    const first = await agentProcess(api, a.token);
    const metricId = await agentMetric(a.id, 'Depth (crashing agent)');
    await eventually(
      async () => expect(await metric(metricId)).toMatchObject({ status: 'healthy', current_value: 5 }),
      30_000,
    );

    // The agent takes three jobs and hangs on them.
    holding = true;
    const keys = ['a0', 'a1', 'a2'];
    const posted: { job_id: string; poll: string; expires_at: string }[] = [];
    for (const k of keys) {
      const res = await org.call('POST', '/v1/metrics/test', holdTest(a.id, k));
      expect(res.status).toBe(202);
      posted.push(res.body as { job_id: string; poll: string; expires_at: string });
    }
    await eventually(async () => expect(keys.map((k) => hits.get(`/hold/${k}`) ?? 0)).toEqual([1, 1, 1]), 15_000);
    const held = await api.orm.em.fork().find(ProbeTestJobSchema, { id: { $in: posted.map((p) => p.job_id) } });
    expect(held.map((j) => [j.state, j.claimedSession])).toEqual(keys.map(() => ['running', first.session()]));

    await first.kill();
    const killedAt = Date.now();
    holding = false;
    // Nobody answers them while the agent is down: they stay running, not lost and not failed.
    await sleep(500);
    for (const p of posted) expect((await org.call('GET', p.poll)).body).toMatchObject({ status: 'running' });

    const second = await agentProcess(api, a.token);
    const restartedAt = Date.now();
    expect(second.session()).not.toBe(first.session());
    const results = await eventually(async () => {
      const polled = await Promise.all(posted.map((p) => org.call('GET', p.poll)));
      expect(polled.map((r) => r.status)).toEqual([200, 200, 200]);
      return polled;
    }, 30_000);
    const recovered = Date.now();
    report('SIGKILL → all held jobs answered by the next process (incl. its start)', recovered - killedAt);
    report('next process connected → all held jobs answered', recovered - restartedAt);
    for (const [i, r] of results.entries()) {
      expect(r.body).toMatchObject({ job_id: posted[i]!.job_id, mode: 'agent', unit: 'ms', reason: null });
      expect(recovered).toBeLessThan(Date.parse(posted[i]!.expires_at));
    }
    // Each ran once to completion: the dead process's request was never answered, the next one's once.
    expect(keys.map((k) => [hits.get(`/hold/${k}`), answered.get(`/hold/${k}`)])).toEqual(keys.map(() => [2, 1]));
    const done = await api.orm.em.fork().find(ProbeTestJobSchema, { id: { $in: posted.map((p) => p.job_id) } });
    for (const j of done) {
      expect(j).toMatchObject({ state: 'completed', claimedSession: second.session() });
      expect(j.requeuedAt).not.toBeNull();
    }
    for (const p of posted)
      expect(await h.temporal.client.workflow.getHandle(probeTestWorkflowId(p.job_id)).result()).toBe('finished');
    // A repeat of the result (the successor retrying, or the dead one's late answer) is accepted once only.
    const again = await api.request('POST', `/v1/agent/jobs/${posted[0]!.job_id}/result`, {
      headers: { authorization: `Bearer ${a.token}` },
      body: { outcome: { value: 1, unit: 'ms', reason: null, duration_ms: 1 } },
    });
    expect(again.body).toEqual({ accepted: false });
    expect((await org.call('GET', posted[0]!.poll)).body.value).toBe(results[0]!.body.value);

    // The agent's scheduled metrics resume with the new process.
    await eventually(
      async () => expect(Date.parse((await metric(metricId)).last_sample_at)).toBeGreaterThan(restartedAt),
      20_000,
    );
    report(
      'SIGKILL → first sample of the next process',
      Date.parse((await metric(metricId)).last_sample_at) - killedAt,
    );
    expect(await metric(metricId)).toMatchObject({ status: 'healthy', current_value: 5, reason: null });
    await second.stop();
  }, 110_000);

  it('without a new process, the caller gets 504 probe_test_expired at the deadline', async () => {
    const o = await orgWithKeys(shortApi);
    const a = await registerAgent(o, 'gone for good');
    const p = await agentProcess(shortApi, a.token);
    holding = true;
    const started = Date.now();
    const posted = await o.call('POST', '/v1/metrics/test', {
      ...holdTest(a.id, 'b0'),
      source_config: { url: `${base}/hold/b0`, timeout_ms: 20_000 },
    });
    expect(posted.status).toBe(202);
    await eventually(async () => expect(hits.get('/hold/b0')).toBe(1), 5_000);
    await p.kill();
    const expired = await eventually(async () => {
      const res = await o.call('GET', posted.body.poll);
      expect(res.status).toBe(504);
      return res;
    }, SHORT_EXPIRY_MS + 10_000);
    holding = false;
    expect(expired.body).toMatchObject({ title: 'probe_test_expired' });
    const took = Date.now() - started;
    report(`job held by a dead agent, nobody back → 504 (expiry ${SHORT_EXPIRY_MS} ms)`, took);
    expect(took).toBeGreaterThanOrEqual(SHORT_EXPIRY_MS - 1_000);
    expect(await h.temporal.client.workflow.getHandle(probeTestWorkflowId(posted.body.job_id)).result()).toBe(
      'expired',
    );
    expect(answered.get('/hold/b0')).toBeUndefined();
  }, 60_000);

  it('puts a job back once at most, only for a new session, and never one already answered (protocol spoken by hand)', async () => {
    const a = await registerAgent(org, 'by hand');
    const as = { authorization: `Bearer ${a.token}` };
    const beat = (session?: string) =>
      api.request('POST', '/v1/agent/heartbeat', {
        headers: as,
        body: { version: '1.8.0', ...(session ? { session } : {}) },
      });
    const poll = async (session: string) =>
      (await api.request('GET', `/v1/agent/jobs?wait_seconds=2&session=${session}`, { headers: as })).body.jobs as {
        job_id: string;
      }[];
    const state = async (id: string) => api.orm.em.fork().findOneOrFail(ProbeTestJobSchema, id);
    expect((await beat('session-one')).status).toBe(200);
    const one = (await org.call('POST', '/v1/metrics/test', holdTest(a.id, 'c0'))).body.job_id;
    const two = (await org.call('POST', '/v1/metrics/test', holdTest(a.id, 'c1'))).body.job_id;
    expect((await poll('session-one')).map((j) => j.job_id).sort()).toEqual([one, two].sort());
    // The same process heartbeating again, or a heartbeat naming no session: nothing moves.
    await beat('session-one');
    await beat();
    expect((await state(one)).state).toBe('running');
    // The first process answered one of them before it died.
    expect(
      (
        await api.request('POST', `/v1/agent/jobs/${one}/result`, {
          headers: as,
          body: { error: { reason: 'agent_error' } },
        })
      ).body,
    ).toEqual({ accepted: true });
    await beat('session-two');
    expect(await state(one)).toMatchObject({ state: 'failed', requeuedAt: null });
    expect(await state(two)).toMatchObject({ state: 'pending', claimedSession: null, requeuedAt: expect.any(Date) });
    expect((await poll('session-two')).map((j) => j.job_id)).toEqual([two]);
    // A third process: the job already went back once, so it stays with the second (or expires).
    await beat('session-three');
    expect(await state(two)).toMatchObject({ state: 'running', claimedSession: 'session-two' });
    expect((await poll('session-three')).map((j) => j.job_id)).toEqual([]);
    const result = { outcome: { value: 3, unit: 'ms', reason: null, duration_ms: 3 } };
    expect((await api.request('POST', `/v1/agent/jobs/${two}/result`, { headers: as, body: result })).body).toEqual({
      accepted: true,
    });
    expect((await api.request('POST', `/v1/agent/jobs/${two}/result`, { headers: as, body: result })).body).toEqual({
      accepted: false,
    });
    expect((await org.call('GET', `/v1/metrics/test/${two}`)).body).toMatchObject({ value: 3 });
  }, 30_000);
});

describe('an agent that reconnects with a clock 5 minutes off', () => {
  it('stamps samples in server time, ahead or behind; status, latest sample, silent detection and probe tests stay right', async () => {
    const skews = [SKEW_MS, -SKEW_MS];
    const setups = await Promise.all(
      skews.map(async (skew) => {
        const a = await registerAgent(org, `clock ${skew > 0 ? 'ahead' : 'behind'}`);
        const p = await agentProcess(api, a.token, { VIGIL_AGENT_CLOCK_OFFSET_MS: String(skew) });
        const metricId = await agentMetric(a.id, `Depth (clock ${skew > 0 ? '+' : '-'}5 min)`);
        return { skew, agent: a, process: p, metricId };
      }),
    );
    for (const s of setups) {
      // The agent measured its offset from the heartbeat's server_time.
      const offset = Number(/"clock_offset_ms":(-?\d+)/.exec(s.process.output())?.[1]);
      expect(Math.abs(offset - s.skew)).toBeLessThan(2_000);
      report(`clock ${s.skew} ms: error of the agent's offset estimate`, offset - s.skew);
      // Its samples land in server time: the latest one is recent, never in the future.
      const m = await eventually(async () => {
        const got = await metric(s.metricId);
        expect(got).toMatchObject({ status: 'healthy', current_value: 5, reason: null });
        return got;
      }, 30_000);
      const lag = Date.now() - Date.parse(m.last_sample_at);
      report(`clock ${s.skew} ms: age of the latest sample when the metric turned healthy`, lag);
      expect(lag).toBeGreaterThan(-2_000);
      expect(lag).toBeLessThan(5_000 + 5_000);
      // Probe tests: expires_at is server time and the agent's job deadline uses its corrected
      // clock (uncorrected, an agent 5 min ahead would give the job 1 s and time out on /slow).
      const res = await org.call('POST', '/v1/metrics/test', {
        agent_id: s.agent.id,
        source_type: 'http',
        source_config: { url: `${base}/slow?skew=${s.skew}` },
        wait_seconds: 20,
      });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ mode: 'agent', reason: null, unit: 'ms' });
      expect(res.body.value).toBeGreaterThanOrEqual(1_900);
    }
    // Nothing stored came from the future.
    const ahead = await api.orm.em
      .getConnection()
      .execute(
        `select count(*)::int as n from metric_samples where metric_id = any(?::uuid[]) and sampled_at > now() + interval '2 seconds'`,
        [`{${setups.map((s) => s.metricId).join(',')}}`],
      );
    expect(ahead).toEqual([{ n: 0 }]);

    // The silent-agent sweep: not silent while they run...
    const sweep = (n: string) =>
      h.temporal.client.workflow.execute(metricSweepWorkflow, {
        taskQueue: h.taskQueue,
        workflowId: `agent-faults-sweep-${n}-${Date.now()}`,
      });
    await sweep('running');
    for (const s of setups) expect(await metric(s.metricId)).toMatchObject({ status: 'healthy', reason: null });
    // ...silent once they have been gone for over 3 intervals of their (server-time) last sample.
    await Promise.all(setups.map((s) => s.process.kill()));
    const last = Math.max(
      ...(await Promise.all(setups.map(async (s) => Date.parse((await metric(s.metricId)).last_sample_at)))),
    );
    await sleep(Math.max(0, last + 3 * 5_000 + 1_500 - Date.now()));
    await sweep('silent');
    for (const s of setups)
      expect(await metric(s.metricId)).toMatchObject({
        status: 'no_data',
        reason: 'stale_agent_silent',
        current_value: null,
      });

    // The server defends itself: a sample stamped 5 minutes ahead (an agent that does not correct)
    // is rejected with its reason and cannot revive a silent metric; one a few seconds ahead is fine.
    const s = setups[0]!;
    const as = { authorization: `Bearer ${s.agent.token}` };
    const future = new Date(Date.now() + SKEW_MS).toISOString();
    const refused = await api.request('POST', '/v1/agent/samples', {
      headers: as,
      body: {
        samples: [
          { metric_id: s.metricId, sampled_at: future, value: 5 },
          { metric_id: '00000000-0000-4000-8000-000000000000', sampled_at: new Date().toISOString(), value: 1 },
        ],
      },
    });
    expect(refused.body).toEqual({
      accepted: 0,
      rejected: [
        { index: 0, metric_id: s.metricId, reason: 'sampled_in_future' },
        { index: 1, metric_id: '00000000-0000-4000-8000-000000000000', reason: 'unknown_metric' },
      ],
      flips: 0,
    });
    expect(await metric(s.metricId)).toMatchObject({ status: 'no_data', reason: 'stale_agent_silent' });
    const nearly = await api.request('POST', '/v1/agent/samples', {
      headers: as,
      body: { samples: [{ metric_id: s.metricId, sampled_at: new Date(Date.now() + 5_000).toISOString(), value: 5 }] },
    });
    expect(nearly.body).toMatchObject({ accepted: 1, rejected: [] });
    expect(await metric(s.metricId)).toMatchObject({ status: 'healthy', current_value: 5 });
  }, 110_000);
});
