import { type ApiHarness, startApi } from '../support/api-harness';
import { type OrgFixture, orgWithKeys } from '../support/org-fixture';

let api: ApiHarness;
beforeAll(async () => {
  api = await startApi();
});
afterAll(async () => api.close());

async function manualMetrics(org: OrgFixture, n: number): Promise<string[]> {
  const service = (await org.call('POST', '/v1/services', { name: 'Quota' })).body.id;
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const res = await org.call('POST', '/v1/metrics', {
      service_id: service,
      name: `m${i}`,
      source_type: 'manual',
      source_config: {},
    });
    expect(res.status).toBe(201);
    ids.push(res.body.id);
  }
  return ids;
}

describe('metric quotas', () => {
  it('answers 403 quota_exceeded past the plan cap, with an upgrade to the plan that lifts it', async () => {
    const team = await orgWithKeys(api, { plan: 'team' });
    await manualMetrics(team, 100);
    const service = (await team.call('GET', '/v1/services')).body.items[0].id;
    const over = await team.call('POST', '/v1/metrics', {
      service_id: service,
      name: 'one too many',
      source_type: 'manual',
      source_config: {},
    });
    expect(over.status).toBe(403);
    expect(over.body).toMatchObject({
      title: 'quota_exceeded',
      quota: { capability: 'metrics', used: 100, cap: 100, plan: 'team' },
      upgrade: { plan: 'business' },
    });
  }, 60_000);

  it('suspends metrics beyond the quota after a downgrade: changes answer item_suspended_plan, deleting works', async () => {
    const org = await orgWithKeys(api);
    const ids = await manualMetrics(org, 101);
    await api.updateOrg(org.id, { plan: 'team' });
    const blocked = await org.call('PATCH', `/v1/metrics/${ids[100]}`, { name: 'renamed' });
    expect([blocked.status, blocked.body.title]).toEqual([403, 'item_suspended_plan']);
    expect((await org.call('PATCH', `/v1/metrics/${ids[0]}`, { name: 'oldest' })).status).toBe(200);
    expect((await org.call('DELETE', `/v1/metrics/${ids[100]}`)).status).toBe(200);
  }, 60_000);
});

describe('mtls_http, the deprecated alias of http (spec §9)', () => {
  it('is accepted without agent_id as a cloud check, as http is; agent-only types still need an agent', async () => {
    const org = await orgWithKeys(api, { services: ['Alias'] });
    const service = org.services.Alias;
    const thresholds = {
      healthy_operation: 'under',
      healthy_value: 500,
      unhealthy_operation: 'over',
      unhealthy_value: 2000,
    };
    for (const source_type of ['http', 'mtls_http']) {
      const res = await org.call('POST', '/v1/metrics', {
        service_id: service,
        name: source_type,
        source_type,
        source_config: { url: 'https://status.example.com/' },
        thresholds,
      });
      expect([source_type, res.status, res.body.agent_id]).toEqual([source_type, 201, null]);
    }
    const tcp = await org.call('POST', '/v1/metrics', {
      service_id: service,
      name: 'db',
      source_type: 'database',
      source_config: { engine: 'postgresql', connection_string_ref: 'DB_DSN', query: 'select 1' },
      thresholds,
    });
    expect(tcp.body).toMatchObject({ title: 'validation_failed', errors: [{ path: 'agent_id' }] });
  });
});
