import { creditTermsSchema } from '../../src/domain/sla/credit-terms';
import { effectiveWindow, periodBounds, periodDue, previousPeriod } from '../../src/domain/sla/period';
import { type StatementInput, buildStatementDocument, statementDocumentSchema } from '../../src/domain/sla/statement';
import {
  STATEMENT_ACTIONS,
  STATEMENT_STATES,
  allowedFrom,
  creditStateOf,
  refuseTransition,
} from '../../src/domain/sla/transitions';
import { IDS, statementFixture, uuid } from '../support/sla-statement-fixture';

const d = (iso: string) => new Date(iso);

/** A one-service statement input in `zone` for `label`, the service down over `down`. */
function input(
  label: string,
  zone: string,
  o: Partial<StatementInput> & { down?: [string, string][]; terms?: object; currency?: string; fee?: number } = {},
): StatementInput {
  const period = periodBounds(label, zone);
  const changes = (o.down ?? []).flatMap(([from, to]) => [
    { at: d(from), status: 'unhealthy' as const },
    { at: d(to), status: 'healthy' as const },
  ]);
  return {
    statementId: uuid(1),
    revision: 1,
    supersedes: null,
    generatedAt: d('2027-01-01T00:00:00Z'),
    organization: { id: uuid(2), name: 'Org' },
    customer: { id: uuid(3), name: 'Customer', externalId: null },
    contract: {
      id: uuid(4),
      name: 'C',
      slaTargetPct: '99.9',
      currency: o.currency ?? 'EUR',
      monthlyFeeMinor: o.fee ?? 100_000,
      creditTerms: creditTermsSchema.parse(
        o.terms ?? {
          type: 'tiered',
          steps: [
            { below_pct: '99.99', credit_pct: '10' },
            { below_pct: '99', credit_pct: '30' },
          ],
          maintenance_notice_hours: 24,
        },
      ),
    },
    period,
    window: o.window ?? { start: period.start, end: period.end },
    tzDataVersion: '2025b',
    tzDataSource: 'intl-icu',
    services: [{ id: uuid(11), name: 'API', metrics: [{ initial: 'healthy', changes }] }],
    maintenances: o.maintenances ?? [],
    exclusions: o.exclusions ?? [],
    incidents: o.incidents ?? [],
  };
}

