import type { Vote } from '../../src/domain/confirmation';
import { creditTermsSchema } from '../../src/domain/sla/credit-terms';
import {
  type EvidenceRound,
  type EvidencedTimeline,
  type FlipRecord,
  confirmedByOf,
  describeConfirmation,
  metricOutages,
} from '../../src/domain/sla/outages';
import { periodBounds } from '../../src/domain/sla/period';
import {
  type CoveredService,
  type StatementInput,
  buildStatementDocument,
  statementDocumentSchema,
} from '../../src/domain/sla/statement';
import { renderStatementHtml } from '../../src/render/sla/statement-html';
import { renderInputFixture, uuid } from '../support/sla-statement-fixture';

/**
 * A statement lists each metric's outages with how they were confirmed, and counts an
 * outage from its first failing round (the flip is dated there), not from the confirming one.
 * 2026-02 in UTC has 40,320 minutes.
 */
const d = (iso: string) => new Date(iso);
const FEB = periodBounds('2026-02', 'UTC');
const TERMS = creditTermsSchema.parse({
  type: 'tiered',
  steps: [{ below_pct: '99.99', credit_pct: '10' }],
  maintenance_notice_hours: 24,
});
const CTX = { window: { start: FEB.start, end: FEB.end }, terms: TERMS, shared: [], own: [] };

const vote = (
  location: string,
  value: number | null,
  status: Vote['status'],
  at: string,
  reason: string | null = null,
): Vote => ({ location, value, reason, status, at });
/** A failing round at `at`: eu-central and us-east fail, ap-south passes. */
const round = (at: string): EvidenceRound => ({
  at,
  votes: [
    vote('ap-south', 40, 'healthy', at),
    vote('eu-central', null, 'no_data', at, 'ECONNREFUSED'),
    vote('us-east', 900, 'unhealthy', at),
  ],
});
const confirmedFlip = (first: string, second: string): FlipRecord => ({
  toStatus: 'unhealthy',
  reason: null,
  confirmedAt: d(second),
  confirmations: 2,
  rounds: [round(first), round(second)],
});

/** Healthy; the rounds at 10:10 and 10:11 fail (failures 2: the flip is dated 10:10, confirmed 10:11); good again from 10:20. */
const confirmed: EvidencedTimeline = {
  initial: 'healthy',
  changes: [
    {
      at: d('2026-02-10T10:10:00Z'),
      status: 'unhealthy',
      flip: confirmedFlip('2026-02-10T10:10:00.000Z', '2026-02-10T10:11:00.000Z'),
    },
    {
      at: d('2026-02-10T10:20:00Z'),
      status: 'healthy',
      flip: {
        toStatus: 'healthy',
        reason: null,
        confirmedAt: d('2026-02-10T10:21:00Z'),
        confirmations: 2,
        rounds: null,
      },
    },
  ],
};
/** The same samples counted at once, by a flip stored before issue 25 (no votes). */
const atOnce: EvidencedTimeline = {
  initial: 'healthy',
  changes: [
    {
      at: d('2026-02-10T10:10:00Z'),
      status: 'unhealthy',
      flip: { toStatus: 'unhealthy', reason: null, confirmedAt: null, confirmations: null, rounds: null },
    },
    { at: d('2026-02-10T10:20:00Z'), status: 'healthy' },
  ],
};

function input(metrics: EvidencedTimeline[], extra: Partial<StatementInput> = {}): StatementInput {
  const service: CoveredService = {
    id: uuid(11),
    name: 'API',
    metrics,
    metricEvidence: metrics.map((_, i) => ({
      metricId: uuid(21 + i),
      name: `check ${i + 1}`,
      countedFrom: d('2026-01-01T00:00:00Z'),
      samples: 10,
      importedSamples: 0,
      importedMinutes: 0,
      lateSamples: 0,
    })),
  };
  return {
    statementId: uuid(1),
    revision: 1,
    supersedes: null,
    generatedAt: d('2026-03-05T00:00:00Z'),
    organization: { id: uuid(2), name: 'Org' },
    customer: { id: uuid(3), name: 'Customer', externalId: null },
    contract: {
      id: uuid(4),
      name: 'C',
      slaTargetPct: '99.9',
      currency: 'EUR',
      monthlyFeeMinor: 100_000,
      creditTerms: TERMS,
    },
    period: FEB,
    window: { start: FEB.start, end: FEB.end },
    tzDataVersion: '2025b',
    tzDataSource: 'intl-icu',
    services: [service],
    maintenances: [],
    exclusions: [],
    incidents: [],
    ...extra,
  };
}

