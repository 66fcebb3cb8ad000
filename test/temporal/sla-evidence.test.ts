import { randomUUID } from 'node:crypto';
import { MetricStatusFlipSchema } from '../../src/db/entities';
import { storeSamples } from '../../src/db/repositories/samples-repository';
import { type Vote, roundOutcome } from '../../src/domain/confirmation';
import { tzDataVersion } from '../../src/domain/sla/period';
import { temporalSlaWorkflows } from '../../src/temporal/sla-workflows';
import { type ApiHarness, startApi } from '../support/api-harness';
import { testSecretBox } from '../support/env';
import { type OrgFixture, orgWithKeys } from '../support/org-fixture';
import { type TemporalHarness, startTemporalHarness } from '../support/temporal-harness';

/**
 * Issue 24 §2, end to end on a real PostgreSQL and Temporal: what a statement counts. A no_data
 * flip with a target reason is down, a measurement reason is a gap; history stored for a metric
 * before it was created counts; coverage below the contract's minimum gates submit and approve;
 * an approved period changes only through a correction that says what changed; an action on a
 * superseded revision answers stale_revision; a contract may cover SLOs only. Issue 25: an outage
 * confirmed over several rounds counts from its first failing round, and the statement says per
 * outage how many locations confirmed it.
 * 2026-10 in UTC has 44,640 minutes.
 */
let h: TemporalHarness;
let api: ApiHarness;
let org: OrgFixture<'preparer' | 'approver', 'web' | 'batch' | 'empty'>;
let customerId: string;

const links = {
  jwksUrl: 'http://vigil.test/.well-known/jwks.json',
  verifyDocsUrl: 'http://vigil.test/docs/sla-verification',
};

beforeAll(async () => {
  h = await startTemporalHarness({
    sla: { signer: { box: testSecretBox(), tzDataVersion: tzDataVersion(process.versions.tz) } },
  });
  api = await startApi({
    sla: {
      workflows: temporalSlaWorkflows(h.temporal, {
        reminderAfterMs: 3_600_000,
        escalateAfterMs: 7_200_000,
        correctionWindowMs: 3_600_000,
      }),
      printer: null,
      links,
    },
  });
  org = await orgWithKeys(api, {
    keys: { preparer: ['read:sla', 'write:sla'], approver: ['read:sla', 'write:sla'] },
    services: ['web', 'batch', 'empty'],
  });
  customerId = (await org.call('POST', '/v1/customers', { name: 'Evidence Corp' })).body.id;
}, 60_000);
afterAll(async () => {
  await api?.close();
  await h?.close();
});

const terms = { type: 'tiered', steps: [{ below_pct: '99.99', credit_pct: '10' }], maintenance_notice_hours: 24 };
const contract = (o: Record<string, unknown>) => ({
  customer_id: customerId,
  name: `c-${randomUUID().slice(0, 6)}`,
  sla_target_pct: '99.9',
  timezone: 'UTC',
  currency: 'EUR',
  monthly_fee_minor: 100_000,
  effective_from: '2026-01-01',
  credit_terms: terms,
  ...o,
});

async function newMetric(service: string, createdAt: string | null): Promise<string> {
  const res = await org.call('POST', '/v1/metrics', {
    service_id: service,
    name: `m-${randomUUID().slice(0, 8)}`,
    source_type: 'manual',
    source_config: {},
  });
  expect(res.status).toBe(201);
  if (createdAt)
    await api.orm.em
      .fork()
      .getConnection()
      .execute(`update metrics set created_at = ? where id = ?`, [createdAt, res.body.id]);
  return res.body.id;
}

async function flips(metric: string, list: [string, string, string | null][]): Promise<void> {
  const em = api.orm.em.fork();
  let from = 'no_data';
  for (const [at, to, reason] of list) {
    em.create(MetricStatusFlipSchema, {
      id: randomUUID(),
      organization: org.id,
      metric,
      fromStatus: from,
      toStatus: to,
      value: null,
      reason,
      reasonClass: null,
      at: new Date(at),
    });
    from = to;
  }
  await em.flush();
}