describe('the statement document', () => {
  it.each([
    ['2025-04', 'Australia/Lord_Howe', 43_230],
    ['2025-03', 'Europe/Berlin', 44_580],
    ['2026-04', 'Pacific/Auckland', 43_260],
    ['2026-09', 'Pacific/Auckland', 43_140],
    ['2026-03', 'America/St_Johns', 44_580],
    ['2026-11', 'America/St_Johns', 43_260],
    ['2026-02', 'UTC', 40_320],
  ])('%s in %s has %i minutes, never days × 1440', (label, zone, minutes) => {
    const doc = buildStatementDocument(input(label, zone));
    expect(doc.totals).toEqual({
      total_minutes: minutes,
      excluded_minutes: 0,
      eligible_minutes: minutes,
      down_minutes: 0,
    });
    expect(doc.attainment).toEqual({ numerator: String(minutes), denominator: String(minutes), percent: '100.0000' });
    expect(doc.credit.amount_minor).toBe(0);
    expect(doc.target_met).toBe(true);
  });

  it('tests tiers on the exact fraction: 99.9949 % is above 99.99 % and gives no credit; one more minute gives 10 %', () => {
    // 2026-02 UTC: 40,320 minutes; 2 down → 40,318/40,320 = 99.99504 %; 5 down → 99.98760 %.
    const two = buildStatementDocument(
      input('2026-02', 'UTC', { down: [['2026-02-10T00:00:00Z', '2026-02-10T00:02:00Z']] }),
    );
    expect(two.attainment.percent).toBe('99.9950');
    expect(two.credit.amount_minor).toBe(0);
    const five = buildStatementDocument(
      input('2026-02', 'UTC', { down: [['2026-02-10T00:00:00Z', '2026-02-10T00:05:00Z']] }),
    );
    expect(five.attainment.percent).toBe('99.9875');
    expect(five.credit).toMatchObject({ credit_pct: '10', amount_minor: 10_000 });
  });

  it("rounds money once in the currency's minor unit: JPY 0 decimals, KWD 3", () => {
    const terms = { type: 'proportional', multiplier: '10', maintenance_notice_hours: 0 };
    const down: [string, string][] = [['2026-02-10T00:00:00Z', '2026-02-10T01:00:00Z']]; // 60 of 40,320 minutes
    const jpy = buildStatementDocument(input('2026-02', 'UTC', { down, terms, currency: 'JPY', fee: 12_345 }));
    // 12,345 × 60/40,320 × 10 = 183.705… → 184 yen (half up)
    expect(jpy.credit.amount_minor).toBe(184);
    expect(jpy.contract.currency_exponent).toBe(0);
    const kwd = buildStatementDocument(
      input('2026-02', 'UTC', { down, terms: { ...terms, rounding: 'up' }, currency: 'KWD', fee: 12_345 }),
    );
    expect(kwd.contract.currency_exponent).toBe(3);
    expect(kwd.credit.amount_minor).toBe(184); // 183.705… fils rounded up
  });

  it('excludes maintenance announced at least the notice ahead, to the millisecond', () => {
    const window = { start: d('2026-02-10T02:00:00Z'), end: d('2026-02-10T03:00:00Z') };
    const exactly = buildStatementDocument(
      input('2026-02', 'UTC', {
        maintenances: [{ id: uuid(21), title: 'On time', ...window, announcedAt: d('2026-02-09T02:00:00Z') }],
      }),
    );
    expect(exactly.totals.excluded_minutes).toBe(60);
    expect(exactly.exclusions[0]).toMatchObject({ kind: 'maintenance', excluded: true });
    const late = buildStatementDocument(
      input('2026-02', 'UTC', {
        maintenances: [{ id: uuid(21), title: 'Late', ...window, announcedAt: d('2026-02-09T02:00:00.001Z') }],
      }),
    );
    expect(late.totals.excluded_minutes).toBe(0);
    expect(late.exclusions[0]).toMatchObject({ excluded: false });
    expect(late.exclusions[0]!.why).toMatch(/needs 24 h notice/);
  });

  it("clips to the contract's effective window and takes manual exclusions whatever the notice", () => {
    const period = periodBounds('2026-10', 'Europe/Berlin');
    const window = effectiveWindow(period, '2026-10-15', null)!;
    expect(window.start.toISOString()).toBe('2026-10-14T22:00:00.000Z');
    expect(effectiveWindow(period, '2026-11-01', null)).toBeNull();
    expect(effectiveWindow(period, '2025-01-01', '2026-09-30')).toBeNull();
    const doc = buildStatementDocument(
      input('2026-10', 'Europe/Berlin', {
        window,
        exclusions: [
          {
            id: uuid(23),
            justification: 'Agreed freeze',
            start: d('2026-10-20T00:00:00Z'),
            end: d('2026-10-20T00:30:00Z'),
          },
        ],
      }),
    );
    // 15–31 October: 17 days + the hour of 25 October.
    expect(doc.totals.total_minutes).toBe(17 * 1440 + 60);
    expect(doc.totals.excluded_minutes).toBe(30);
    expect(doc.exclusions[0]).toMatchObject({
      kind: 'manual',
      excluded: true,
      why: 'Excluded by finance: Agreed freeze',
    });
  });

  it('keeps an incident ledger: down minutes counted, or hidden by excluded maintenance', () => {
    const doc = statementFixture();
    const byId = Object.fromEntries(doc.incidents.map((i) => [i.id, i]));
    expect(byId[IDS.incidentCounted]).toMatchObject({ counted: true, down_minutes: 5 });
    expect(byId[IDS.incidentInMaintenance]).toMatchObject({ counted: false, down_minutes: 0 });
    expect(byId[IDS.incidentInMaintenance]!.why).toMatch(/inside excluded maintenance/);
    expect(byId[IDS.incidentDegraded]).toMatchObject({ counted: false });
    expect(byId[IDS.incidentOpen]!.end).toBeNull();
    expect(statementDocumentSchema.safeParse(doc).success).toBe(true);
    expect(statementDocumentSchema.safeParse({ ...doc, extra: 1 }).success).toBe(false);
  });

  it("names the period that ended before an instant, in the contract's zone", () => {
    expect(previousPeriod(d('2026-11-01T00:30:00Z'), 'Pacific/Auckland')).toBe('2026-10');
    expect(previousPeriod(d('2026-11-01T00:30:00Z'), 'America/St_Johns')).toBe('2026-09');
    expect(previousPeriod(d('2026-01-02T00:00:00Z'), 'UTC')).toBe('2025-12');
  });
});

