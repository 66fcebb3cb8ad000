import { FRAME, linePath, niceTicks, responseTimeChart, scales, timeTicks } from '../../src/render/console/chart';
import { dayRuns, uptimeBars } from '../../src/render/console/uptime-bars';
import { overviewOrder } from '../../src/domain/overview-order';
import { chartWindow, isResponseTimeMetric } from '../../src/domain/response-time';

describe('response-time chart geometry', () => {
  it('picks nice ticks from 0 that cover the maximum', () => {
    expect(niceTicks(93)).toEqual([0, 50, 100]);
    expect(niceTicks(75)).toEqual([0, 20, 40, 60, 80]);
    expect(niceTicks(400)).toEqual([0, 100, 200, 300, 400]);
    expect(niceTicks(0.7)).toEqual([0, 0.2, 0.4, 0.6, 0.8]);
    expect(niceTicks(0)).toEqual([0, 1]);
  });

  it('maps time to x across the plot and values to y from the bottom', () => {
    const s = scales(1000, 2000, 100);
    expect(s.x(1000)).toBe(FRAME.left);
    expect(s.x(2000)).toBe(FRAME.width - FRAME.right);
    expect(s.y(0)).toBe(FRAME.height - FRAME.bottom);
    expect(s.y(100)).toBe(FRAME.top);
    expect(s.y(-5)).toBe(s.y(0));
  });

  it('draws a line through consecutive buckets and starts a new piece after a missing one; a lone point stays visible', () => {
    const s = scales(0, 10, 10, { width: 10 + 0, height: 10, left: 0, right: 0, top: 0, bottom: 0 });
    expect(
      linePath(
        [
          { at: 0, mean: 0 },
          { at: 1, mean: 5 },
          { at: 2, mean: 10 },
        ],
        s,
        1,
      ),
    ).toBe('M0 10L1 5L2 0');
    expect(
      linePath(
        [
          { at: 2, mean: 10 },
          { at: 0, mean: 0 },
          { at: 5, mean: 5 },
          { at: 6, mean: 5 },
        ],
        s,
        1,
      ),
    ).toBe('M0 10h0.1M2 0h0.1M5 5L6 5');
  });

  it('places time ticks on whole steps inside the range', () => {
    expect(timeTicks(5, 31, 10)).toEqual([10, 20, 30]);
  });

  it('renders an accessible SVG without inline style, or says nothing was measured', () => {
    const svg = responseTimeChart({
      title: 'Response time',
      series: [
        {
          name: 'API <p95>',
          points: [
            { at: 0, mean: 100 },
            { at: 60_000, mean: 300 },
          ],
        },
        { name: 'DNS', points: [] },
      ],
      from: 0,
      to: 120_000,
      bucketMs: 60_000,
      unit: 'ms',
      tickMs: 60_000,
      tickLabel: (ms) => `t${ms}`,
    });
    expect(svg).toContain(
      'role="img" aria-label="Response time. API &#60;p95&#62;: mean 200 ms, highest bucket 300 ms."',
    );
    expect(svg).toContain('<path class="series s0"');
    expect(svg).toContain('DNS <span class="muted">(nothing measured)</span>');
    expect(svg).toContain('>t60000</text>');
    expect(svg).not.toMatch(/style=/);
    expect(
      responseTimeChart({
        title: 'x',
        series: [{ name: 'a', points: [] }],
        from: 0,
        to: 1,
        bucketMs: 1,
        unit: 'ms',
        tickMs: 1,
        tickLabel: String,
      }),
    ).toContain('No response times measured');
  });

  it('knows which metrics measure a response time', () => {
    expect(isResponseTimeMetric({ source_type: 'http', source_config: {}, unit: null })).toBe(true);
    expect(isResponseTimeMetric({ source_type: 'http', source_config: { json_path: '$.n' }, unit: null })).toBe(false);
    expect(isResponseTimeMetric({ source_type: 'grpc', source_config: {}, unit: null })).toBe(false);
    expect(
      isResponseTimeMetric({ source_type: 'grpc', source_config: { interpretation: 'latency' }, unit: null }),
    ).toBe(true);
    expect(isResponseTimeMetric({ source_type: 'heartbeat', source_config: {}, unit: 'ms' })).toBe(true);
    const w = chartWindow('7d', new Date('2026-11-27T10:30:00Z'));
    expect([new Date(w.from).toISOString(), w.bucketMs]).toEqual(['2026-11-20T10:00:00.000Z', 7_200_000]);
  });
});

describe('90-day bars', () => {
  const days = [
    { date: '2026-11-24', uptime_pct: null },
    { date: '2026-11-25', uptime_pct: '100.000' },
    { date: '2026-11-26', uptime_pct: '99.990' },
    { date: '2026-11-27', uptime_pct: '90.000' },
  ];
  it('groups days of the same class into runs, oldest first, with the lowest uptime of each', () => {
    expect(dayRuns(days).map((r) => [r.cls, r.start, r.length, r.lowest])).toEqual([
      ['none', 0, 1, null],
      ['up', 1, 2, '99.990'],
      ['down', 3, 1, '90.000'],
    ]);
  });
  it('ends with today, marked, and says the mean in words', () => {
    const html = uptimeBars(days);
    expect(html).toMatch(
      /<rect class="down" x="3" width="1" height="1" data-last="2026-11-27"><title>27 Nov: 90\.000%<\/title><\/rect><\/svg>/,
    );
    expect(html).toContain('aria-label="3 of the last 4 days with data; mean uptime 96.66%"');
  });
});

describe('overview order', () => {
  it('puts unhealthy, then degraded, then healthy first, each by name, and services without data apart', () => {
    const s = (name: string, status: 'healthy' | 'degraded' | 'unhealthy' | 'no_data') => ({ name, status });
    const { measured, noData } = overviewOrder([
      s('b', 'healthy'),
      s('Zed', 'unhealthy'),
      s('a', 'no_data'),
      s('alpha', 'unhealthy'),
      s('C', 'degraded'),
      s('service 10', 'healthy'),
      s('service 9', 'healthy'),
    ]);
    expect(measured.map((x) => x.name)).toEqual(['alpha', 'Zed', 'C', 'b', 'service 9', 'service 10']);
    expect(noData.map((x) => x.name)).toEqual(['a']);
  });
});
