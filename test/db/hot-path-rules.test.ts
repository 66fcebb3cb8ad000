import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { AlertRuleSchema, AlertSignalSchema, IncidentSchema, OutboxEventSchema } from '../../src/db/entities';
import { type MatchableRule, type StatusEventFacts, statusEventSignal } from '../../src/domain/alerting/rule-matching';
import type { AlertRuleKind } from '../../src/domain/alerting/rule-kinds';
import { dispatchOutbox } from '../../src/db/repositories/outbox-repository';
import { incidentState } from '../../src/domain/incident-state';
import { EMAIL_EVENT_TYPES } from '../../src/domain/status-page/notify-events';
import { evaluateStatus } from '../../src/domain/thresholds';
import { type ApiHarness, startApi } from '../support/api-harness';
import {
  EMAIL_CASES,
  EMAIL_WINDOW_CASES,
  FLIP_CASES,
  INCIDENT_CREATE_CASES,
  THRESHOLD_CASES,
  type Flip,
  type ThresholdCase,
  flipsByTimeline,
} from '../support/hot-path-cases';
import { type OrgFixture, orgWithKeys } from '../support/org-fixture';
import { takeRelayTurn } from '../support/relay-turn';

/**
 * The rules the hot-path SQL statements encode (docs/hot-paths.md), run through the statements
 * against PostgreSQL and through the pure version of each rule side by side, from the same
 * tables as test/unit/hot-path-rules.test.ts (test/support/hot-path-cases.ts).
 */
let api: ApiHarness;
let org: OrgFixture<never, 'Rules'>;
let agent: { id: string; token: string };
beforeAll(async () => {
  api = await startApi();
  org = await orgWithKeys(api, { plan: 'enterprise', name: 'hot-path rules', services: ['Rules'] });
  agent = (await org.call('POST', '/v1/agents', { name: 'rules' })).body;
});
afterAll(async () => api.close());

const em = () => api.orm.em.fork() as EntityManager;
const sql = async <T = any>(text: string, params: unknown[] = []) =>
  (await api.orm.em.getConnection().execute(text, params)) as T[];

async function newMetric(thresholds: ThresholdCase['thresholds']): Promise<string> {
  const res = await org.call('POST', '/v1/metrics', {
    service_id: org.services.Rules,
    name: `m-${randomUUID().slice(0, 8)}`,
    source_type: 'tcp',
    source_config: { host: 'db.internal', port: 5432 },
    thresholds,
    interval_seconds: 60,
    agent_id: agent.id,
    // Each sample counts at once: these rules are about one sample's status (confirmation: test/api/confirmation.test.ts).
    confirmation: { failures: 1, recoveries: 1 },
  });
  expect(res.status).toBe(201);
  return res.body.id;
}

/** POST /v1/agent/samples: evaluation in Node, then storeSamples' one statement. */
async function postSamples(samples: { metric_id: string; sampled_at: string; value: number | null }[]): Promise<void> {
  const res = await api.request('POST', '/v1/agent/samples', {
    headers: { authorization: `Bearer ${agent.token}` },
    body: { samples },
  });
  expect(res.status).toBe(200);
  expect(res.body).toMatchObject({ accepted: samples.length, rejected: [] });
}

describe('ingest (storeSamples)', () => {
  it.each(THRESHOLD_CASES.map((c) => [c.value, c.set, c.status, c] as const))(
    'stores %p under the %s thresholds as %s, as evaluateStatus does',
    async (_v, _set, _s, c) => {
      const metricId = await newMetric(c.thresholds);
      const sampledAt = new Date(Math.floor(Date.now() / 1000) * 1000 - 60_000).toISOString();
      await postSamples([{ metric_id: metricId, sampled_at: sampledAt, value: c.value }]);
      const [stored] = await sql<{ status: string }>(`select status from metric_samples where metric_id = ?`, [
        metricId,
      ]);
      const [metric] = await sql<{ status: string }>(`select status from metrics where id = ?`, [metricId]);
      expect({ sample: stored!.status, metric: metric!.status, pure: evaluateStatus(c.value, c.thresholds) }).toEqual({
        sample: c.status,
        metric: c.status,
        pure: c.status,
      });
    },
  );

  /** Values under the latency thresholds (healthy under 100, unhealthy over 200) that evaluate to each status. */
  const VALUE = { healthy: 50, degraded: 150, unhealthy: 250, no_data: null } as const;
  const latency = THRESHOLD_CASES.find((c) => c.set === 'latency')!.thresholds;

  it.each(FLIP_CASES.map((c) => [c.name, c] as const))('flips as normalizeTimeline walks: %s', async (_name, c) => {
    const metricId = await newMetric(latency);
    const base = Math.floor(Date.now() / 1000) * 1000 - 3_600_000;
    for (const batch of c.batches) {
      await postSamples(
        batch.map((s) => ({
          metric_id: metricId,
          sampled_at: new Date(base + s.at * 1000).toISOString(),
          value: VALUE[s.status],
        })),
      );
    }
    const stored = await sql<{ from_status: Flip['from']; to_status: Flip['to']; at: string }>(
      `select from_status, to_status, at from metric_status_flips where metric_id = ? order by at`,
      [metricId],
    );
    const flips = stored.map((f) => ({
      from: f.from_status,
      to: f.to_status,
      at: (new Date(f.at).getTime() - base) / 1000,
    }));
    expect(flips).toEqual(c.flips);
    expect(flips).toEqual(flipsByTimeline(c));
    // One metric.status_changed event per flip, in time order.
    const events = await sql<{ payload: { previous_status: string; status: string } }>(
      `select payload from outbox_events where type = 'metric.status_changed' and resource_id = ? order by payload->>'last_sample_at'`,
      [metricId],
    );
    expect(events.map((e) => [e.payload.previous_status, e.payload.status])).toEqual(
      c.flips.map((f) => [f.from, f.to]),
    );
  });
});

