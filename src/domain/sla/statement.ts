/**
 * The SLA statement document: what is computed for one contract and period, signed
 * and delivered. Pure: the caller reads the evidence (status timelines, maintenances, manual
 * exclusions, incidents) and this builds the document, validated by `statementDocumentSchema`,
 * which `canonicalStatement` (src/crypto/statement-signing.ts) turns into the signed bytes.
 *
 * - The contract is down in a minute when any covered service is (worst-of across every metric
 *   of every covered service, countDowntime's rules); each service's own minutes are shown too.
 * - Exclusions: scheduled maintenance, excluded when announced at least the terms' notice ahead
 *   of its start, for the covered items it concerns only (another item's outage meanwhile still
 *   counts); and manual exclusions finance adds with a justification (always, for every item).
 * - The incident ledger: every incident on a covered service overlapping the period, with the
 *   down minutes during it and whether they counted (outside every exclusion) or not, and why.
 * - Instants are ISO 8601 UTC strings with milliseconds; money is an integer of minor units.
 * - `attainment_min` is the attainment over eligible minutes as a percentage rounded toward zero
 *   at 4 places; `attainment.numerator`/`denominator` keep the exact fraction.
 * - Evidence gaps (additive fields; documents drafted before them still parse, the schema id stays
 *   v1 and the signed bytes are never re-derived): each covered item's `measured_minutes` and
 *   `unmeasured_minutes` and per metric where its evidence came from (`metric_evidence`: samples,
 *   imported samples and minutes, samples that arrived after the period ended); `coverage` for the
 *   whole contract (coverage.ts) with a `warning` below the terms' `min_coverage_pct`; and on a
 *   correction, `correction`: what changed from the revision it supersedes.
 * - Confirmation across locations (additive, likewise): each metric evidence entry lists the metric's `outages`
 *   in the window (outages.ts): from, to, minutes, and `confirmed_by` — how many locations
 *   confirmed it over how many rounds, from the first failing round (where the outage starts)
 *   to the confirming one; null when the flip recorded no votes (counted at once).
 */
import { z } from 'zod';
import { attainment as exactAttainment, compareWithPercent, formatPercent } from './attainment';
import { type CreditTerms, creditTermsSchema } from './credit-terms';
import { computeCredit } from './credit';
import { currencyExponent } from './currency';
import { DECIMAL_PATTERN } from './decimal';
import { contractGaps, coverageVerdict, itemGaps } from './coverage';
import { type MaintenanceWindow, type ServiceTimeline, type Span, countDowntime } from './downtime';
import { type EvidencedTimeline, metricOutages } from './outages';
import type { PeriodBounds } from './period';

export const STATEMENT_SCHEMA_ID = 'vigil.sla_statement.v1';
export const ATTAINMENT_DECIMALS = 4;

const iso = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/, 'Expected an ISO 8601 UTC instant with milliseconds');
const minutes = z.int().min(0);
const decimal = z.string().regex(DECIMAL_PATTERN);

const minuteCounts = {
  total_minutes: minutes,
  excluded_minutes: minutes,
  eligible_minutes: minutes,
  down_minutes: minutes,
};

const outageSchema = z.strictObject({
  from: iso,
  to: iso,
  /** Minutes of the window the outage touches. */
  minutes,
  /** Of those, the ones outside qualifying maintenance and finance's exclusions. */
  counted_minutes: minutes,
  status: z.enum(['degraded', 'unhealthy']),
  reason: z.string().nullable(),
  /** Null: the flip recorded no votes (stored before confirmation existed or rebuilt from an import), counted at once. */
  confirmed_by: z
    .strictObject({
      locations_failing: minutes,
      locations_voting: minutes,
      rounds: z.int().min(1),
      first_failing_at: iso,
      confirmed_at: iso,
      failing_locations: z.array(z.string()),
    })
    .nullable(),
});

