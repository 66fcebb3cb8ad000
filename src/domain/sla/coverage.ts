/**
 * Coverage of a statement: the minutes with a measured status and those without.
 *
 * A covered item (a service, or an SLO's metric or service) is measured at an instant when the
 * worst status of its metrics is measured (not `no_data`): its status is known, as its status page
 * shows it. An item without metrics is never measured ("no metric yet"). The contract is measured
 * only when every covered item is: a minute in which one item was unmeasured could have hidden an
 * outage of that item, whatever the others showed.
 */
import { type Fraction, attainment, compareWithPercent, formatPercent } from './attainment';
import { type ServiceTimeline, type Span, mergeSpans, spansWhere } from './downtime';

/** The spans of [start, end) in which the item whose metrics these are has no measured status. */
export function itemGaps(metrics: readonly ServiceTimeline[], start: number, end: number): Span[] {
  if (!metrics.length) return end > start ? [{ start, end }] : [];
  return spansWhere(metrics, start, end, (worst) => worst === 'no_data');
}

/** The spans in which at least one of the items is unmeasured. */
export function contractGaps(items: readonly (readonly ServiceTimeline[])[], start: number, end: number): Span[] {
  return mergeSpans(items.flatMap((metrics) => itemGaps(metrics, start, end)));
}

/** measured ÷ total, exact (1 when the window holds no minute). */
export function coverageFraction(totalMinutes: number, unmeasuredMinutes: number): Fraction {
  return attainment(totalMinutes, unmeasuredMinutes);
}

export const COVERAGE_DECIMALS = 4;

export interface CoverageVerdict {
  coverage_pct: string;
  sufficient: boolean;
}

/** The coverage in percent (rounded toward zero) and whether it reaches `minPct` (compared exactly). */
export function coverageVerdict(totalMinutes: number, unmeasuredMinutes: number, minPct: string): CoverageVerdict {
  const fraction = coverageFraction(totalMinutes, unmeasuredMinutes);
  return {
    coverage_pct: formatPercent(fraction, COVERAGE_DECIMALS),
    sufficient: compareWithPercent(fraction, minPct) >= 0,
  };
}