async function draft(contractId: string, period = '2026-10') {
  const res = await org.keys.preparer.call('POST', `/v1/contracts/${contractId}/statements`, { period });
  expect(res.status).toBe(201);
  const doc = JSON.parse((await org.call('GET', `/v1/sla/statements/${res.body.id}/statement.json`)).text);
  return { s: res.body, doc };
}

describe('what an SLA statement counts', () => {
  it('counts no_data with a target reason as down and a measurement reason as a gap (never up, never down)', async () => {
    const metric = await newMetric(org.services.web, '2026-09-01T00:00:00Z');
    await flips(metric, [
      ['2026-09-30T00:00:00Z', 'healthy', null],
      ['2026-10-05T10:00:00Z', 'no_data', 'ECONNREFUSED'], // the target refused: 30 minutes down
      ['2026-10-05T10:30:00Z', 'healthy', null],
      ['2026-10-06T10:00:00Z', 'no_data', 'stale_agent_silent'], // Vigil could not measure: 45 minutes unmeasured
      ['2026-10-06T10:45:00Z', 'healthy', null],
    ]);
    const { s, doc } = await draft(
      (await org.call('POST', '/v1/contracts', contract({ service_ids: [org.services.web] }))).body.id,
    );
    expect(doc.totals).toEqual({
      total_minutes: 44_640,
      excluded_minutes: 0,
      eligible_minutes: 44_640,
      down_minutes: 30,
    });
    expect(doc.coverage).toMatchObject({
      measured_minutes: 44_595,
      unmeasured_minutes: 45,
      sufficient: true,
      warning: null,
    });
    expect(s.coverage).toMatchObject({ unmeasured_minutes: 45, sufficient: true });
    expect(s.warnings).toEqual([]);
    expect(s.credit_pct).toBe('10');
  }, 30_000);

  it('counts history stored before the metric was created, and says which samples were imported or late', async () => {
    // Created today; its October history arrives as samples stamped before its creation.
    const metric = await newMetric(org.services.batch, null);
    const at = (iso: string) => new Date(iso);
    const samples = [
      { sampledAt: at('2026-10-01T00:00:00Z'), status: 'healthy' },
      { sampledAt: at('2026-10-12T08:00:00Z'), status: 'unhealthy' },
      { sampledAt: at('2026-10-12T15:41:00Z'), status: 'healthy' }, // 461 minutes down
    ].map((x) => ({
      metricId: metric,
      sampledAt: x.sampledAt,
      value: x.status === 'healthy' ? 1 : 0,
      status: x.status,
      reason: null,
    }));
    const em = api.orm.em.fork();
    await storeSamples(em, org.id, samples, new Date(), { pushSourceTypes: [], reasons: {} });
    // Every sample stored today arrived after October ended; two of them came through an import.
    await em
      .getConnection()
      .execute(
        `update metric_samples set imported = true, received_at = now() where metric_id = ? and sampled_at < '2026-10-12T15:00:00Z'`,
        [metric],
      );
    const { s, doc } = await draft(
      (await org.call('POST', '/v1/contracts', contract({ service_ids: [org.services.batch] }))).body.id,
    );
    expect(doc.services[0]).toMatchObject({ metrics: 1, down_minutes: 461 });
    expect(doc.totals.down_minutes).toBe(461);
    expect(s.attainment_min).not.toBe('100.0000');
    expect(doc.services[0].metric_evidence).toEqual([
      {
        metric_id: metric,
        name: expect.any(String),
        counted_from: '2026-10-01T00:00:00.000Z',
        samples: 3,
        imported_samples: 2,
        imported_minutes: 2,
        late_samples: 3,
        // A manual metric's flips carry no votes: its outage was counted at once.
        outages: [
          {
            from: '2026-10-12T08:00:00.000Z',
            to: '2026-10-12T15:41:00.000Z',
            minutes: 461,
            counted_minutes: 461,
            status: 'unhealthy',
            reason: null,
            confirmed_by: null,
          },
        ],
      },
    ]);
  }, 30_000);

  it('warns below min_coverage_pct and refuses submit and approve (409 insufficient_evidence) unless the gaps are acknowledged, in the audit trail', async () => {
    // A service with no metric: nothing measured all month.
    const c = (
      await org.call(
        'POST',
        '/v1/contracts',
        contract({ service_ids: [org.services.empty], credit_terms: { ...terms, no_data_counts_as: 'excluded' } }),
      )
    ).body;
    expect(c.credit_terms).toMatchObject({ no_data_counts_as: 'excluded', min_coverage_pct: '99' });
    const { s, doc } = await draft(c.id);
    expect(doc.coverage).toMatchObject({
      measured_minutes: 0,
      unmeasured_minutes: 44_640,
      coverage_pct: '0.0000',
      sufficient: false,
      no_data_counts_as: 'excluded',
    });
    expect(doc.totals).toMatchObject({ excluded_minutes: 44_640, eligible_minutes: 0 });
    expect(s.warnings).toEqual([expect.stringContaining('Insufficient evidence')]);
    // The API's coverage says what the gaps counted as, as the document does (also for a coverage
    // column written before it repeated the treatment: read from the signed document).
    expect(s.coverage).toMatchObject({ no_data_counts_as: 'excluded' });
    await api.orm.em
      .fork()
      .getConnection()
      .execute(`update sla_statements set coverage = coverage - 'no_data_counts_as' where id = ?`, [s.id]);
    expect((await org.call('GET', `/v1/sla/statements/${s.id}`)).body.coverage).toMatchObject({
      no_data_counts_as: 'excluded',
    });
    const html = await org.call('GET', `/v1/sla/statements/${s.id}/statement.html`);
    expect(html.text).toContain('Insufficient evidence');

    const refused = await org.keys.preparer.call('POST', `/v1/sla/statements/${s.id}/submit`);
    expect([refused.status, refused.body.title, refused.body.detail]).toEqual([
      409,
      'insufficient_evidence',
      expect.any(String),
    ]);
    const submitted = await org.keys.preparer.call('POST', `/v1/sla/statements/${s.id}/submit`, {
      acknowledge_gaps: true,
    });
    expect(submitted.body.state).toBe('in_review');
    const approveRefused = await org.keys.approver.call('POST', `/v1/sla/statements/${s.id}/approve`, {
      revision: 1,
      sha256: s.sha256,
    });
    expect([approveRefused.status, approveRefused.body.title]).toEqual([409, 'insufficient_evidence']);
    const approved = await org.keys.approver.call('POST', `/v1/sla/statements/${s.id}/approve`, {
      revision: 1,
      sha256: s.sha256,
      acknowledge_gaps: true,
    });
    expect(approved.body.state).toBe('approved');
    const audit = (await org.call('GET', `/v1/sla/statements/${s.id}/audit`)).body.items as {
      action: string;
      note: string | null;
    }[];
    expect(audit.filter((a) => a.action === 'submit' || a.action === 'approve').map((a) => a.note)).toEqual([
      'Evidence gaps acknowledged: coverage 0.0000% below 99%.',
      'Evidence gaps acknowledged: coverage 0.0000% below 99%.',
    ]);
  }, 60_000);

  it('answers a contract stored before issue 24 with its evidence-gap terms defaulted', async () => {
    const c = (await org.call('POST', '/v1/contracts', contract({ service_ids: [org.services.web] }))).body;
    await api.orm.em
      .fork()
      .getConnection()
      .execute(
        `update contracts set credit_terms = credit_terms - 'no_data_counts_as' - 'min_coverage_pct' where id = ?`,
        [c.id],
      );
    const read = (await org.call('GET', `/v1/contracts/${c.id}`)).body;
    expect(read.credit_terms).toMatchObject({ no_data_counts_as: 'up', min_coverage_pct: '99' });
    const listed = (await org.call('GET', `/v1/contracts?customer_id=${customerId}`)).body.items.find(
      (x: { id: string }) => x.id === c.id,
    );
    expect(listed.credit_terms).toMatchObject({ no_data_counts_as: 'up', min_coverage_pct: '99' });
  }, 30_000);

  it('counts a confirmed outage from its first failing round and says how many locations confirmed it', async () => {
    const service = (await org.call('POST', '/v1/services', { name: `confirmed-${randomUUID().slice(0, 6)}` })).body
      .id as string;
    const agent = (await org.call('POST', '/v1/agents', { name: `edge-${randomUUID().slice(0, 6)}` })).body;
    const thresholds = {
      healthy_operation: 'under',
      healthy_value: 100,
      unhealthy_operation: 'over',
      unhealthy_value: 200,
    };
    const created = await org.call('POST', '/v1/metrics', {
      service_id: service,
      name: 'checkout',
      source_type: 'tcp',
      source_config: { host: 'shop.example', port: 443 },
      thresholds,
      agent_id: agent.id,
      confirmation: { failures: 2, recoveries: 2 },
    });
    expect(created.status).toBe(201);
    expect(created.body.confirmation).toMatchObject({ quorum: 'majority', failures: 2, recoveries: 2 });
    const metric = created.body.id as string;
    await api.orm.em
      .fork()
      .getConnection()
      .execute(`update metrics set created_at = '2026-09-01T00:00:00Z' where id = ?`, [metric]);

    // Each round: the agent and two cloud locations vote; the round's sample is its outcome's representative, as the round workflow stores it.
    const ok = (location: string, at: string): Vote => ({ location, value: 40, reason: null, status: 'healthy', at });
    const good = (at: string) => [ok(`agent:${agent.id}`, at), ok('eu-central', at), ok('us-east', at)];
    const failing = (at: string): Vote[] => [
      ok(`agent:${agent.id}`, at),
      { location: 'eu-central', value: null, reason: 'ECONNREFUSED', status: 'no_data', at },
      { location: 'us-east', value: 900, reason: null, status: 'unhealthy', at },
    ];
    const rounds: [string, (at: string) => Vote[]][] = [
      ['2026-09-30T00:00:00.000Z', good],
      ['2026-10-20T10:10:00.000Z', failing], // the first failing round: the outage starts here
      ['2026-10-20T10:11:00.000Z', failing], // confirms it (failures 2)
      ['2026-10-20T10:15:00.000Z', failing],
      ['2026-10-20T10:20:00.000Z', good], // the first good round: the outage ends here
      ['2026-10-20T10:21:00.000Z', good], // confirms the recovery (recoveries 2)
      ['2026-10-20T11:00:00.000Z', failing], // a blip: one failing round, never confirmed, never down
      ['2026-10-20T11:01:00.000Z', good],
    ];
    const em = api.orm.em.fork();
    for (const [at, votesOf] of rounds) {
      const votes = votesOf(at);
      const rep = roundOutcome(votes, 'majority').representative!;
      await storeSamples(
        em,
        org.id,
        [
          {
            metricId: metric,
            sampledAt: new Date(at),
            value: rep.value,
            status: rep.status,
            reason: rep.reason,
            votes,
          },
        ],
        new Date(),
        { pushSourceTypes: [], reasons: {} },
      );
    }
    const flipped = (await org.call('GET', `/v1/metrics/${metric}/flips?limit=10`)).body.items as {
      to_status: string;
      at: string;
      confirmed_at: string;
      confirmations: number;
    }[];
    expect(flipped.map((f) => [f.to_status, f.at, f.confirmed_at, f.confirmations])).toEqual([
      ['healthy', '2026-10-20T10:20:00.000Z', '2026-10-20T10:21:00.000Z', 2],
      ['unhealthy', '2026-10-20T10:10:00.000Z', '2026-10-20T10:11:00.000Z', 2],
      ['healthy', '2026-09-30T00:00:00.000Z', '2026-09-30T00:00:00.000Z', 1],
    ]);

    const { s, doc } = await draft(
      (await org.call('POST', '/v1/contracts', contract({ service_ids: [service] }))).body.id,
    );
    // 10:10–10:20: ten minutes, the minute spent confirming included (counted from the confirming round it would be nine).
    expect(doc.totals.down_minutes).toBe(10);
    expect(doc.services[0].metric_evidence[0].outages).toEqual([
      {
        from: '2026-10-20T10:10:00.000Z',
        to: '2026-10-20T10:20:00.000Z',
        minutes: 10,
        counted_minutes: 10,
        status: 'unhealthy',
        reason: null,
        confirmed_by: {
          locations_failing: 2,
          locations_voting: 3,
          rounds: 2,
          first_failing_at: '2026-10-20T10:10:00.000Z',
          confirmed_at: '2026-10-20T10:11:00.000Z',
          failing_locations: ['eu-central', 'us-east'],
        },
      },
    ]);
    const html = (await org.call('GET', `/v1/sla/statements/${s.id}/statement.html`)).text;
    expect(html).toContain('Outage ledger');
    expect(html).toContain(
      'Confirmed by 2 of 3 locations over 2 rounds: first failing round <time datetime="2026-10-20T10:10:00.000Z">10:10:00 UTC</time>',
    );
  }, 60_000);

  it('never changes an approved period silently: new evidence shows only in a correction that says what changed', async () => {
    const metric = await newMetric(org.services.web, '2026-09-01T00:00:00Z');
    await flips(metric, [['2026-09-30T00:00:00Z', 'healthy', null]]);
    const serviceless = await org.call('POST', '/v1/slos', {
      name: `slo-${randomUUID().slice(0, 6)}`,
      metric_id: metric,
      objective: '99.9',
      window: { kind: 'rolling', days: 30 },
    });
    expect(serviceless.status).toBe(201);
    // One SLO is enough: no service_ids needed.
    const c = await org.call('POST', '/v1/contracts', contract({ slo_ids: [serviceless.body.id] }));
    expect(c.status).toBe(201);
    expect(c.body.service_ids).toEqual([]);
    const { s } = await draft(c.body.id, '2026-09');
    expect(
      (await org.keys.preparer.call('POST', `/v1/sla/statements/${s.id}/submit`, { acknowledge_gaps: true })).body
        .state,
    ).toBe('in_review');
    expect(
      (
        await org.keys.approver.call('POST', `/v1/sla/statements/${s.id}/approve`, {
          revision: 1,
          sha256: s.sha256,
          acknowledge_gaps: true,
        })
      ).body.state,
    ).toBe('approved');

    // Late evidence for September: an outage of 20 minutes.
    await flips(metric, [
      ['2026-09-30T10:00:00Z', 'unhealthy', null],
      ['2026-09-30T10:20:00Z', 'healthy', null],
    ]);
    const again = await org.keys.preparer.call('POST', `/v1/contracts/${c.body.id}/statements`, { period: '2026-09' });
    expect([again.body.id, again.body.sha256, again.body.state]).toEqual([s.id, s.sha256, 'approved']);

    const corrected = await org.keys.preparer.call('POST', `/v1/sla/statements/${s.id}/correct`, {
      note: 'late samples',
    });
    expect(corrected.body).toMatchObject({ revision: 2, state: 'draft', supersedes_id: s.id });
    const doc2 = JSON.parse((await org.call('GET', `/v1/sla/statements/${corrected.body.id}/statement.json`)).text);
    expect(doc2.correction.changes).toEqual(
      expect.arrayContaining([{ field: 'totals.down_minutes', before: '0', after: '20' }]),
    );
    expect(doc2.correction.summary).toMatch(/^Corrects revision 1: down minutes 0 → 20/);
    const old = await org.call('GET', `/v1/sla/statements/${s.id}`);
    expect([old.body.state, old.body.sha256]).toEqual(['superseded', s.sha256]);
    const audit = (await org.call('GET', `/v1/sla/statements/${corrected.body.id}/audit`)).body.items as {
      action: string;
      revision: number;
      note: string | null;
    }[];
    expect(audit.find((a) => a.action === 'correct' && a.revision === 2)?.note).toMatch(
      /^late samples — Corrects revision 1/,
    );

    // Any action on the superseded revision: 409 stale_revision, naming the current one.
    const stale = await org.keys.preparer.call('POST', `/v1/sla/statements/${s.id}/void`, { reason: 'x' });
    expect([stale.status, stale.body.title]).toEqual([409, 'stale_revision']);
    expect(stale.body.detail).toContain(corrected.body.id);
  }, 60_000);
});
