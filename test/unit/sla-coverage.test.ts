import { creditTermsSchema } from '../../src/domain/sla/credit-terms';
import { countDowntime, type ServiceTimeline } from '../../src/domain/sla/downtime';
import { periodBounds } from '../../src/domain/sla/period';
import {
  type CoveredService,
  type StatementInput,
  buildStatementDocument,
  statementDocumentSchema,
} from '../../src/domain/sla/statement';
import { uuid } from '../support/sla-statement-fixture';

/**
 * What a statement counts when evidence is missing. 2026-02 in UTC has 40,320 minutes.
 */
const d = (iso: string) => new Date(iso);
const FEB = periodBounds('2026-02', 'UTC');
const TERMS = {
  type: 'tiered',
  steps: [
    { below_pct: '99.99', credit_pct: '10' },
    { below_pct: '99', credit_pct: '30' },
  ],
  maintenance_notice_hours: 24,
};

function input(
  services: CoveredService[],
  terms: object = TERMS,
  previous?: StatementInput['previous'],
): StatementInput {
  return {
    statementId: uuid(1),
    revision: previous ? previous.revision + 1 : 1,
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
      creditTerms: creditTermsSchema.parse(terms),
    },
    period: FEB,
    window: { start: FEB.start, end: FEB.end },
    tzDataVersion: '2025b',
    tzDataSource: 'intl-icu',
    services,
    maintenances: [],
    exclusions: [],
    incidents: [],
    previous: previous ?? null,
  };
}

/** Healthy all month except a measurement gap (no_data) of `gapMinutes` from 10 Feb. */
const withGap = (gapMinutes: number): ServiceTimeline => ({
  initial: 'healthy',
  changes: [
    { at: d('2026-02-10T00:00:00Z'), status: 'no_data' },
    { at: new Date(d('2026-02-10T00:00:00Z').getTime() + gapMinutes * 60_000), status: 'healthy' },
  ],
});

describe('coverage: minutes with a measured status and minutes without', () => {
  it('counts a measurement gap as unmeasured, never down by default, and warns below min_coverage_pct', () => {
    // 1,000 of 40,320 minutes unmeasured: 97.5198 % < 99 %.
    const doc = buildStatementDocument(input([{ id: uuid(11), name: 'API', metrics: [withGap(1_000)] }]));
    expect(doc.totals).toEqual({
      total_minutes: 40_320,
      excluded_minutes: 0,
      eligible_minutes: 40_320,
      down_minutes: 0,
    });
    expect(doc.services[0]).toMatchObject({ measured_minutes: 39_320, unmeasured_minutes: 1_000 });
    expect(doc.coverage).toEqual({
      measured_minutes: 39_320,
      unmeasured_minutes: 1_000,
      coverage_pct: '97.5198',
      min_coverage_pct: '99',
      no_data_counts_as: 'up',
      sufficient: false,
      warning: expect.stringContaining("below the contract's 99%"),
    });
    const small = buildStatementDocument(input([{ id: uuid(11), name: 'API', metrics: [withGap(100)] }]));
    expect(small.coverage).toMatchObject({ unmeasured_minutes: 100, sufficient: true, warning: null });
  });

  it('never claims 100 % measured for a service with no metric: the whole window is a gap', () => {
    const doc = buildStatementDocument(input([{ id: uuid(11), name: 'API', metrics: [] }]));
    expect(doc.coverage).toMatchObject({
      measured_minutes: 0,
      unmeasured_minutes: 40_320,
      coverage_pct: '0.0000',
      sufficient: false,
    });
    expect(doc.coverage?.warning).toMatch(/Insufficient evidence/);
  });

  it('measures the contract only when every covered item is measured; an item is measured when one of its metrics is', () => {
    const healthy: ServiceTimeline = { initial: 'healthy', changes: [] };
    const doc = buildStatementDocument(
      input([
        { id: uuid(11), name: 'API', metrics: [healthy, withGap(500)] }, // another metric measures the gap
        { id: uuid(12), name: 'DB', metrics: [withGap(300)] },
      ]),
    );
    expect(doc.services.map((s) => s.unmeasured_minutes)).toEqual([0, 300]);
    expect(doc.coverage?.unmeasured_minutes).toBe(300);
  });

  it('applies no_data_counts_as: down makes gap minutes down, excluded takes them out of the eligible minutes', () => {
    const services = [{ id: uuid(11), name: 'API', metrics: [withGap(60)] }];
    const down = buildStatementDocument(input(services, { ...TERMS, no_data_counts_as: 'down' }));
    expect(down.totals).toMatchObject({ excluded_minutes: 0, eligible_minutes: 40_320, down_minutes: 60 });
    expect(down.credit.credit_pct).toBe('10');
    const excluded = buildStatementDocument(input(services, { ...TERMS, no_data_counts_as: 'excluded' }));
    expect(excluded.totals).toMatchObject({ excluded_minutes: 60, eligible_minutes: 40_260, down_minutes: 0 });
    expect(excluded.coverage?.no_data_counts_as).toBe('excluded');
    const up = buildStatementDocument(input(services));
    expect(up.totals).toMatchObject({ excluded_minutes: 0, down_minutes: 0 });
  });

  it('lets min_coverage_pct "0" turn the check off and refuses values above 100', () => {
    const doc = buildStatementDocument(
      input([{ id: uuid(11), name: 'API', metrics: [] }], { ...TERMS, min_coverage_pct: '0' }),
    );
    expect(doc.coverage).toMatchObject({ sufficient: true, warning: null });
    expect(creditTermsSchema.safeParse({ ...TERMS, min_coverage_pct: '100.5' }).success).toBe(false);
    expect(creditTermsSchema.safeParse({ ...TERMS, no_data_counts_as: 'maybe' }).success).toBe(false);
  });

  it('counts gaps in countDowntime only as given, clipped to the period', () => {
    const counted = countDowntime({
      services: [{ initial: 'healthy', changes: [] }],
      period: FEB,
      maintenances: [],
      terms: { count_degraded_as_down: false, maintenance_notice_hours: 0, no_data_counts_as: 'excluded' },
      gaps: [{ start: d('2026-01-31T23:00:00Z'), end: d('2026-02-01T00:10:30Z') }],
    });
    expect(counted).toEqual({
      totalMinutes: 40_320,
      excludedMinutes: 10,
      eligibleMinutes: 40_310,
      downMinutes: 0,
      unmeasuredMinutes: 10,
    });
  });
});