describe('incident creation (insertIncident)', () => {
  it.each(INCIDENT_CREATE_CASES.map((c) => [c.name, c.state, c] as const))(
    '%s: %s, as incidentState reads the stored row',
    async (_name, _state, c) => {
      const res = await org.call('POST', '/v1/incidents', { title: c.name, ...c.input });
      expect(res.status).toBe(201);
      const row = await em().findOneOrFail(IncidentSchema, res.body.id);
      expect({ published: row.publishedAt !== null, resolved: row.resolvedAt !== null }).toEqual(c.stamps);
      expect({ answer: res.body.state, stored: incidentState(row) }).toEqual({ answer: c.state, stored: c.state });
      const events = await em().find(OutboxEventSchema, { resourceId: row.id });
      expect(events.map((e) => e.type).sort()).toEqual([...c.events].sort());
      // Events carry the incident; only the create answer adds `warnings`.
      const { warnings, ...incident } = res.body;
      expect(warnings).toEqual(expect.any(Array));
      for (const e of events) expect(e.payload).toEqual(incident);
      expect(res.body.messages).toHaveLength(c.input.initial_message ? 1 : 0);
    },
  );
});

describe('outbox fan-out (dispatchOutbox): subscriber-email runs', () => {
  // Fanning out takes every undispatched event in the shared database: hold the relay turn.
  let releaseRelayTurn: () => Promise<void>;
  const audiences = { confirmed: '', pending: '', none: '' };
  beforeAll(async () => {
    releaseRelayTurn = await takeRelayTurn();
    for (const audience of Object.keys(audiences) as (keyof typeof audiences)[]) {
      const o = await orgWithKeys(api, { name: `email rules: ${audience}` });
      audiences[audience] = o.id;
      if (audience === 'none') continue;
      const page = await o.call('POST', '/v1/status-pages', { subdomain: `rules-${o.id.slice(0, 8)}`, title: 'Rules' });
      expect(page.status).toBe(201);
      const imported = await o.call('POST', `/v1/status-pages/${page.body.id}/subscribers/import`, {
        subscribers: [{ email: 'ann@example.com' }],
        skip_confirmation: audience === 'confirmed',
      });
      expect(imported.status).toBe(200);
    }
  });
  afterAll(async () => {
    // The events written here (and their runs) would otherwise wait for a worker's outbox sweep.
    await em().nativeDelete(OutboxEventSchema, { organization: { $in: Object.values(audiences).filter(Boolean) } });
    await releaseRelayTurn?.();
  });

  it('creates a run for each event that owes email (EMAIL_EVENT_TYPES), less than 2 days old, where someone confirmed (confirmations always)', async () => {
    const fork = em();
    const cases = Object.entries(audiences).flatMap(([audience, organization]) =>
      EMAIL_CASES.flatMap((c) =>
        EMAIL_WINDOW_CASES.map((w) => {
          const event = fork.create(OutboxEventSchema, {
            id: randomUUID(),
            organization,
            type: c.type,
            resourceKind: c.type.split('.')[0]!,
            resourceId: randomUUID(),
            payload: {},
            createdAt: new Date(Date.now() - w.ageHours * 3_600_000),
            dispatchedAt: null,
          });
          const expected = c.owesEmail && w.inWindow && (audience === 'confirmed' || c.withoutConfirmedSubscriber);
          return {
            id: event.id,
            label: `${audience} ${c.type} ${w.ageHours}h`,
            expected,
            pureOwes: EMAIL_EVENT_TYPES.has(c.type),
            owes: c.owesEmail,
          };
        }),
      ),
    );
    await fork.flush();
    const ids = cases.map((c) => c.id);
    const returned = new Set<string>();
    for (let i = 0; i < 50 && (await em().count(OutboxEventSchema, { id: { $in: ids }, dispatchedAt: null })); i++) {
      for (const run of (await dispatchOutbox(em(), new Date(), 500)).emailRuns) returned.add(run.eventId);
    }
    expect(await em().count(OutboxEventSchema, { id: { $in: ids }, dispatchedAt: null })).toBe(0);
    const runs = new Set(
      (
        await sql<{ event_id: string }>(`select event_id from notification_runs where event_id = any(?::uuid[])`, [
          `{${ids.join(',')}}`,
        ])
      ).map((r) => r.event_id),
    );
    const byLabel = (has: (c: (typeof cases)[number]) => boolean) =>
      Object.fromEntries(cases.map((c) => [c.label, has(c)]));
    expect(byLabel((c) => runs.has(c.id))).toEqual(byLabel((c) => c.expected));
    expect(byLabel((c) => returned.has(c.id))).toEqual(byLabel((c) => c.expected));
    // The list the statement is given is the pure one, and the table agrees with it.
    expect(byLabel((c) => c.pureOwes)).toEqual(byLabel((c) => c.owes));
  });
});