const metricEvidenceSchema = z.strictObject({
  metric_id: z.uuid(),
  name: z.string(),
  /** Its first stored sample or its creation, whichever is earlier. */
  counted_from: iso,
  /** Samples stamped within the statement window. */
  samples: minutes,
  imported_samples: minutes,
  /** Minutes of the window holding at least one imported sample. */
  imported_minutes: minutes,
  /** Samples of the window the service received after the period ended. */
  late_samples: minutes,
  /** The metric's down spans in the window, each with how its flip was confirmed. */
  outages: z.array(outageSchema).optional(),
});

const coverageSchema = z.strictObject({
  measured_minutes: minutes,
  unmeasured_minutes: minutes,
  coverage_pct: decimal,
  min_coverage_pct: decimal,
  no_data_counts_as: z.enum(['up', 'down', 'excluded']),
  sufficient: z.boolean(),
  warning: z.string().nullable(),
});

const correctionSchema = z.strictObject({
  summary: z.string(),
  changes: z.array(z.strictObject({ field: z.string(), before: z.string(), after: z.string() })),
});

export const statementDocumentSchema = z.strictObject({
  schema: z.literal(STATEMENT_SCHEMA_ID),
  statement_id: z.uuid(),
  revision: z.int().min(1),
  supersedes: z
    .strictObject({ statement_id: z.uuid(), revision: z.int().min(1), sha256: z.string().regex(/^[0-9a-f]{64}$/) })
    .nullable(),
  generated_at: iso,
  organization: z.strictObject({ id: z.uuid(), name: z.string() }),
  customer: z.strictObject({ id: z.uuid(), name: z.string(), external_id: z.string().nullable() }),
  contract: z.strictObject({
    id: z.uuid(),
    name: z.string(),
    sla_target_pct: decimal,
    currency: z.string().regex(/^[A-Z]{3}$/),
    currency_exponent: z.int().min(0),
    monthly_fee_minor: z.int().min(0),
    credit_terms: creditTermsSchema,
  }),
  period: z.strictObject({
    label: z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/),
    timezone: z.string(),
    start: iso,
    end: iso,
    tz_data_version: z.string(),
    tz_data_source: z.string(),
  }),
  /** The covered items: services, and SLOs (an SLO covers its metric, or every metric of its service). */
  services: z
    .array(
      z.strictObject({
        id: z.uuid(),
        kind: z.enum(['service', 'slo']),
        name: z.string(),
        metrics: z.int().min(0),
        ...minuteCounts,
        measured_minutes: minutes.optional(),
        unmeasured_minutes: minutes.optional(),
        metric_evidence: z.array(metricEvidenceSchema).optional(),
      }),
    )
    .min(1),
  exclusions: z.array(
    z.strictObject({
      kind: z.enum(['maintenance', 'manual']),
      id: z.uuid(),
      title: z.string(),
      start: iso,
      end: iso,
      announced_at: iso.nullable(),
      excluded: z.boolean(),
      /** The covered items (services, SLOs) it excludes minutes of; null: all. */
      applies_to: z.array(z.uuid()).nullable(),
      why: z.string(),
    }),
  ),
  incidents: z.array(
    z.strictObject({
      id: z.uuid(),
      title: z.string(),
      severity: z.string().nullable(),
      start: iso,
      end: iso.nullable(),
      down_minutes: minutes,
      counted: z.boolean(),
      why: z.string(),
    }),
  ),
  totals: z.strictObject(minuteCounts),
  attainment: z.strictObject({
    numerator: z.string().regex(/^\d+$/),
    denominator: z.string().regex(/^[1-9]\d*$/),
    percent: decimal,
  }),
  target_met: z.boolean(),
  credit: z.strictObject({
    credit_pct: decimal,
    amount_minor: z.int().min(0),
    capped: z.boolean(),
    minimum_applied: z.boolean(),
    rounding: z.enum(['half_up', 'up']),
  }),
  coverage: coverageSchema.optional(),
  correction: correctionSchema.nullable().optional(),
});
export type StatementDocument = z.output<typeof statementDocumentSchema>;

