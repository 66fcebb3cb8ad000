import { isAgentLocation, roundOutcome } from '../../src/domain/confirmation';
import {
  type LocationAnswer,
  type RoundMetric,
  agentLocations,
  agentVotes,
  checksByLocation,
  compactBatch,
  compactPlanOf,
  expandAnswer,
  plannedRoundChecks,
  failingLocations,
  indexAnswers,
  locationBatchTimeoutMs,
  probeScheduleToStartMs,
  recheckAnswers,
  recheckBatches,
  recheckPairs,
  resolveLocations,
  roundVotes,
} from '../../src/domain/metric-rounds';

const T = {
  healthy_operation: 'under',
  healthy_value: 1000,
  unhealthy_operation: 'over',
  unhealthy_value: 5000,
} as const;
const AT = '2026-11-26T12:00:00.000Z';

const metric = (id: string, over: Partial<RoundMetric> = {}): RoundMetric => ({
  metricId: id,
  organization: 'org',
  intervalSeconds: 60,
  sourceType: 'http',
  sourceConfig: { url: `https://example.com/${id}` },
  thresholds: T,
  quorum: 'majority',
  recheck: false,
  locations: ['a', 'b', 'c'],
  agents: [],
  ...over,
});

const ok = (metricId: string, value = 100) => ({ metricId, value, reason: null, at: AT });
const down = (metricId: string, reason = 'ECONNREFUSED') => ({ metricId, value: null, reason, at: AT });

describe('resolveLocations', () => {
  const online = ['b', 'a', 'c'];
  it('is every online cloud location, in id order, for a metric without its own list', () => {
    expect(resolveLocations(null, online, isAgentLocation)).toEqual(['a', 'b', 'c']);
    expect(resolveLocations(null, [], isAgentLocation)).toEqual([]);
  });
  it("is the metric's cloud locations that are online: agents and offline ones left out, duplicates once", () => {
    expect(
      resolveLocations(['c', 'agent:0b6f2f5e-0000-4000-8000-000000000000', 'a', 'x', 'c'], online, isAgentLocation),
    ).toEqual(['a', 'c']);
    expect(resolveLocations(['agent:0b6f2f5e-0000-4000-8000-000000000000'], online, isAgentLocation)).toEqual([]);
  });
});

describe('agent votes', () => {
  const A1 = 'agent:0b6f2f5e-0000-4000-8000-000000000001';
  const A2 = 'agent:0b6f2f5e-0000-4000-8000-000000000002';
  const start = Date.parse(AT);
  const ago = (ms: number) => new Date(start - ms).toISOString();

  it('names the agents of a metric list, in id order', () => {
    expect(agentLocations(['b', A2, 'a', A1, A2], isAgentLocation)).toEqual([A1, A2]);
    expect(agentLocations(null, isAgentLocation)).toEqual([]);
  });

  it("counts each listed agent's latest reading taken within one interval and 10 s before the round (or during it); a stale or missing one is absent", () => {
    const m = metric('m1', { intervalSeconds: 60, agents: [A1, A2] });
    const readings = {
      [A1]: { value: null, status: 'no_data', reason: 'ECONNREFUSED', at: ago(69_000) },
      [A2]: { value: 40, status: 'healthy', reason: null, at: ago(71_000) },
      b: { value: 10, status: 'healthy', reason: null, at: ago(1_000) },
    };
    expect(agentVotes(m, readings, start)).toEqual([
      { location: A1, value: null, reason: 'ECONNREFUSED', status: 'no_data', at: ago(69_000) },
    ]);
    expect(
      agentVotes(
        m,
        { [A2]: { value: 6000, status: 'unhealthy', reason: null, at: new Date(start + 500).toISOString() } },
        start,
      ),
    ).toEqual([
      { location: A2, value: 6000, reason: null, status: 'unhealthy', at: new Date(start + 500).toISOString() },
    ]);
    expect(agentVotes(m, null, start)).toEqual([]);
    expect(agentVotes({ ...m, agents: [] }, readings, start)).toEqual([]);
  });
});

describe('checksByLocation', () => {
  it('gives each location the checks of the metrics it measures, locations in id order', () => {
    const batches = checksByLocation([
      metric('m1', { locations: ['b', 'a'] }),
      metric('m2', { locations: ['b'] }),
      metric('m3', { locations: [] }),
    ]);
    expect(batches.map((b) => [b.location, b.checks.map((c) => c.metricId)])).toEqual([
      ['a', ['m1']],
      ['b', ['m1', 'm2']],
    ]);
    expect(batches[0]!.checks[0]).toEqual({
      metricId: 'm1',
      sourceType: 'http',
      sourceConfig: { url: 'https://example.com/m1' },
    });
  });
});