describe('statement transitions', () => {
  const facts = (state: (typeof STATEMENT_STATES)[number]) => ({
    state,
    revision: 2,
    sha256: 'a'.repeat(64),
    submittedBy: 'key-1',
  });

  it.each(STATEMENT_ACTIONS.flatMap((action) => STATEMENT_STATES.map((state) => [action, state] as const)))(
    '%s from %s',
    (action, state) => {
      const refusal = refuseTransition(facts(state), { action, actor: 'key-2', revision: 2, sha256: 'a'.repeat(64) });
      expect(refusal?.token ?? 'ok').toBe(allowedFrom(action).includes(state) ? 'ok' : 'invalid_transition');
    },
  );

  it('refuses a stale approval and a self-approval', () => {
    expect(
      refuseTransition(facts('in_review'), { action: 'approve', actor: 'key-2', revision: 1, sha256: 'a'.repeat(64) })
        ?.token,
    ).toBe('stale_revision');
    expect(
      refuseTransition(facts('in_review'), { action: 'approve', actor: 'key-2', revision: 2, sha256: 'b'.repeat(64) })
        ?.token,
    ).toBe('stale_revision');
    expect(
      refuseTransition(facts('in_review'), { action: 'approve', actor: 'key-1', revision: 2, sha256: 'A'.repeat(64) })
        ?.token,
    ).toBe('approver_is_submitter');
    expect(
      refuseTransition(facts('in_review'), { action: 'approve', actor: 'key-2', revision: 2, sha256: 'A'.repeat(64) }),
    ).toBeNull();
  });

  it('gives the credit state of each statement state', () => {
    expect(
      ['draft', 'in_review', 'approved', 'delivered', 'superseded', 'void'].map((s) => creditStateOf(s as never, 5)),
    ).toEqual(['pending', 'pending', 'approved', 'issued', 'superseded', 'void']);
    expect(creditStateOf('delivered', 0)).toBe('none');
  });
});

describe('the period a schedule run is due for', () => {
  it('counts the grace in wall-clock hours, so a DST change inside it keeps the right month', () => {
    // Sydney: DST starts 2023-10-01 02:00; a 48 h grace fires at 2023-10-03 00:00 local (2023-10-02T13:00Z).
    expect(periodDue(d('2023-10-02T13:00:00Z'), 'Australia/Sydney', 48)).toBe('2023-09');
    // Santiago: DST starts at local midnight (2023-09-03); a 24 h grace from 2023-10-01 fires 2023-10-02 00:00 local.
    expect(periodDue(d('2023-10-02T03:00:00Z'), 'America/Santiago', 24)).toBe('2023-09');
    expect(periodDue(d('2026-11-03T00:00:00Z'), 'UTC', 48)).toBe('2026-10');
    // Fired early by hand (1 h before the grace is over): still the month before.
    expect(periodDue(d('2026-11-02T23:00:00Z'), 'UTC', 48)).toBe('2026-09');
  });
});

describe('maintenance of one covered item', () => {
  it("excludes that item's minutes only: another item's outage meanwhile counts", () => {
    const base = input('2026-02', 'UTC');
    const db = {
      id: uuid(12),
      name: 'DB',
      metrics: [
        {
          initial: 'healthy' as const,
          changes: [
            { at: d('2026-02-10T02:00:00Z'), status: 'unhealthy' as const },
            { at: d('2026-02-10T03:00:00Z'), status: 'healthy' as const },
          ],
        },
      ],
    };
    const api = {
      id: uuid(11),
      name: 'API',
      metrics: [
        {
          initial: 'healthy' as const,
          changes: [
            { at: d('2026-02-10T02:30:00Z'), status: 'unhealthy' as const },
            { at: d('2026-02-10T02:40:00Z'), status: 'healthy' as const },
          ],
        },
      ],
    };
    const maintenance = {
      id: uuid(21),
      title: 'DB upgrade',
      itemIds: [db.id],
      start: d('2026-02-10T02:00:00Z'),
      end: d('2026-02-10T03:00:00Z'),
      announcedAt: d('2026-02-01T00:00:00Z'),
    };
    const doc = buildStatementDocument({ ...base, services: [api, db], maintenances: [maintenance] });
    // 60 minutes in the window; 10 of them the API was down: those count, the other 50 are excluded.
    expect(doc.totals).toMatchObject({ excluded_minutes: 50, down_minutes: 10, eligible_minutes: 40_320 - 50 });
    expect(doc.services.find((s) => s.id === db.id)).toMatchObject({ excluded_minutes: 60, down_minutes: 0 });
    expect(doc.services.find((s) => s.id === api.id)).toMatchObject({ excluded_minutes: 0, down_minutes: 10 });
    expect(doc.exclusions[0]).toMatchObject({ applies_to: [db.id], excluded: true });
  });
});
