import { type ApiHarness, startApi } from '../support/api-harness';

let api: ApiHarness;
beforeAll(async () => {
  api = await startApi();
});
afterAll(async () => api.close());

async function manualMetrics(key: string, n: number): Promise<string[]> {
  const service = (await api.request('POST', '/v1/services', { key, body: { name: 'Quota' } })).body.id;
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const res = await api.request('POST', '/v1/metrics', { key, body: { service_id: service, name: `m${i}`, source_type: 'manual', source_config: {} } });
    expect(res.status).toBe(201);
    ids.push(res.body.id);
  }
  return ids;
}

describe('metric quotas', () => {
  it('answers 403 quota_exceeded past the plan cap, with an upgrade to the plan that lifts it', async () => {
    const team = await api.createOrg('team');
    await manualMetrics(team.key, 100);
    const service = (await api.request('GET', '/v1/services', { key: team.key })).body.items[0].id;
    const over = await api.request('POST', '/v1/metrics', { key: team.key, body: { service_id: service, name: 'one too many', source_type: 'manual', source_config: {} } });
    expect(over.status).toBe(403);
    expect(over.body).toMatchObject({ title: 'quota_exceeded', quota: { capability: 'metrics', used: 100, cap: 100, plan: 'team' }, upgrade: { plan: 'business' } });
  }, 60_000);

  it('suspends metrics beyond the quota after a downgrade: changes answer item_suspended_plan, deleting works', async () => {
    const org = await api.createOrg('business');
    const ids = await manualMetrics(org.key, 101);
    await api.updateOrg(org.id, { plan: 'team' });
    const blocked = await api.request('PATCH', `/v1/metrics/${ids[100]}`, { key: org.key, body: { name: 'renamed' } });
    expect([blocked.status, blocked.body.title]).toEqual([403, 'item_suspended_plan']);
    expect((await api.request('PATCH', `/v1/metrics/${ids[0]}`, { key: org.key, body: { name: 'oldest' } })).status).toBe(200);
    expect((await api.request('DELETE', `/v1/metrics/${ids[100]}`, { key: org.key })).status).toBe(200);
  }, 60_000);
});

describe('mtls_http, the deprecated alias of http (spec §9)', () => {
  it('is accepted without agent_id as a cloud check, as http is; agent-only types still need an agent', async () => {
    const org = await api.createOrg();
    const service = (await api.request('POST', '/v1/services', { key: org.key, body: { name: 'Alias' } })).body.id;
    const thresholds = { healthy_operation: 'under', healthy_value: 500, unhealthy_operation: 'over', unhealthy_value: 2000 };
    for (const source_type of ['http', 'mtls_http']) {
      const res = await api.request('POST', '/v1/metrics', { key: org.key, body: { service_id: service, name: source_type, source_type, source_config: { url: 'https://status.example.com/' }, thresholds } });
      expect([source_type, res.status, res.body.agent_id]).toEqual([source_type, 201, null]);
    }
    const tcp = await api.request('POST', '/v1/metrics', { key: org.key, body: { service_id: service, name: 'db', source_type: 'database', source_config: { engine: 'postgresql', connection_string_ref: 'DB_DSN', query: 'select 1' }, thresholds } });
    expect(tcp.body).toMatchObject({ title: 'validation_failed', errors: [{ path: 'agent_id' }] });
  });
});