describe('roundVotes and failingLocations', () => {
  const m = metric('m1');
  it('makes one vote per location that answered, status from the thresholds; a location that did not answer has none', () => {
    const answers = indexAnswers([
      { location: 'a', results: [ok('m1', 100)] },
      { location: 'b', results: [ok('m1', 6000)] },
      { location: 'c', results: [ok('other')] },
    ]);
    expect(roundVotes(m, answers)).toEqual([
      { location: 'a', value: 100, reason: null, status: 'healthy', at: AT },
      { location: 'b', value: 6000, reason: null, status: 'unhealthy', at: AT },
    ]);
    expect(failingLocations(m, answers)).toEqual(['b']);
  });

  it('fails a degraded value and a target reason, never a measurement reason', () => {
    const answers = indexAnswers([
      { location: 'a', results: [ok('m1', 2000)] },
      { location: 'b', results: [down('m1', 'ETIMEDOUT')] },
      { location: 'c', results: [down('m1', 'invalid_config')] },
    ]);
    const votes = roundVotes(m, answers);
    expect(votes.map((v) => v.status)).toEqual(['degraded', 'no_data', 'no_data']);
    expect(failingLocations(m, answers)).toEqual(['a', 'b']);
  });

  it("carries a recheck's answer (or null when the rechecking location did not answer), which the round counts instead", () => {
    const answers = indexAnswers([
      { location: 'a', results: [down('m1')] },
      { location: 'b', results: [ok('m1')] },
    ]);
    const votes = roundVotes(m, answers, [
      { metricId: 'm1', failed: 'a', by: 'b', result: ok('m1', 120) },
      { metricId: 'other', failed: 'b', by: 'a', result: down('other') },
    ]);
    expect(votes[0]).toEqual({
      location: 'a',
      value: null,
      reason: 'ECONNREFUSED',
      status: 'no_data',
      at: AT,
      recheck: { location: 'b', value: 120, reason: null, status: 'healthy', at: AT },
    });
    expect(votes[1]!.recheck).toBeUndefined();
    expect(roundOutcome(votes, 'any').outcome).toBe('passing');
    const unanswered = roundVotes(m, answers, [{ metricId: 'm1', failed: 'a', by: 'b', result: null }]);
    expect(unanswered[0]!.recheck).toBeNull();
    expect(roundOutcome(unanswered, 'any').outcome).toBe('failing');
  });
});

describe('recheck pairing', () => {
  const answers: LocationAnswer[] = [
    { location: 'a', results: [down('m1'), down('m2'), ok('m3'), down('m4')] },
    { location: 'b', results: [ok('m1'), down('m2'), ok('m3'), ok('m4')] },
    { location: 'c', results: [ok('m1'), ok('m2'), down('m3')] },
  ];
  const metrics = [
    metric('m1', { recheck: true }),
    metric('m2', { recheck: true }),
    metric('m3', { recheck: true }),
    metric('m4', { recheck: false }),
  ];

  it('checks each failing vote of a recheck metric again from the next location in id order that answered, wrapping; a metric without recheck is not', () => {
    const pairs = recheckPairs(metrics, indexAnswers(answers));
    expect(pairs).toEqual([
      { metricId: 'm1', failed: 'a', by: 'b' },
      { metricId: 'm2', failed: 'a', by: 'b' },
      { metricId: 'm2', failed: 'b', by: 'c' },
      { metricId: 'm3', failed: 'c', by: 'a' },
    ]);
    expect(recheckBatches(metrics, pairs).map((b) => [b.location, b.checks.map((c) => c.metricId)])).toEqual([
      ['a', ['m3']],
      ['b', ['m1', 'm2']],
      ['c', ['m2']],
    ]);
  });

  it('skips a location that did not answer for the metric; a metric one location answered for is checked there again', () => {
    const partial = indexAnswers([
      { location: 'a', results: [down('m1')] },
      { location: 'c', results: [ok('m1')] },
    ]);
    expect(recheckPairs([metric('m1', { recheck: true })], partial)).toEqual([
      { metricId: 'm1', failed: 'a', by: 'c' },
    ]);
    const alone = indexAnswers([{ location: 'b', results: [down('m1')] }]);
    expect(recheckPairs([metric('m1', { recheck: true })], alone)).toEqual([{ metricId: 'm1', failed: 'b', by: 'b' }]);
  });

  it('checks a metric once at a location that two failing votes hand it to', () => {
    const two = [metric('m1', { recheck: true, locations: ['a', 'b'] })];
    const pairs = recheckPairs(
      two,
      indexAnswers([
        { location: 'a', results: [down('m1')] },
        { location: 'b', results: [down('m1')] },
      ]),
    );
    expect(pairs).toEqual([
      { metricId: 'm1', failed: 'a', by: 'b' },
      { metricId: 'm1', failed: 'b', by: 'a' },
    ]);
    const three = [metric('m1', { recheck: true, locations: ['a', 'b', 'c'] })];
    const all = recheckPairs(
      three,
      indexAnswers([
        { location: 'a', results: [down('m1')] },
        { location: 'c', results: [down('m1')] },
      ]),
    );
    expect(all).toEqual([
      { metricId: 'm1', failed: 'a', by: 'c' },
      { metricId: 'm1', failed: 'c', by: 'a' },
    ]);
    expect(
      recheckBatches(three, [...all, { metricId: 'm1', failed: 'b', by: 'c' }]).map((b) => [
        b.location,
        b.checks.length,
      ]),
    ).toEqual([
      ['a', 1],
      ['c', 1],
    ]);
  });

  it('matches each recheck with what the rechecking location answered', () => {
    const pairs = [
      { metricId: 'm1', failed: 'a', by: 'b' },
      { metricId: 'm2', failed: 'a', by: 'c' },
    ];
    expect(recheckAnswers(pairs, indexAnswers([{ location: 'b', results: [ok('m1', 5)] }]))).toEqual([
      { metricId: 'm1', failed: 'a', by: 'b', result: ok('m1', 5) },
      { metricId: 'm2', failed: 'a', by: 'c', result: null },
    ]);
  });
});