describe('per-metric evidence and corrections', () => {
  it("lists where each metric's evidence came from", () => {
    const doc = buildStatementDocument(
      input([
        {
          id: uuid(11),
          name: 'API',
          metrics: [{ initial: 'healthy', changes: [] }],
          metricEvidence: [
            {
              metricId: uuid(21),
              name: 'latency',
              countedFrom: d('2025-12-01T00:00:00Z'),
              samples: 100,
              importedSamples: 40,
              importedMinutes: 40,
              lateSamples: 3,
            },
          ],
        },
      ]),
    );
    expect(doc.services[0]?.metric_evidence).toEqual([
      {
        metric_id: uuid(21),
        name: 'latency',
        counted_from: '2025-12-01T00:00:00.000Z',
        samples: 100,
        imported_samples: 40,
        imported_minutes: 40,
        late_samples: 3,
        outages: [],
      },
    ]);
  });

  it('says what a correction changed from the revision it supersedes', () => {
    const first = buildStatementDocument(
      input([{ id: uuid(11), name: 'API', metrics: [{ initial: 'healthy', changes: [] }] }]),
    );
    expect(first.correction).toBeNull();
    const late: ServiceTimeline = {
      initial: 'healthy',
      changes: [
        { at: d('2026-02-10T00:00:00Z'), status: 'unhealthy' },
        { at: d('2026-02-10T00:05:00Z'), status: 'healthy' },
      ],
    };
    const second = buildStatementDocument(input([{ id: uuid(11), name: 'API', metrics: [late] }], TERMS, first));
    expect(second.correction?.summary).toBe(
      'Corrects revision 1: down minutes 0 → 5, credit 0 → 10000 minor units; 3 other changes listed.',
    );
    expect(second.correction?.changes).toEqual(
      expect.arrayContaining([
        { field: 'totals.down_minutes', before: '0', after: '5' },
        { field: 'attainment.percent', before: '100.0000', after: '99.9875' },
        { field: `services.${uuid(11)}.down_minutes`, before: '0', after: '5' },
      ]),
    );
  });

  it('still parses a document drafted before these fields existed', () => {
    const doc = buildStatementDocument(
      input([{ id: uuid(11), name: 'API', metrics: [{ initial: 'healthy', changes: [] }] }]),
    );
    const { coverage: _c, correction: _r, ...old } = doc;
    const oldServices = old.services.map(
      ({ measured_minutes: _m, unmeasured_minutes: _u, metric_evidence: _e, ...s }) => s,
    );
    const { no_data_counts_as: _n, min_coverage_pct: _p, ...oldTerms } = old.contract.credit_terms;
    expect(
      statementDocumentSchema.safeParse({
        ...old,
        services: oldServices,
        contract: { ...old.contract, credit_terms: oldTerms },
      }).success,
    ).toBe(true);
  });
});