export interface CoveredService {
  id: string;
  /** A service, or an SLO standing for its metric or service. */
  kind?: 'service' | 'slo';
  name: string;
  /** One timeline per metric of the service (a service without metrics has none); changes may carry their flip's evidence. */
  metrics: readonly EvidencedTimeline[];
  /** Where each metric's evidence came from, in the order of `metrics`. */
  metricEvidence?: readonly MetricEvidence[];
}

export interface MetricEvidence {
  metricId: string;
  name: string;
  countedFrom: Date;
  samples: number;
  importedSamples: number;
  importedMinutes: number;
  lateSamples: number;
}

export interface MaintenanceEvidence {
  id: string;
  title: string;
  /** The covered items (services, SLOs) it concerns; undefined: all of them. */
  itemIds?: readonly string[];
  /** The window it excludes: as announced and as run (the caller passes the overlap of the two). */
  start: Date;
  end: Date;
  announcedAt: Date;
}

export interface ManualExclusion {
  id: string;
  justification: string;
  start: Date;
  end: Date;
}

export interface IncidentEvidence {
  id: string;
  title: string;
  severity: string | null;
  start: Date;
  /** Null while the incident is unresolved. */
  end: Date | null;
}

export interface StatementInput {
  statementId: string;
  revision: number;
  supersedes: StatementDocument['supersedes'];
  generatedAt: Date;
  organization: { id: string; name: string };
  customer: { id: string; name: string; externalId: string | null };
  contract: {
    id: string;
    name: string;
    slaTargetPct: string;
    currency: string;
    monthlyFeeMinor: number;
    creditTerms: CreditTerms;
  };
  period: PeriodBounds;
  /** The part of the period the contract is in effect (equal to the period unless it starts or ends within it). */
  window: { start: Date; end: Date };
  tzDataVersion: string;
  tzDataSource: string;
  services: readonly CoveredService[];
  maintenances: readonly MaintenanceEvidence[];
  exclusions: readonly ManualExclusion[];
  incidents: readonly IncidentEvidence[];
  /** The revision a correction supersedes: the document says what changed from it. */
  previous?: StatementDocument | null;
}

const HOUR_MS = 3_600_000;
const NO_METRICS: ServiceTimeline = { initial: 'no_data', changes: [] };

function isoOf(date: Date): string {
  return date.toISOString();
}

function clip(date: Date, window: { start: Date; end: Date }): Date {
  return new Date(Math.min(Math.max(date.getTime(), window.start.getTime()), window.end.getTime()));
}

const windowOf = (m: MaintenanceEvidence): MaintenanceWindow => ({
  start: m.start,
  end: m.end,
  announcedAt: m.announcedAt,
});

/** Windows for every covered item: maintenances naming no item, and finance's exclusions (whatever the notice). */
function sharedWindows(input: StatementInput): MaintenanceWindow[] {
  const notice = input.contract.creditTerms.maintenance_notice_hours;
  return [
    ...input.maintenances.filter((m) => m.itemIds === undefined).map(windowOf),
    // Announced exactly the notice ahead: qualifies under any notice rule.
    ...input.exclusions.map((e) => ({
      start: e.start,
      end: e.end,
      announcedAt: new Date(e.start.getTime() - notice * HOUR_MS),
    })),
  ];
}

/** Each metric's timeline with the maintenances of its covered item (none when `withMaintenance` is false). */
function timelinesOf(
  items: readonly CoveredService[],
  input: StatementInput,
  withMaintenance: boolean,
): ServiceTimeline[] {
  return items.flatMap((item) => {
    const own = withMaintenance ? input.maintenances.filter((m) => m.itemIds?.includes(item.id)).map(windowOf) : [];
    return item.metrics.map((t) => ({ ...t, maintenances: own }));
  });
}

