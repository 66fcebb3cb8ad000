import { Client } from 'pg';
import { type ApiHarness, type TestOrg, startApi } from '../support/api-harness';
import { testDatabaseUrl } from '../support/env';

/**
 * Issue 25 in config as code: a metric's `locations` (cloud ids, agents by name or id) and
 * `confirmation` round-trip through apply and export, are checked as POST /v1/metrics checks them
 * (paths into the document), and a document from before confirmation does not move a migrated
 * metric off failures 1 / recoveries 1.
 */
let api: ApiHarness;
let db: Client;
const suffix = Date.now().toString(36);
/** Two cloud locations registered as a prober's heartbeat would (any installation counts). */
const EU = `cfg-eu-${suffix}`;
const US = `cfg-us-${suffix}`;

beforeAll(async () => {
  api = await startApi();
  db = new Client({ connectionString: testDatabaseUrl() });
  await db.connect();
  for (const [id, label] of [
    [EU, 'Frankfurt'],
    [US, 'Virginia'],
  ]) {
    await db.query(
      `insert into probe_locations (task_queue, id, label, version, heartbeat_seconds, started_at, last_seen_at) values ($1, $2, $3, 'test', 10, now(), now())`,
      [`cfg-locations-${suffix}`, id, label],
    );
  }
});
afterAll(async () => {
  await db?.query(`delete from probe_locations where task_queue = $1`, [`cfg-locations-${suffix}`]);
  await db?.end();
  await api?.close();
});

const THRESHOLDS = {
  healthy_operation: 'under',
  healthy_value: 300,
  unhealthy_operation: 'over',
  unhealthy_value: 1000,
};
const apply = (org: TestOrg, doc: unknown, query = '') =>
  api.request('POST', `/v1/config/apply${query}`, { key: org.key, body: doc });
const exportOf = async (org: TestOrg) => (await api.request('GET', '/v1/config/export', { key: org.key })).body;
const metricsOf = async (org: TestOrg) =>
  Object.fromEntries(
    ((await api.request('GET', '/v1/metrics?limit=50', { key: org.key })).body.items as any[]).map((m) => [
      m.config_key,
      m,
    ]),
  );

async function orgWithAgent(name = 'edge-1'): Promise<{ org: TestOrg; agentId: string }> {
  const org = await api.createOrg('business', 'Locations org');
  const agent = await api.request('POST', '/v1/agents', { key: org.key, body: { name } });
  expect(agent.status).toBe(201);
  return { org, agentId: agent.body.id };
}

const http = (key: string, extra: Record<string, unknown> = {}) => ({
  config_key: key,
  service: 'shop',
  name: key,
  source_type: 'http',
  source_config: { url: `https://${key}.example.com/health` },
  thresholds: THRESHOLDS,
  ...extra,
});

