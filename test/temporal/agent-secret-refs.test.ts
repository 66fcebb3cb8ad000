import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { temporalMetricScheduler } from '../../src/temporal/metric-schedules';
import { temporalProbeTestRunner } from '../../src/temporal/probe-test-runner';
import { type ApiHarness, startApi } from '../support/api-harness';
import { type OrgFixture, orgWithKeys } from '../support/org-fixture';
import { type AgentProcess, startAgentProcess } from '../support/agent-process';
import { eventually } from '../support/eventually';
import { type TemporalHarness, startTemporalHarness } from '../support/temporal-harness';

// A `write:metrics` key chooses both the `*_ref` names and the URL of a probe test,
// so the agent resolves only the variables its operator allowed (a real agent process here).
const AWS_SECRET = 'aws-secret-that-must-stay-on-the-host';
const ALLOWED = 'value-of-vigil-secret-x';
const LISTED = 'value-of-a-listed-variable';

let h: TemporalHarness;
let api: ApiHarness;
let org: OrgFixture<never, 'Web'>;
let receiver: http.Server;
let receiverUrl: string;
const received: http.IncomingHttpHeaders[] = [];
let agent: AgentProcess;
let agentId: string;
let agentToken: string;

beforeAll(async () => {
  h = await startTemporalHarness();
  api = await startApi({
    probeTestRunner: temporalProbeTestRunner(h.temporal, { eagerClient: h.worker.eagerClient }),
    localProbeJobs: h.worker.localProbeJobs,
    metricScheduler: temporalMetricScheduler(h.temporal),
  });
  org = await orgWithKeys(api, { plan: 'enterprise', services: ['Web'] });
  receiver = http.createServer((req, res) => {
    received.push(req.headers);
    res.end('ok');
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/`;
  const reg = await org.call('POST', '/v1/agents', { name: 'secret-refs' });
  expect(reg.status).toBe(201);
  agentId = reg.body.id;
  agentToken = reg.body.token;
  agent = await startAgentProcess(api.baseUrl, agentToken, {
    AWS_SECRET_ACCESS_KEY: AWS_SECRET,
    VIGIL_SECRET_X: ALLOWED,
    LISTED_ONE: LISTED,
    // Listing the agent's own settings does not make them sendable.
    VIGIL_AGENT_SECRETS: 'LISTED_ONE, VIGIL_AGENT_TOKEN,VIGIL_AGENT_SECRETS',
  });
});
afterAll(async () => {
  await agent?.stop();
  // Bucket Schedules outlive their metrics until a run finds them empty; the Temporal server outlives this file.
  for await (const s of h.temporal.client.schedule.list()) {
    if (s.scheduleId.startsWith(`metric-bucket:${h.taskQueue}:`))
      await h.temporal.client.schedule
        .getHandle(s.scheduleId)
        .delete()
        .catch(() => undefined);
  }
  receiver.closeAllConnections();
  await new Promise((r) => receiver.close(r));
  await api.close();
  await h.close();
});

async function probeWith(headerRefs: Record<string, string>) {
  const before = received.length;
  const res = await org.call('POST', '/v1/metrics/test', {
    agent_id: agentId,
    source_type: 'http',
    source_config: { url: receiverUrl, header_refs: headerRefs },
  });
  expect(res.status).toBe(200);
  return { body: res.body, requests: received.slice(before) };
}

describe('the agent resolves only allowed *_ref variables', () => {
  it('refuses an arbitrary variable of the host: header_ref_missing with the rule in the hint, nothing sent', async () => {
    const { body, requests } = await probeWith({ 'X-Leak': 'AWS_SECRET_ACCESS_KEY' });
    expect(body).toMatchObject({ value: null, reason: 'header_ref_missing', mode: 'agent' });
    expect(body.reason_hint).toContain('VIGIL_SECRET_');
    expect(body.reason_hint).toContain('VIGIL_AGENT_SECRETS');
    expect(requests).toEqual([]);
    expect(agent.output()).toContain('"variable":"AWS_SECRET_ACCESS_KEY"');
    expect(agent.output()).not.toContain(AWS_SECRET);
  });

  it('sends a variable named with the VIGIL_SECRET_ prefix', async () => {
    const { body, requests } = await probeWith({ 'X-Ok': 'VIGIL_SECRET_X' });
    expect(body).toMatchObject({ reason: null, unit: 'ms' });
    expect(requests.map((r) => r['x-ok'])).toEqual([ALLOWED]);
  });

  it('sends a variable listed in VIGIL_AGENT_SECRETS', async () => {
    const { body, requests } = await probeWith({ 'X-Listed': 'LISTED_ONE' });
    expect(body).toMatchObject({ reason: null });
    expect(requests.map((r) => r['x-listed'])).toEqual([LISTED]);
  });

  it('never sends its own token or settings, even when listed', async () => {
    for (const ref of ['VIGIL_AGENT_TOKEN', 'VIGIL_AGENT_SECRETS', 'VIGIL_API_URL']) {
      const { body, requests } = await probeWith({ 'X-Token': ref });
      expect([ref, body.reason]).toEqual([ref, 'header_ref_missing']);
      expect(requests).toEqual([]);
    }
    expect(JSON.stringify(received)).not.toContain(agentToken);
    expect(JSON.stringify(received)).not.toContain(AWS_SECRET);
  });

  it('a scheduled metric resolves its refs through the same rule: header_ref_missing for a refused name, the allowed one sent', async () => {
    const create = (name: string, headerRefs: Record<string, string>) =>
      org.call('POST', '/v1/metrics', {
        service_id: org.services.Web,
        name,
        source_type: 'http',
        source_config: { url: receiverUrl, header_refs: headerRefs },
        thresholds: {
          healthy_operation: 'under',
          healthy_value: 60_000,
          unhealthy_operation: 'over',
          unhealthy_value: 120_000,
        },
        interval_seconds: 5,
        agent_id: agentId,
      });
    const refused = await create('Leaky', { 'X-Leak': 'AWS_SECRET_ACCESS_KEY', 'X-Token': 'VIGIL_AGENT_TOKEN' });
    const allowed = await create('Allowed', { 'X-Scheduled': 'VIGIL_SECRET_X' });
    expect([refused.status, allowed.status]).toEqual([201, 201]);
    const metric = async (id: string) => (await org.call('GET', `/v1/metrics/${id}`)).body;
    await eventually(
      async () =>
        expect(await metric(refused.body.id)).toMatchObject({
          status: 'no_data',
          reason: 'header_ref_missing',
          current_value: null,
          last_sample_at: expect.any(String),
        }),
      30_000,
      250,
    );
    await eventually(
      async () => expect(await metric(allowed.body.id)).toMatchObject({ status: 'healthy', reason: null }),
      30_000,
      250,
    );
    expect(received.some((r) => r['x-scheduled'] === ALLOWED)).toBe(true);
    expect(received.some((r) => 'x-leak' in r)).toBe(false);
    expect(JSON.stringify(received)).not.toContain(AWS_SECRET);
    expect(JSON.stringify(received)).not.toContain(agentToken);
  });
});