/** The spans of the window in which one of the items has no measured status. */
function gapsOf(items: readonly CoveredService[], input: StatementInput): Span[] {
  const start = input.window.start.getTime();
  const end = input.window.end.getTime();
  return items.length === 1
    ? itemGaps((items[0] as CoveredService).metrics, start, end)
    : contractGaps(
        items.map((i) => i.metrics),
        start,
        end,
      );
}

function minutesOf(
  items: readonly CoveredService[],
  input: StatementInput,
  withMaintenance = true,
  span = input.window,
) {
  const terms = input.contract.creditTerms;
  const timelines = timelinesOf(items, input, withMaintenance);
  const gaps = gapsOf(items, input).map((g) => ({ start: new Date(g.start), end: new Date(g.end) }));
  const counted = countDowntime({
    services: timelines.length ? timelines : [NO_METRICS],
    period: span,
    maintenances: withMaintenance ? sharedWindows(input) : [],
    terms,
    gaps,
  });
  return {
    total_minutes: counted.totalMinutes,
    excluded_minutes: counted.excludedMinutes,
    eligible_minutes: counted.eligibleMinutes,
    down_minutes: counted.downMinutes,
    unmeasured_minutes: counted.unmeasuredMinutes,
  };
}

const minuteCountsOf = ({ unmeasured_minutes: _u, ...counts }: ReturnType<typeof minutesOf>) => counts;

function metricEvidenceOf(
  item: CoveredService,
  input: StatementInput,
): StatementDocument['services'][number]['metric_evidence'] {
  const outageContext = {
    window: input.window,
    terms: input.contract.creditTerms,
    shared: sharedWindows(input),
    own: input.maintenances.filter((m) => m.itemIds?.includes(item.id)).map(windowOf),
  };
  return item.metricEvidence?.map((m, i) => ({
    metric_id: m.metricId,
    name: m.name,
    counted_from: isoOf(m.countedFrom),
    samples: m.samples,
    imported_samples: m.importedSamples,
    imported_minutes: m.importedMinutes,
    late_samples: m.lateSamples,
    outages: item.metrics[i] ? metricOutages(item.metrics[i], outageContext) : [],
  }));
}

/** What a correction changed from the revision it supersedes, in words and field by field. */
export function correctionOf(
  previous: StatementDocument,
  next: Pick<StatementDocument, 'totals' | 'attainment' | 'credit' | 'services' | 'coverage' | 'exclusions'>,
): NonNullable<StatementDocument['correction']> {
  const changes: { field: string; before: string; after: string }[] = [];
  const note = (field: string, before: unknown, after: unknown) => {
    const b = before === undefined ? '' : String(before);
    const a = after === undefined ? '' : String(after);
    if (b !== a) changes.push({ field, before: b, after: a });
  };
  for (const k of ['total_minutes', 'excluded_minutes', 'eligible_minutes', 'down_minutes'] as const)
    note(`totals.${k}`, previous.totals[k], next.totals[k]);
  note('attainment.percent', previous.attainment.percent, next.attainment.percent);
  note('credit.credit_pct', previous.credit.credit_pct, next.credit.credit_pct);
  note('credit.amount_minor', previous.credit.amount_minor, next.credit.amount_minor);
  note('coverage.measured_minutes', previous.coverage?.measured_minutes, next.coverage?.measured_minutes);
  note('exclusions', previous.exclusions.length, next.exclusions.length);
  for (const s of next.services) {
    const before = previous.services.find((p) => p.id === s.id);
    note(`services.${s.id}.down_minutes`, before?.down_minutes, s.down_minutes);
    note(`services.${s.id}.metrics`, before?.metrics, s.metrics);
    const late = (x: typeof s | undefined) => (x?.metric_evidence ?? []).reduce((n, m) => n + m.late_samples, 0);
    const imported = (x: typeof s | undefined) =>
      (x?.metric_evidence ?? []).reduce((n, m) => n + m.imported_samples, 0);
    note(`services.${s.id}.late_samples`, before ? late(before) : undefined, late(s));
    note(`services.${s.id}.imported_samples`, before ? imported(before) : undefined, imported(s));
  }
  const down = changes.find((c) => c.field === 'totals.down_minutes');
  const credit = changes.find((c) => c.field === 'credit.amount_minor');
  const parts = [
    down ? `down minutes ${down.before} → ${down.after}` : 'down minutes unchanged',
    credit ? `credit ${credit.before} → ${credit.after} minor units` : 'credit unchanged',
  ];
  const rest = changes.length - (down ? 1 : 0) - (credit ? 1 : 0);
  return {
    summary: `Corrects revision ${previous.revision}: ${parts.join(', ')}${rest > 0 ? `; ${rest} other change${rest > 1 ? 's' : ''} listed` : ''}.`,
    changes,
  };
}