describe('config as code: locations and confirmation', () => {
  it('applies locations (agents by name) and a partial confirmation with the defaults, exports them, and the export applies back with no change', async () => {
    const { org, agentId } = await orgWithAgent();
    const doc = {
      version: 1,
      services: [{ config_key: 'shop', name: 'Shop' }],
      metrics: [
        http('web', { locations: [EU, US, 'agent:edge-1'], confirmation: { quorum: 2, failures: 3 } }),
        http('api'),
        {
          config_key: 'db',
          service: 'shop',
          name: 'db',
          source_type: 'tcp',
          source_config: { host: 'db.internal', port: 5432 },
          thresholds: THRESHOLDS,
          agent: 'edge-1',
          locations: ['agent:edge-1'],
          confirmation: { recheck: false, recoveries: 1 },
        },
        { config_key: 'by-hand', service: 'shop', name: 'by hand', source_type: 'manual', source_config: {} },
      ],
    };
    const plan = await apply(org, doc, '?dry_run=true');
    expect(plan.status).toBe(200);
    // The plan shows the agent by name, and a create lists the confirmation it will store (defaults filled in).
    const webPlan = plan.body.changes.find((c: any) => c.config_key === 'web');
    expect(webPlan.diff).toEqual(
      expect.arrayContaining([
        { field: 'locations', before: null, after: [EU, US, 'agent:edge-1'] },
        { field: 'confirmation', before: null, after: { quorum: 2, failures: 3, recoveries: 2, recheck: false } },
      ]),
    );
    const applied = await apply(org, doc);
    expect(applied.status).toBe(200);
    expect(applied.body.summary).toMatchObject({ create: 5 });
    // The agent has never connected: the agent metric has no data, the cloud metric one vote fewer.
    expect(applied.body.warnings).toEqual(
      expect.arrayContaining([
        {
          path: 'metrics[0].locations[2]',
          message: expect.stringMatching(/never connected; it does not vote until it does/),
        },
        { path: 'metrics[2].agent', message: expect.stringMatching(/never connected; the metric reports no data/) },
      ]),
    );

    const metrics = await metricsOf(org);
    expect(metrics.web).toMatchObject({
      locations: [EU, US, `agent:${agentId}`],
      confirmation: { quorum: 2, failures: 3, recoveries: 2, recheck: false },
    });
    expect(metrics.api).toMatchObject({
      locations: null,
      confirmation: { quorum: 'majority', failures: 2, recoveries: 2, recheck: false },
    });
    expect(metrics.db).toMatchObject({
      agent_id: agentId,
      locations: [`agent:${agentId}`],
      confirmation: { quorum: 'majority', failures: 2, recoveries: 1, recheck: false },
    });
    expect(metrics['by-hand']).toMatchObject({ locations: null, confirmation: null });

    // Re-applying the same document (partial confirmation, agent by name) is no change.
    expect((await apply(org, doc)).body).toMatchObject({ changed: false, summary: { unchanged: 5 } });

    const exported = await exportOf(org);
    const byKey = Object.fromEntries(exported.metrics.map((m: any) => [m.config_key, m]));
    expect(byKey.web).toMatchObject({
      locations: [EU, US, 'agent:edge-1'],
      confirmation: { quorum: 2, failures: 3, recoveries: 2, recheck: false },
    });
    expect(byKey.api.locations).toBeUndefined();
    expect(byKey.api.confirmation).toEqual({ quorum: 'majority', failures: 2, recoveries: 2, recheck: false });
    expect(byKey['by-hand']).not.toHaveProperty('confirmation');
    expect(byKey['by-hand']).not.toHaveProperty('locations');
    const back = await apply(org, exported, '?prune=true');
    expect(back.status).toBe(200);
    expect(back.body).toMatchObject({ changed: false, summary: { create: 0, update: 0, delete: 0 } });

    // The agent by id is the same location; dropping a location and the confirmation is a field-level change.
    doc.metrics[0] = http('web', { locations: [EU, `agent:${agentId}`] });
    const changed = await apply(org, doc);
    expect(changed.status).toBe(200);
    expect(changed.body.changes.find((c: any) => c.config_key === 'web').diff).toEqual([
      { field: 'locations', before: [EU, US, 'agent:edge-1'], after: [EU, 'agent:edge-1'] },
      { field: 'confirmation.quorum', before: 2, after: 'majority' },
      { field: 'confirmation.failures', before: 3, after: 2 },
    ]);
    expect((await metricsOf(org)).web).toMatchObject({
      locations: [EU, `agent:${agentId}`],
      confirmation: { quorum: 'majority', failures: 2, recoveries: 2, recheck: false },
    });
  });

  it('refuses unknown locations, agents and quorums the API would refuse, with their document paths, and writes nothing', async () => {
    const { org } = await orgWithAgent();
    const other = await api.createOrg('business', 'Other org');
    const foreign = await api.request('POST', '/v1/agents', { key: other.key, body: { name: 'theirs' } });
    const res = await apply(org, {
      version: 1,
      services: [{ config_key: 'shop', name: 'Shop' }],
      metrics: [
        http('m0', { locations: [EU, 'nowhere-42'] }),
        http('m1', { locations: ['agent:no-such-agent', EU, EU, 'Bad Id'] }),
        http('m2', { locations: [EU, US], confirmation: { quorum: 3 } }),
        {
          config_key: 'm3',
          service: 'shop',
          name: 'm3',
          source_type: 'tcp',
          source_config: { host: 'db.internal', port: 5432 },
          thresholds: THRESHOLDS,
          agent: 'edge-1',
          locations: [EU],
        },
        {
          config_key: 'm4',
          service: 'shop',
          name: 'm4',
          source_type: 'manual',
          source_config: {},
          confirmation: { failures: 3 },
        },
        {
          config_key: 'm5',
          service: 'shop',
          name: 'm5',
          source_type: 'heartbeat',
          source_config: {},
          thresholds: THRESHOLDS,
          locations: [EU],
        },
        http('m6', { locations: ['agent:edge-1'] }),
        http('m7', { locations: [] }),
        http('m8', { locations: [`agent:${foreign.body.id}`, EU] }),
      ],
    });
    expect(res.status).toBe(400);
    expect(res.body.title).toBe('config_invalid');
    const byPath = new Map<string, string[]>();
    for (const e of res.body.errors as { path: string; message: string }[])
      byPath.set(e.path, [...(byPath.get(e.path) ?? []), e.message]);
    expect([...byPath.keys()].sort()).toEqual(
      [
        'metrics[0].locations[1]',
        'metrics[1].locations[0]',
        'metrics[1].locations[2]',
        'metrics[1].locations[3]',
        'metrics[2].confirmation.quorum',
        'metrics[3].locations[0]',
        'metrics[4].confirmation',
        'metrics[5].locations',
        'metrics[6].locations',
        'metrics[7].locations',
        'metrics[8].locations[0]',
      ].sort(),
    );
    expect(byPath.get('metrics[0].locations[1]')).toEqual([
      expect.stringMatching(/No location nowhere-42 has registered/),
    ]);
    expect(byPath.get('metrics[1].locations[0]')).toEqual([expect.stringMatching(/No agent named "no-such-agent"/)]);
    expect(byPath.get('metrics[1].locations[2]')).toEqual([expect.stringMatching(/listed twice/)]);
    expect(byPath.get('metrics[2].confirmation.quorum')).toEqual([
      expect.stringMatching(/quorum 3 is more than the 2 locations/),
    ]);
    expect(byPath.get('metrics[3].locations[0]')).toEqual([expect.stringMatching(/measured by its agent alone/)]);
    expect(byPath.get('metrics[4].confirmation')).toEqual([
      expect.stringMatching(/manual metrics are pushed to Vigil/),
    ]);
    expect(byPath.get('metrics[6].locations')).toEqual([expect.stringMatching(/only by agents/)]);
    // Another organization's agent is no agent of this one (by id, as by name).
    expect(byPath.get('metrics[8].locations[0]')).toEqual([expect.stringMatching(/No agent/)]);
    expect((await api.request('GET', '/v1/services', { key: org.key })).body.items).toHaveLength(0);
  });

  it('keeps a migrated metric at failures 1 / recoveries 1 under a document that names no confirmation, says so, and moves it when the document opts in', async () => {
    const { org } = await orgWithAgent();
    const doc: any = {
      version: 1,
      services: [{ config_key: 'shop', name: 'Shop' }],
      metrics: [http('web'), http('api')],
    };
    expect((await apply(org, doc)).status).toBe(200);
    // As the issue-25 migration left every metric that existed before it.
    const web = (await metricsOf(org)).web;
    await db.query(
      `update metrics set confirmation = '{"quorum":"majority","failures":1,"recoveries":1,"recheck":false}'::jsonb where id = $1`,
      [web.id],
    );

    const again = await apply(org, doc, '?dry_run=true');
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ changed: false, summary: { unchanged: 3 } });
    expect(again.body.warnings).toEqual([
      {
        path: 'metrics[0].confirmation',
        message: expect.stringMatching(/keeps failures 1 \/ recoveries 1 .* write confirmation: \{\}/),
      },
    ]);

    // Its export names the 1/1 it has, and applies back with no change and no warning.
    const exported = await exportOf(org);
    expect(exported.metrics.find((m: any) => m.config_key === 'web').confirmation).toEqual({
      quorum: 'majority',
      failures: 1,
      recoveries: 1,
      recheck: false,
    });
    const back = await apply(org, exported);
    expect(back.body).toMatchObject({ changed: false, warnings: [] });

    // Naming a confirmation (even an empty one) opts in: the plan shows the move to the defaults.
    doc.metrics[0] = http('web', { confirmation: {} });
    const optIn = await apply(org, doc);
    expect(optIn.status).toBe(200);
    expect(optIn.body.warnings).toEqual([]);
    expect(optIn.body.changes.find((c: any) => c.config_key === 'web')).toMatchObject({
      action: 'update',
      diff: [
        { field: 'confirmation.failures', before: 1, after: 2 },
        { field: 'confirmation.recoveries', before: 1, after: 2 },
      ],
    });
    expect((await metricsOf(org)).web.confirmation).toEqual({
      quorum: 'majority',
      failures: 2,
      recoveries: 2,
      recheck: false,
    });
  });
});