describe('outbox fan-out (dispatchOutbox): alert signals', () => {
  // Rules of every status kind, each watching something different, and one status change of each
  // metric in each state: the statement's alert_signals rows and statusEventSignal must agree.
  let releaseRelayTurn: () => Promise<void>;
  let o: OrgFixture<never, 'A' | 'B'>;
  const metrics = { plain: '', heartbeat: '', other: '' };
  const pages = { showsA: '', showsOther: '' };
  const rules: { id: string; label: string; rule: MatchableRule }[] = [];
  beforeAll(async () => {
    releaseRelayTurn = await takeRelayTurn();
    o = await orgWithKeys(api, { plan: 'enterprise', name: 'alert rule matching', services: ['A', 'B'] });
    const metric = async (service: 'A' | 'B', body: Record<string, unknown>) => {
      const res = await o.call('POST', '/v1/metrics', {
        service_id: o.services[service],
        name: `m-${randomUUID().slice(0, 8)}`,
        ...body,
      });
      expect([res.status, res.text]).toEqual([201, expect.any(String)]);
      return res.body.id as string;
    };
    metrics.plain = await metric('A', { source_type: 'manual', source_config: {} });
    metrics.heartbeat = await metric('A', {
      source_type: 'heartbeat',
      source_config: {},
      thresholds: { healthy_operation: 'under', healthy_value: 360, unhealthy_operation: 'over', unhealthy_value: 900 },
      unit: 's',
    });
    metrics.other = await metric('B', { source_type: 'manual', source_config: {} });
    const page = async (components: { kind: string; id: string }[]) => {
      const res = await o.call('POST', '/v1/status-pages', {
        subdomain: `match-${randomUUID().slice(0, 8)}`,
        title: 'Matching',
        groups: [{ name: 'G', components }],
      });
      expect([res.status, res.text]).toEqual([201, expect.any(String)]);
      return res.body.id as string;
    };
    pages.showsA = await page([{ kind: 'service', id: o.services.A }]);
    pages.showsOther = await page([{ kind: 'metric', id: metrics.other }]);
    const channel = await o.call('POST', '/v1/notification-channels', {
      name: 'mail',
      type: 'email',
      addresses: ['ops@example.com'],
    });
    const policy = await o.call('POST', '/v1/escalation-policies', {
      name: 'p',
      repeat: 0,
      levels: [{ delay_minutes: 5, targets: [{ type: 'channel', id: channel.body.id }] }],
    });
    const rule = async (
      label: string,
      kind: AlertRuleKind,
      subjectId: string | null,
      includeDegraded = false,
      enabled = true,
    ) => {
      const res = await o.call('POST', '/v1/alert-rules', {
        name: label,
        kind,
        subject_id: subjectId,
        severity: 'critical',
        escalation_policy_id: policy.body.id,
        include_degraded: includeDegraded,
        enabled,
      });
      expect([label, res.status]).toEqual([label, 201]);
      rules.push({ id: res.body.id, label, rule: { kind, subjectId, includeDegraded, live: enabled } });
    };
    await rule('metric: plain', 'metric_status', metrics.plain);
    await rule('metric: other, degraded too', 'metric_status', metrics.other, true);
    await rule('heartbeat: any', 'heartbeat_missed', null);
    await rule('heartbeat: the one', 'heartbeat_missed', metrics.heartbeat);
    await rule('service: any', 'service_status', null);
    await rule('service: B, degraded too', 'service_status', o.services.B, true);
    await rule('page showing service A', 'status_page_status', pages.showsA);
    await rule('page showing the other metric, degraded too', 'status_page_status', pages.showsOther, true);
    await rule('metric: plain, disabled', 'metric_status', metrics.plain, false, false);
    await rule('agent: any (polled, never from events)', 'agent_offline', null);
  });
  afterAll(async () => {
    // Unsent signals would otherwise be started as alerts by the next suite's relay.
    await em().nativeDelete(AlertSignalSchema, { organization: o.id });
    await em().nativeDelete(AlertRuleSchema, { organization: o.id });
    await em().nativeDelete(OutboxEventSchema, { organization: o.id });
    await releaseRelayTurn?.();
  });

  it('signals each rule that watches the changed metric, with its subject and whether it fires, as statusEventSignal says', async () => {
    const states: { status: string; availability: string | null }[] = [
      { status: 'unhealthy', availability: 'down' },
      { status: 'degraded', availability: 'up' },
      { status: 'healthy', availability: 'up' },
      { status: 'no_data', availability: 'down' },
      { status: 'no_data', availability: 'unmeasured' },
      // An event from before availability existed: it must not stop the batch.
      { status: 'healthy', availability: null },
    ];
    const serviceOf = { plain: o.services.A, heartbeat: o.services.A, other: o.services.B };
    const sourceOf = { plain: 'manual', heartbeat: 'heartbeat', other: 'manual' };
    const fork = em();
    const events = (Object.keys(metrics) as (keyof typeof metrics)[]).flatMap((m) =>
      states.map((st) => {
        const facts: StatusEventFacts = {
          metricId: metrics[m],
          serviceId: serviceOf[m],
          sourceType: sourceOf[m],
          status: st.status,
          availability: st.availability,
        };
        const event = fork.create(OutboxEventSchema, {
          id: randomUUID(),
          organization: o.id,
          type: 'metric.status_changed',
          resourceKind: 'metric',
          resourceId: metrics[m],
          payload: {
            id: metrics[m],
            service_id: serviceOf[m],
            source_type: sourceOf[m],
            status: st.status,
            availability: st.availability,
          },
          createdAt: new Date(),
          dispatchedAt: null,
        });
        return { id: event.id, label: `${m} ${st.status}/${st.availability}`, facts };
      }),
    );
    await fork.flush();
    for (let i = 0; i < 50 && (await em().count(OutboxEventSchema, { organization: o.id, dispatchedAt: null })); i++)
      await dispatchOutbox(em(), new Date(), 500);
    const stored = await em().find(AlertSignalSchema, { organization: o.id });
    const shows = (pageId: string, e: StatusEventFacts) =>
      pageId === pages.showsA
        ? e.serviceId === o.services.A
        : pageId === pages.showsOther
          ? e.metricId === metrics.other
          : false;
    const key = (eventLabel: string, ruleLabel: string) => `${eventLabel} → ${ruleLabel}`;
    const fromSql = Object.fromEntries(
      stored.map((sig) => [
        key(events.find((e) => e.id === sig.eventId)!.label, rules.find((r) => r.id === sig.rule)!.label),
        { subjectKind: sig.subjectKind, subjectId: sig.subjectId, firing: sig.firing },
      ]),
    );
    const pure = Object.fromEntries(
      events.flatMap((e) =>
        rules.flatMap((r) => {
          const signal = statusEventSignal(r.rule, e.facts, shows);
          return signal ? [[key(e.label, r.label), signal]] : [];
        }),
      ),
    );
    expect(Object.keys(pure).length).toBeGreaterThan(20);
    expect(fromSql).toEqual(pure);
    // The table is not vacuous: some signals fire, some do not, and some rules are never signalled.
    const firing = Object.values(pure).map((x) => x.firing);
    expect(firing).toContain(true);
    expect(firing).toContain(false);
    const signalled = new Set(stored.map((sig) => sig.rule));
    expect(rules.filter((r) => !signalled.has(r.id)).map((r) => r.label)).toEqual([
      'metric: plain, disabled',
      'agent: any (polled, never from events)',
    ]);
  });
});