/** The minute-aligned part of [start, end) within the window, or null when it holds no whole minute. */
function minuteSpan(start: Date, end: Date, window: { start: Date; end: Date }): { start: Date; end: Date } | null {
  const base = window.start.getTime();
  const s = clip(start, window).getTime();
  const e = clip(end, window).getTime();
  const first = base + Math.floor((s - base) / 60_000) * 60_000;
  const last = base + Math.ceil((e - base) / 60_000) * 60_000;
  return last > first ? { start: new Date(first), end: new Date(Math.min(last, window.end.getTime())) } : null;
}

export function buildStatementDocument(input: StatementInput): StatementDocument {
  const terms = input.contract.creditTerms;
  const services = input.services.map((s) => {
    const counted = minutesOf([s], input);
    const evidence = metricEvidenceOf(s, input);
    return {
      id: s.id,
      kind: s.kind ?? 'service',
      name: s.name,
      metrics: s.metrics.length,
      ...minuteCountsOf(counted),
      measured_minutes: counted.total_minutes - counted.unmeasured_minutes,
      unmeasured_minutes: counted.unmeasured_minutes,
      ...(evidence ? { metric_evidence: evidence } : {}),
    };
  });
  const all = minutesOf(input.services, input);
  const totals = minuteCountsOf(all);
  const verdict = coverageVerdict(all.total_minutes, all.unmeasured_minutes, terms.min_coverage_pct ?? '99');
  const coverage = {
    measured_minutes: all.total_minutes - all.unmeasured_minutes,
    unmeasured_minutes: all.unmeasured_minutes,
    coverage_pct: verdict.coverage_pct,
    min_coverage_pct: terms.min_coverage_pct ?? '99',
    no_data_counts_as: terms.no_data_counts_as ?? 'up',
    sufficient: verdict.sufficient,
    warning: verdict.sufficient
      ? null
      : `Insufficient evidence: a status was measured in ${verdict.coverage_pct}% of the minutes (${all.unmeasured_minutes} of ${all.total_minutes} minutes without one), below the contract's ${terms.min_coverage_pct ?? '99'}%; those minutes count as ${terms.no_data_counts_as ?? 'up'}.`,
  };

  const exclusions: StatementDocument['exclusions'] = [
    ...input.maintenances.map((m) => {
      const noticeHours = (m.start.getTime() - m.announcedAt.getTime()) / HOUR_MS;
      const excluded = noticeHours >= terms.maintenance_notice_hours;
      const shown = Math.floor(Math.max(0, noticeHours) * 10) / 10;
      return {
        kind: 'maintenance' as const,
        id: m.id,
        title: m.title,
        start: isoOf(m.start),
        end: isoOf(m.end),
        announced_at: isoOf(m.announcedAt),
        excluded,
        applies_to: m.itemIds ? [...m.itemIds] : null,
        why: excluded
          ? `Announced ${shown} h before it started; the contract excludes maintenance announced at least ${terms.maintenance_notice_hours} h ahead.`
          : `Announced only ${shown} h before it started; the contract needs ${terms.maintenance_notice_hours} h notice, so its minutes stay eligible.`,
      };
    }),
    ...input.exclusions.map((e) => ({
      kind: 'manual' as const,
      id: e.id,
      title: e.justification,
      start: isoOf(e.start),
      end: isoOf(e.end),
      announced_at: null,
      excluded: true,
      applies_to: null,
      why: `Excluded by finance: ${e.justification}`,
    })),
  ].sort((a, b) => a.start.localeCompare(b.start) || a.id.localeCompare(b.id));

  const incidents = input.incidents
    .map((i) => {
      const span = minuteSpan(i.start, i.end ?? input.window.end, input.window);
      const during = span ? minuteCountsOf(minutesOf(input.services, input, true, span)) : null;
      const all = span ? minutesOf(input.services, input, false, span) : null;
      const down = during?.down_minutes ?? 0;
      const hidden = (all?.down_minutes ?? 0) - down;
      let why: string;
      if (!span) why = 'Outside the statement window.';
      else if (down > 0 && hidden > 0)
        why = `${down} down minutes counted; ${hidden} fell inside excluded maintenance.`;
      else if (down > 0) why = `${down} down minutes counted.`;
      else if (hidden > 0) why = `All ${hidden} down minutes fell inside excluded maintenance.`;
      else why = 'The covered services were not down during the incident.';
      return {
        id: i.id,
        title: i.title,
        severity: i.severity,
        start: isoOf(i.start),
        end: i.end ? isoOf(i.end) : null,
        down_minutes: down,
        counted: down > 0,
        why,
      };
    })
    .sort((a, b) => a.start.localeCompare(b.start) || a.id.localeCompare(b.id));

  const fraction = exactAttainment(totals.eligible_minutes, totals.down_minutes);
  const credit = computeCredit(
    terms,
    input.contract.monthlyFeeMinor,
    input.contract.currency,
    fraction,
    totals.eligible_minutes,
    totals.down_minutes,
  );

  return statementDocumentSchema.parse({
    schema: STATEMENT_SCHEMA_ID,
    statement_id: input.statementId,
    revision: input.revision,
    supersedes: input.supersedes,
    generated_at: isoOf(input.generatedAt),
    organization: input.organization,
    customer: { id: input.customer.id, name: input.customer.name, external_id: input.customer.externalId },
    contract: {
      id: input.contract.id,
      name: input.contract.name,
      sla_target_pct: input.contract.slaTargetPct,
      currency: input.contract.currency,
      currency_exponent: currencyExponent(input.contract.currency),
      monthly_fee_minor: input.contract.monthlyFeeMinor,
      credit_terms: terms,
    },
    period: {
      label: input.period.label,
      timezone: input.period.timeZone,
      start: isoOf(input.period.start),
      end: isoOf(input.period.end),
      tz_data_version: input.tzDataVersion,
      tz_data_source: input.tzDataSource,
    },
    services,
    exclusions,
    incidents,
    totals,
    attainment: {
      numerator: fraction.numerator.toString(),
      denominator: fraction.denominator.toString(),
      percent: formatPercent(fraction, ATTAINMENT_DECIMALS),
    },
    target_met: compareWithPercent(fraction, input.contract.slaTargetPct) >= 0,
    credit: {
      credit_pct: credit.creditPct,
      amount_minor: credit.creditAmountMinor,
      capped: credit.capped,
      minimum_applied: credit.minimumApplied,
      rounding: terms.rounding,
    },
    coverage,
    correction: input.previous
      ? correctionOf(input.previous, {
          totals,
          attainment: {
            numerator: fraction.numerator.toString(),
            denominator: fraction.denominator.toString(),
            percent: formatPercent(fraction, ATTAINMENT_DECIMALS),
          },
          credit: {
            credit_pct: credit.creditPct,
            amount_minor: credit.creditAmountMinor,
            capped: credit.capped,
            minimum_applied: credit.minimumApplied,
            rounding: terms.rounding,
          },
          services,
          coverage,
          exclusions,
        })
      : null,
  });
}
