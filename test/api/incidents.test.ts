import { OutboxEventSchema } from '../../src/db/entities';
import { type ApiHarness, startApi } from '../support/api-harness';
import { type Call, type OrgFixture, orgWithKeys } from '../support/org-fixture';

let api: ApiHarness;
let org: OrgFixture<never, 'Checkout'>;
let svc: string;
beforeAll(async () => {
  api = await startApi();
  org = await orgWithKeys(api, { services: ['Checkout'] });
  svc = org.services.Checkout;
});
afterAll(async () => api.close());

const call: Call = (...args) => org.call(...args);
/** An incident as it reads back: the create answer without its `warnings`. */
const withoutWarnings = ({ warnings: _warnings, ...incident }: Record<string, unknown>) => incident;
const events = async (incidentId: string) =>
  (
    await api.orm.em
      .fork()
      .find(OutboxEventSchema, { resourceId: incidentId }, { orderBy: { createdAt: 'asc', type: 'asc' } })
  ).map((e) => e.type);

describe('/v1/incidents lifecycle (spec §3.1)', () => {
  it('creates a draft, publishes, adds messages and resolves, deriving state from the timestamps', async () => {
    const created = await call('POST', '/v1/incidents', {
      title: 'Checkout errors',
      severity: 'major',
      affected_services: [svc],
      initial_message: { body: 'Looking into it' },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      state: 'draft',
      severity: 'major',
      affected_services: [svc],
      published_at: null,
      messages: [{ type: 'Investigating', body: 'Looking into it' }],
    });
    const id = created.body.id;

    const published = await call('POST', `/v1/incidents/${id}/publish`);
    expect(published.body).toMatchObject({ state: 'published' });
    expect(published.body.published_at).not.toBeNull();
    const again = await call('POST', `/v1/incidents/${id}/publish`);
    expect([again.status, again.body.title]).toEqual([409, 'already_published']);

    const msg = await call('POST', `/v1/incidents/${id}/messages`, { type: 'Identified', body: 'Bad deploy' });
    expect(msg.body.messages.map((m: { type: string }) => m.type)).toEqual(['Investigating', 'Identified']);

    const resolved = await call('POST', `/v1/incidents/${id}/resolve`, { message: 'Rolled back' });
    expect(resolved.body).toMatchObject({ state: 'resolved' });
    expect(resolved.body.messages.at(-1)).toMatchObject({ type: 'Resolved', body: 'Rolled back' });
    const twice = await call('POST', `/v1/incidents/${id}/resolve`);
    expect([twice.status, twice.body.title]).toEqual([409, 'already_resolved']);

    expect(await events(id)).toEqual([
      'incident.created',
      'incident.message_added',
      'incident.published',
      'incident.message_added',
      'incident.message_added',
      'incident.resolved',
    ]);
  });

  it('resolves the incident when a Resolved message is posted', async () => {
    const { body } = await call('POST', '/v1/incidents', { title: 'Slow search', publish: true });
    expect(body.state).toBe('published');
    const res = await call('POST', `/v1/incidents/${body.id}/messages`, { type: 'Resolved', body: 'All good' });
    expect(res.body.state).toBe('resolved');
    expect(await events(body.id)).toEqual(
      expect.arrayContaining(['incident.created', 'incident.published', 'incident.message_added', 'incident.resolved']),
    );
  });

  it('answers 409 not_published when resolving a draft', async () => {
    const { body } = await call('POST', '/v1/incidents', { title: 'Draft' });
    const res = await call('POST', `/v1/incidents/${body.id}/resolve`);
    expect([res.status, res.body.title]).toEqual([409, 'not_published']);
  });

  it('patches title, severity and affected services and emits incident.updated', async () => {
    const { body } = await call('POST', '/v1/incidents', { title: 'Old' });
    const res = await call('PATCH', `/v1/incidents/${body.id}`, {
      title: 'New',
      severity: 'critical',
      affected_services: [svc],
    });
    expect(res.body).toMatchObject({ title: 'New', severity: 'critical', affected_services: [svc] });
    expect(await events(body.id)).toEqual(['incident.created', 'incident.updated']);
  });

  it('records no incident.updated and keeps updated_at for an empty PATCH', async () => {
    const { body } = await call('POST', '/v1/incidents', {
      title: 'Unchanged',
      severity: 'major',
      affected_services: [svc],
    });
    const res = await call('PATCH', `/v1/incidents/${body.id}`, {});
    expect(res.status).toBe(200);
    expect(await events(body.id)).toEqual(['incident.created']);
    // The create answer alone carries `warnings`; the incident itself is unchanged.
    expect(res.body).toEqual(withoutWarnings(body));
    expect((await call('GET', `/v1/incidents/${body.id}`)).body.updated_at).toBe(body.updated_at);
  });

  it('records no incident.updated and keeps updated_at for a PATCH with the current values', async () => {
    const { body } = await call('POST', '/v1/incidents', {
      title: 'Same',
      severity: 'major',
      affected_services: [svc],
    });
    const res = await call('PATCH', `/v1/incidents/${body.id}`, {
      title: 'Same',
      severity: 'major',
      affected_services: [svc, svc],
    });
    expect(res.status).toBe(200);
    expect(await events(body.id)).toEqual(['incident.created']);
    expect(res.body).toEqual(withoutWarnings(body));
    expect((await call('GET', `/v1/incidents/${body.id}`)).body.updated_at).toBe(body.updated_at);
  });

  it('records exactly one incident.updated for a PATCH that changes one field among unchanged ones', async () => {
    const { body } = await call('POST', '/v1/incidents', {
      title: 'Partly',
      severity: 'minor',
      affected_services: [svc],
    });
    const res = await call('PATCH', `/v1/incidents/${body.id}`, {
      title: 'Partly',
      severity: 'critical',
      affected_services: [svc],
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ title: 'Partly', severity: 'critical', affected_services: [svc] });
    expect(await events(body.id)).toEqual(['incident.created', 'incident.updated']);
  });

  it('soft-deletes idempotently with one incident.deleted event; the incident then reads as 404', async () => {
    const { body } = await call('POST', '/v1/incidents', { title: 'Oops', publish: true });
    const first = await call('DELETE', `/v1/incidents/${body.id}`);
    const second = await call('DELETE', `/v1/incidents/${body.id}`);
    expect([first.status, first.body.state, second.status, second.body.state]).toEqual([
      200,
      'deleted',
      200,
      'deleted',
    ]);
    expect((await call('GET', `/v1/incidents/${body.id}`)).status).toBe(404);
    expect((await events(body.id)).filter((e) => e === 'incident.deleted')).toHaveLength(1);
  });

  it('answers 400 unknown_services and unknown_customers, writing nothing', async () => {
    const bogus = '00000000-0000-4000-8000-000000000001';
    const s = await call('POST', '/v1/incidents', { title: 'x', affected_services: [svc, bogus] });
    expect(s.body).toMatchObject({ title: 'unknown_services', unknown_services: [bogus] });
    const c = await call('POST', '/v1/incidents', { title: 'x', visible_to_customer_ids: [bogus] });
    expect(c.body).toMatchObject({ title: 'unknown_customers', unknown_customers: [bogus] });
  });

  it('restricts an incident to customers of the organization', async () => {
    const customer = (await call('POST', '/v1/customers', { name: 'Globex' })).body.id;
    const res = await call('POST', '/v1/incidents', { title: 'Only Globex', visible_to_customer_ids: [customer] });
    expect(res.body.visible_to_customer_ids).toEqual([customer]);
  });

  it('lists newest first, filtered by state and since', async () => {
    const o = await orgWithKeys(api);
    const mk = (title: string, publish: boolean) => o.call('POST', '/v1/incidents', { title, publish });
    await mk('a-draft', false);
    const marker = new Date().toISOString();
    await mk('b-published', true);
    const c = await mk('c-resolved', true);
    await o.call('POST', `/v1/incidents/${c.body.id}/resolve`);
    const titles = async (q: string) =>
      (await o.call('GET', `/v1/incidents${q}`)).body.items.map((i: { title: string }) => i.title);
    expect(await titles('')).toEqual(['c-resolved', 'b-published', 'a-draft']);
    expect(await titles('?state=draft')).toEqual(['a-draft']);
    expect(await titles('?state=published')).toEqual(['b-published']);
    expect(await titles('?state=resolved')).toEqual(['c-resolved']);
    expect(await titles(`?since=${marker}`)).toEqual(['c-resolved', 'b-published']);
    expect((await o.call('GET', '/v1/incidents?state=deleted')).status).toBe(400);
  });

  it('answers 404 for an unknown metric in from-metric', async () => {
    const res = await call('POST', '/v1/incidents/from-metric/00000000-0000-4000-8000-000000000000');
    expect([res.status, res.body.title]).toEqual([404, 'not_found']);
  });

  it('drives manual metrics of the affected service while an incident is open', async () => {
    const service = (await call('POST', '/v1/services', { name: 'Search' })).body.id;
    const metric = (
      await call('POST', '/v1/metrics', {
        service_id: service,
        name: 'Search status',
        source_type: 'manual',
        source_config: {},
      })
    ).body.id;
    await call('POST', `/v1/metrics/${metric}/status`, { status: 'healthy' });
    const status = async () => (await call('GET', `/v1/metrics/${metric}`)).body.status;
    const incident = (
      await call('POST', '/v1/incidents', { title: 'Search down', severity: 'major', affected_services: [service] })
    ).body.id;
    expect(await status()).toBe('healthy');
    await call('POST', `/v1/incidents/${incident}/publish`);
    expect(await status()).toBe('unhealthy');
    await call('PATCH', `/v1/incidents/${incident}`, { severity: 'minor' });
    expect(await status()).toBe('degraded');
    await call('POST', `/v1/incidents/${incident}/resolve`, {});
    expect(await status()).toBe('healthy');
    // A customer-scoped incident stays private: the metric's status is public on status pages.
    const customer = (await call('POST', '/v1/customers', { name: 'Private' })).body.id;
    await call('POST', '/v1/incidents', {
      title: 'Only for one',
      severity: 'critical',
      affected_services: [service],
      visible_to_customer_ids: [customer],
      publish: true,
    });
    expect(await status()).toBe('healthy');
  });

  it('answers a new incident, and records its events, exactly as it reads back (with and without a first message)', async () => {
    for (const body of [
      {
        title: 'Read back',
        severity: 'critical',
        affected_services: [svc],
        publish: true,
        initial_message: { type: 'Identified', body: 'Cause "known" ☃' },
      },
      { title: 'Bare draft' },
      { title: 'Opened and closed', publish: true, initial_message: { type: 'Resolved', body: 'Fixed already' } },
    ]) {
      const created = await call('POST', '/v1/incidents', body);
      expect(created.status).toBe(201);
      // Only the create answer carries `warnings`: none when it names its services.
      expect(created.body.warnings).toEqual(
        'affected_services' in body
          ? []
          : [{ code: 'shown_on_every_status_page', message: expect.stringContaining('shown on every status page') }],
      );
      const incident = withoutWarnings(created.body);
      expect((await call('GET', `/v1/incidents/${created.body.id}`)).body).toEqual(incident);
      const recorded = await api.orm.em.fork().find(OutboxEventSchema, { resourceId: created.body.id });
      expect(recorded.length).toBeGreaterThanOrEqual(1);
      for (const e of recorded) expect(e.payload).toEqual(incident);
    }
  });

  it('creates an incident once per Idempotency-Key, with its events once, even when the same request races', async () => {
    const o = await orgWithKeys(api);
    const post = (key: string, body: unknown) => o.call('POST', '/v1/incidents', body, { 'idempotency-key': key });
    const body = { title: 'Once', publish: true, initial_message: { body: 'Looking' } };
    const first = await post('inc-1', body);
    const second = await post('inc-1', body);
    expect([first.status, second.status]).toEqual([201, 201]);
    expect(second.body).toEqual(first.body);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect((await post('inc-1', { ...body, title: 'Other' })).body.title).toBe('idempotency_key_reused');
    const raced = await Promise.all(Array.from({ length: 5 }, () => post('inc-race', { title: 'Raced' })));
    expect(raced.every((r) => r.status === 201)).toBe(true);
    expect(new Set(raced.map((r) => r.body.id)).size).toBe(1);
    const listed = (await o.call('GET', '/v1/incidents')).body.items;
    expect(listed.map((i: { title: string }) => i.title).sort()).toEqual(['Once', 'Raced']);
    expect(await events(first.body.id)).toEqual(['incident.created', 'incident.message_added', 'incident.published']);
    expect(await events(raced[0]!.body.id)).toEqual(['incident.created']);
  });

  it('moves a manual metric at once when an incident is created published on its service, and not for one that names no service', async () => {
    const service = (await call('POST', '/v1/services', { name: 'Inbox' })).body.id;
    const metric = (
      await call('POST', '/v1/metrics', {
        service_id: service,
        name: 'Inbox status',
        source_type: 'manual',
        source_config: {},
      })
    ).body.id;
    await call('POST', `/v1/metrics/${metric}/status`, { status: 'healthy' });
    const status = async () => (await call('GET', `/v1/metrics/${metric}`)).body.status;
    await call('POST', '/v1/incidents', { title: 'Elsewhere', severity: 'critical', publish: true });
    expect(await status()).toBe('healthy');
    await call('POST', '/v1/incidents', {
      title: 'Inbox slow',
      severity: 'minor',
      affected_services: [service],
      publish: true,
    });
    expect(await status()).toBe('degraded');
  });

  it("creates a draft pre-filled from the metric's latest status flip", async () => {
    const service = (await call('POST', '/v1/services', { name: 'Payments' })).body.id;
    const metric = (
      await call('POST', '/v1/metrics', {
        service_id: service,
        name: 'Card auth',
        source_type: 'manual',
        source_config: {},
      })
    ).body.id;
    await call('POST', `/v1/metrics/${metric}/status`, { status: 'healthy' });
    await call('POST', `/v1/metrics/${metric}/status`, { status: 'unhealthy' });
    const res = await call('POST', `/v1/incidents/from-metric/${metric}`);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      state: 'draft',
      title: 'Problems with Payments',
      severity: 'major',
      affected_services: [service],
    });
    expect(res.body.messages).toHaveLength(1);
    expect(res.body.messages[0]).toMatchObject({ type: 'Investigating' });
    // No status page shows it: the time is in UTC. What was measured is internal.
    expect(res.body.messages[0].body).toMatch(
      /^We are investigating problems with Payments since (\d{1,2} [A-Z][a-z]+, )?\d{2}:\d{2} UTC\.$/,
    );
    expect(res.body.internal_note).toContain(`Metric Card auth (${metric}) is unhealthy`);
    expect(res.body.internal_note).toContain('(was healthy)');
  });

  it('drafts "is down", severity major, from a no_data with a target reason, and names the state a class change within no_data left', async () => {
    const service = (await call('POST', '/v1/services', { name: 'Shop' })).body.id;
    const agent = (await call('POST', '/v1/agents', { name: 'shop-edge' })).body;
    const metric = (
      await call('POST', '/v1/metrics', {
        service_id: service,
        name: 'Checkout',
        source_type: 'tcp',
        source_config: { host: 'shop.internal', port: 443 },
        thresholds: {
          healthy_operation: 'under',
          healthy_value: 100,
          unhealthy_operation: 'over',
          unhealthy_value: 200,
        },
        interval_seconds: 60,
        agent_id: agent.id,
        confirmation: { failures: 1, recoveries: 1 },
      })
    ).body.id;
    const post = async (value: number | null, reason: string | null, agoMs: number) =>
      expect(
        (
          await api.request('POST', '/v1/agent/samples', {
            headers: { authorization: `Bearer ${agent.token}` },
            body: {
              samples: [{ metric_id: metric, sampled_at: new Date(Date.now() - agoMs).toISOString(), value, reason }],
            },
          })
        ).status,
      ).toBe(200);
    await post(null, 'header_ref_missing', 300_000);
    await post(null, 'ECONNREFUSED', 200_000);
    const down = await call('POST', `/v1/incidents/from-metric/${metric}`);
    expect(down.status).toBe(201);
    expect(down.body).toMatchObject({ title: 'Problems with Shop', severity: 'major' });
    expect(down.body.internal_note).toContain('Checkout');
    expect(down.body.internal_note).toContain('is down');
    expect(down.body.internal_note).toContain('(was not measured (no data))');
    expect(down.body.internal_note).toContain('(ECONNREFUSED)');
    expect(down.body.messages[0].body).not.toContain('ECONNREFUSED');
    await post(null, 'stale_agent_silent', 100_000);
    const gap = await call('POST', `/v1/incidents/from-metric/${metric}`);
    expect(gap.body).toMatchObject({ title: 'Problems with Shop', severity: 'minor' });
    expect(gap.body.internal_note).toContain('reports no data');
    expect(gap.body.internal_note).toContain('(was down)');
  });
});