const page = (doc: ReturnType<typeof buildStatementDocument>) =>
  renderStatementHtml(renderInputFixture(doc))
    .replace(/<style>[\s\S]*?<\/style>/, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')
    .replace(/ ([.,;:])/g, '$1')
    .replace(/&#(\d+);/g, (_, n: string) => String.fromCharCode(Number(n)));

describe('the outages of a metric', () => {
  it('counts an outage from its first failing round and says who confirmed it', () => {
    expect(metricOutages(confirmed, CTX)).toEqual([
      {
        from: '2026-02-10T10:10:00.000Z',
        to: '2026-02-10T10:20:00.000Z',
        minutes: 10,
        counted_minutes: 10,
        status: 'unhealthy',
        reason: null,
        confirmed_by: {
          locations_failing: 2,
          locations_voting: 3,
          rounds: 2,
          first_failing_at: '2026-02-10T10:10:00.000Z',
          confirmed_at: '2026-02-10T10:11:00.000Z',
          failing_locations: ['eu-central', 'us-east'],
        },
      },
    ]);
    expect(describeConfirmation(metricOutages(confirmed, CTX)[0]!.confirmed_by)).toBe(
      'confirmed by 2 of 3 locations over 2 rounds',
    );
  });

  it('bills the minutes spent confirming: the statement counts as many down minutes as counting at once', () => {
    const doc = buildStatementDocument(input([confirmed]));
    expect(doc.totals.down_minutes).toBe(10); // 10:10–10:20, not 10:11–10:20
    expect(doc.totals.down_minutes).toBe(buildStatementDocument(input([atOnce])).totals.down_minutes);
    expect(doc.services[0]?.metric_evidence?.[0]?.outages).toEqual(metricOutages(confirmed, CTX));
    expect(statementDocumentSchema.safeParse(doc).success).toBe(true);
  });

  it('says "counted at once" for a flip without votes (before issue 25, or rebuilt from an import)', () => {
    const [outage] = metricOutages(atOnce, CTX);
    expect(outage).toMatchObject({ minutes: 10, confirmed_by: null });
    expect(describeConfirmation(null)).toBe('counted at once (no confirmation recorded)');
    expect(
      confirmedByOf(d('2026-02-10T10:10:00Z'), {
        toStatus: 'unhealthy',
        reason: null,
        confirmedAt: null,
        confirmations: null,
        rounds: [],
      }),
    ).toBeNull();
    // A manual or pushed metric's flip records its round without votes.
    expect(
      confirmedByOf(d('2026-02-10T10:10:00Z'), {
        toStatus: 'unhealthy',
        reason: null,
        confirmedAt: d('2026-02-10T10:10:00Z'),
        confirmations: 1,
        rounds: [{ at: '2026-02-10T10:10:00.000Z', votes: [] }],
      }),
    ).toBeNull();
  });

  it('counts in the confirming round only the locations that voted, after their recheck', () => {
    const at = '2026-02-10T10:11:00.000Z';
    const votes: Vote[] = [
      vote('ap-south', null, 'no_data', at, 'stale_agent_silent'), // a measurement reason: no vote
      {
        ...vote('eu-central', 900, 'unhealthy', at),
        recheck: { location: 'us-east', value: 40, reason: null, status: 'healthy', at },
      }, // the recheck passed
      vote('us-east', null, 'no_data', at, 'ETIMEDOUT'),
    ];
    expect(
      confirmedByOf(d('2026-02-10T10:10:00Z'), {
        toStatus: 'no_data',
        reason: 'ETIMEDOUT',
        confirmedAt: null,
        confirmations: null,
        rounds: [round('2026-02-10T10:10:00.000Z'), { at, votes }],
      }),
    ).toEqual({
      locations_failing: 1,
      locations_voting: 2,
      rounds: 2,
      first_failing_at: '2026-02-10T10:10:00.000Z',
      confirmed_at: at,
      failing_locations: ['us-east'],
    });
  });

  it('follows the downtime rule: degraded only when the terms count it, a measurement gap ends an outage, the window cuts it', () => {
    const flip = (status: string, reason: string | null = null): FlipRecord => ({
      toStatus: status,
      reason,
      confirmedAt: null,
      confirmations: null,
      rounds: null,
    });
    const timeline: EvidencedTimeline = {
      initial: 'no_data',
      changes: [
        {
          at: d('2026-01-31T23:00:00Z'),
          status: 'unhealthy',
          flip: confirmedFlip('2026-01-31T23:00:00.000Z', '2026-01-31T23:00:30.000Z'),
        }, // under way when February starts
        { at: d('2026-02-01T00:05:30Z'), status: 'healthy', flip: flip('healthy') },
        { at: d('2026-02-03T08:00:00Z'), status: 'degraded', flip: flip('degraded') },
        { at: d('2026-02-03T08:30:00Z'), status: 'unhealthy', flip: flip('no_data', 'ECONNREFUSED') },
        { at: d('2026-02-03T08:40:00Z'), status: 'no_data', flip: flip('no_data', 'stale_agent_silent') }, // a gap: not down
        { at: d('2026-02-03T08:50:00Z'), status: 'unhealthy', flip: flip('unhealthy') },
        { at: d('2026-02-28T23:58:00Z'), status: 'unhealthy', flip: flip('unhealthy') }, // down to down: the same outage
      ],
    };
    const strict = metricOutages(timeline, CTX);
    expect(strict.map((o) => [o.from, o.to, o.minutes, o.status, o.reason])).toEqual([
      ['2026-02-01T00:00:00.000Z', '2026-02-01T00:05:30.000Z', 6, 'unhealthy', null],
      ['2026-02-03T08:30:00.000Z', '2026-02-03T08:40:00.000Z', 10, 'unhealthy', 'ECONNREFUSED'],
      ['2026-02-03T08:50:00.000Z', '2026-03-01T00:00:00.000Z', 36_910, 'unhealthy', null],
    ]);
    // The outage under way at the window's start is told by the flip before the window.
    expect(strict[0]?.confirmed_by).toMatchObject({ first_failing_at: '2026-01-31T23:00:00.000Z', rounds: 2 });
    const lenient = metricOutages(timeline, { ...CTX, terms: { ...TERMS, count_degraded_as_down: true } });
    expect(lenient.map((o) => [o.from, o.to, o.status])).toEqual([
      ['2026-02-01T00:00:00.000Z', '2026-02-01T00:05:30.000Z', 'unhealthy'],
      ['2026-02-03T08:00:00.000Z', '2026-02-03T08:40:00.000Z', 'degraded'],
      ['2026-02-03T08:50:00.000Z', '2026-03-01T00:00:00.000Z', 'unhealthy'],
    ]);
    // Each metric's outages add up to its down minutes (no outages share a minute here).
    const doc = buildStatementDocument(input([timeline]));
    expect(strict.reduce((n, o) => n + o.minutes, 0)).toBe(doc.totals.down_minutes);
  });

  it('counts only the minutes outside qualifying maintenance and finance’s exclusions', () => {
    const doc = buildStatementDocument(
      input([confirmed], {
        maintenances: [
          {
            id: uuid(31),
            title: 'Upgrade',
            itemIds: [uuid(11)],
            start: d('2026-02-10T10:15:00Z'),
            end: d('2026-02-10T11:00:00Z'),
            announcedAt: d('2026-02-01T00:00:00Z'),
          },
        ],
        exclusions: [
          { id: uuid(32), justification: 'agreed', start: d('2026-02-10T10:10:00Z'), end: d('2026-02-10T10:12:00Z') },
        ],
      }),
    );
    expect(doc.services[0]?.metric_evidence?.[0]?.outages).toEqual([
      expect.objectContaining({ minutes: 10, counted_minutes: 3 }),
    ]);
    expect(doc.totals.down_minutes).toBe(3);
  });
});

describe('the outage ledger in the statement', () => {
  it('renders each outage with its confirmation, and a document drafted before issue 25 as it was', () => {
    const doc = buildStatementDocument(input([confirmed, atOnce]));
    const text = page(doc);
    expect(text).toContain('Outage ledger');
    expect(text).toContain(
      'API / check 1 10 Feb 2026, 10:10 UTC – 10 Feb 2026, 10:20 UTC unhealthy 10 10 Confirmed by 2 of 3 locations over 2 rounds: first failing round 10:10:00 UTC, confirmed 10:11:00 UTC failing: eu-central, us-east',
    );
    expect(text).toContain(
      'API / check 2 10 Feb 2026, 10:10 UTC – 10 Feb 2026, 10:20 UTC unhealthy 10 10 Counted at once: the flip recorded no confirmation.',
    );

    const quiet = page(buildStatementDocument(input([{ initial: 'healthy', changes: [] }])));
    expect(quiet).toContain('No covered metric was down in this period.');

    // Drafted before issue 25: no outages in its metric evidence; still valid, rendered without the ledger.
    const old = {
      ...doc,
      services: doc.services.map((s) => ({
        ...s,
        metric_evidence: s.metric_evidence?.map(({ outages: _o, ...m }) => m),
      })),
    };
    expect(statementDocumentSchema.safeParse(old).success).toBe(true);
    expect(page(old)).not.toContain('Outage ledger');
  });
});