describe('probeScheduleToStartMs', () => {
  it('waits for a location half the interval, at most 10 s, at least 1 s', () => {
    expect(probeScheduleToStartMs(30)).toBe(10_000);
    expect(probeScheduleToStartMs(10)).toBe(5_000);
    expect(probeScheduleToStartMs(2)).toBe(1_000);
    expect(probeScheduleToStartMs(1)).toBe(1_000);
  });
});

describe('locationBatchTimeoutMs', () => {
  it('gives each wave of 64 checks the 30 s deadline, plus 5 s, at most 5 minutes', () => {
    expect(locationBatchTimeoutMs(1)).toBe(35_000);
    expect(locationBatchTimeoutMs(64)).toBe(35_000);
    expect(locationBatchTimeoutMs(65)).toBe(65_000);
    expect(locationBatchTimeoutMs(334)).toBe(185_000);
    expect(locationBatchTimeoutMs(10_000)).toBe(300_000);
  });
});

describe('compact rounds', () => {
  it('plans each source once, locations as indices into the online ones, thresholds only for a recheck metric; the workflow reads it back as the same checks', () => {
    const online = ['a', 'b', 'c'];
    const metrics = [
      metric('m1', { locations: ['a', 'c'] }),
      metric('m2', { locations: ['b'], recheck: true }),
      metric('m3', { locations: [], agents: ['agent:x'] }),
    ];
    const plan = compactPlanOf(metrics, online);
    expect(plan).toEqual([
      { id: 'm1', type: 'http', config: { url: 'https://example.com/m1' }, at: [0, 2] },
      { id: 'm2', type: 'http', config: { url: 'https://example.com/m2' }, at: [1], recheck: { thresholds: T } },
      { id: 'm3', type: 'http', config: { url: 'https://example.com/m3' }, at: [] },
    ]);
    const checks = plannedRoundChecks(plan, online);
    expect(checks.map((c) => [c.metricId, c.locations, c.recheck, c.thresholds])).toEqual([
      ['m1', ['a', 'c'], false, null],
      ['m2', ['b'], true, T],
      ['m3', [], false, null],
    ]);
    // The batches and rechecks come out as from the full plan.
    expect(checksByLocation(checks)).toEqual(checksByLocation(metrics));
    const answers = indexAnswers([{ location: 'b', results: [down('m2')] }]);
    expect(recheckPairs(checks, answers)).toEqual(recheckPairs(metrics, answers));
  });

  it('sends a batch as ids and sources and reads its positional answer back as results stamped when each check started', () => {
    const batch = compactBatch([
      { metricId: 'm1', sourceType: 'http', sourceConfig: { url: 'u1' } },
      { metricId: 'm2', sourceType: 'tcp', sourceConfig: { host: 'h', port: 1 } },
    ]);
    expect(batch).toEqual({
      ids: ['m1', 'm2'],
      sources: [
        ['http', { url: 'u1' }],
        ['tcp', { host: 'h', port: 1 }],
      ],
    });
    const answer = expandAnswer(batch.ids, {
      location: 'a',
      startedAt: AT,
      results: [
        [12.5, null, 3],
        [null, 'ECONNREFUSED', 1250],
        [1, null, 0],
      ],
    });
    expect(answer).toEqual({
      location: 'a',
      results: [
        { metricId: 'm1', value: 12.5, reason: null, at: '2026-11-26T12:00:00.003Z' },
        { metricId: 'm2', value: null, reason: 'ECONNREFUSED', at: '2026-11-26T12:00:01.250Z' },
      ],
    });
  });
});
