import type { Impact } from '../../src/domain/incident-impact';
import {
  type ComponentInput,
  type IncidentInput,
  type MaintenanceInput,
  type PageState,
  derivePageState,
} from '../../src/domain/status-page/page-state';
import type { HealthStatus } from '../../src/domain/thresholds';
import { uptimeByTime } from '../../src/domain/uptime';

const svc = (id: string, status: HealthStatus): ComponentInput => ({ kind: 'service', id, service_id: id, status });

const incident = (id: string, impacts: Record<string, Impact>, over: Partial<IncidentInput> = {}): IncidentInput => ({
  id,
  severity: 'major',
  published_at: '2026-11-22T14:00:00.000Z',
  resolved_at: null,
  affected_services: Object.entries(impacts).map(([sid, impact]) => ({ id: sid, impact })),
  ...over,
});

const maintenance = (
  id: string,
  services: string[],
  state: MaintenanceInput['state'] = 'in_progress',
): MaintenanceInput => ({
  id,
  state,
  affected_services: services.map((s) => ({ id: s })),
});

interface Case {
  name: string;
  components: ComponentInput[];
  incidents?: IncidentInput[];
  recent?: IncidentInput[];
  maintenances?: MaintenanceInput[];
  headline: PageState;
  text: string;
  states: Record<string, PageState>;
  active: string[];
  quiet: boolean;
}

const CASES: Case[] = [
  {
    name: 'all healthy',
    components: [svc('api', 'healthy'), svc('db', 'healthy')],
    headline: 'operational',
    text: 'All systems operational',
    states: { api: 'operational', db: 'operational' },
    active: [],
    quiet: true,
  },
  {
    name: 'one down',
    components: [svc('api', 'healthy'), svc('db', 'unhealthy')],
    headline: 'major_outage',
    text: 'Major outage',
    states: { api: 'operational', db: 'major_outage' },
    active: [],
    quiet: true,
  },
  {
    name: 'down during its maintenance',
    components: [svc('api', 'healthy'), svc('db', 'unhealthy')],
    maintenances: [maintenance('m1', ['db'])],
    headline: 'under_maintenance',
    text: 'Under maintenance',
    states: { api: 'operational', db: 'under_maintenance' },
    active: [],
    quiet: true,
  },
  {
    name: 'maintenance on one service while another is down',
    components: [svc('api', 'unhealthy'), svc('db', 'healthy')],
    maintenances: [maintenance('m1', ['db'])],
    headline: 'major_outage',
    text: 'Major outage',
    states: { api: 'major_outage', db: 'under_maintenance' },
    active: [],
    quiet: true,
  },
  {
    name: 'a maintenance naming no service covers them all',
    components: [svc('api', 'degraded'), svc('db', 'unhealthy')],
    maintenances: [maintenance('m1', [])],
    headline: 'under_maintenance',
    text: 'Under maintenance',
    states: { api: 'under_maintenance', db: 'under_maintenance' },
    active: [],
    quiet: true,
  },
  {
    name: 'open incident with healthy metrics',
    components: [svc('api', 'healthy'), svc('db', 'healthy')],
    incidents: [incident('i1', { db: 'major_outage' })],
    headline: 'major_outage',
    text: 'Major outage',
    states: { api: 'operational', db: 'major_outage' },
    active: ['i1'],
    quiet: false,
  },
  {
    name: 'open incident and maintenance on the same service: the impact wins',
    components: [svc('api', 'healthy'), svc('db', 'unhealthy')],
    incidents: [incident('i1', { db: 'partial_outage' })],
    maintenances: [maintenance('m1', ['db'])],
    headline: 'partial_outage',
    text: 'Partial outage',
    states: { api: 'operational', db: 'partial_outage' },
    active: ['i1'],
    quiet: false,
  },
  {
    name: 'open incident on one service, maintenance on another',
    components: [svc('api', 'healthy'), svc('db', 'healthy')],
    incidents: [incident('i1', { api: 'degraded_performance' })],
    maintenances: [maintenance('m1', ['db'])],
    headline: 'degraded_performance',
    text: 'Degraded performance',
    states: { api: 'degraded_performance', db: 'under_maintenance' },
    active: ['i1'],
    quiet: false,
  },
  {
    name: 'resolved incident: no impact, not active, listed as recent',
    components: [svc('api', 'healthy')],
    incidents: [incident('i1', { api: 'major_outage' }, { resolved_at: '2026-11-22T15:00:00.000Z' })],
    headline: 'operational',
    text: 'All systems operational',
    states: { api: 'operational' },
    active: [],
    quiet: false,
  },
  {
    name: 'degraded impact',
    components: [svc('api', 'healthy')],
    incidents: [incident('i1', { api: 'degraded_performance' })],
    headline: 'degraded_performance',
    text: 'Degraded performance',
    states: { api: 'degraded_performance' },
    active: ['i1'],
    quiet: false,
  },
  {
    name: 'partial impact',
    components: [svc('api', 'healthy')],
    incidents: [incident('i1', { api: 'partial_outage' })],
    headline: 'partial_outage',
    text: 'Partial outage',
    states: { api: 'partial_outage' },
    active: ['i1'],
    quiet: false,
  },
  {
    name: 'major impact',
    components: [svc('api', 'degraded')],
    incidents: [incident('i1', { api: 'major_outage' })],
    headline: 'major_outage',
    text: 'Major outage',
    states: { api: 'major_outage' },
    active: ['i1'],
    quiet: false,
  },
  {
    name: 'metrics worse than the impact: the worse wins',
    components: [svc('api', 'unhealthy')],
    incidents: [incident('i1', { api: 'degraded_performance' })],
    headline: 'major_outage',
    text: 'Major outage',
    states: { api: 'major_outage' },
    active: ['i1'],
    quiet: false,
  },
  {
    name: 'two incidents on one service: the worse impact',
    components: [svc('api', 'healthy')],
    incidents: [incident('i1', { api: 'degraded_performance' }), incident('i2', { api: 'partial_outage' })],
    headline: 'partial_outage',
    text: 'Partial outage',
    states: { api: 'partial_outage' },
    active: ['i1', 'i2'],
    quiet: false,
  },
  {
    name: 'draft (unpublished) incident ignored',
    components: [svc('api', 'healthy')],
    incidents: [incident('i1', { api: 'major_outage' }, { published_at: null })],
    headline: 'operational',
    text: 'All systems operational',
    states: { api: 'operational' },
    active: [],
    quiet: true,
  },
  {
    name: 'incident naming no service: its severity on the headline',
    components: [svc('api', 'healthy')],
    incidents: [incident('i1', {}, { severity: 'critical' })],
    headline: 'major_outage',
    text: 'Major outage',
    states: { api: 'operational' },
    active: ['i1'],
    quiet: false,
  },
  {
    name: 'a scheduled maintenance changes nothing',
    components: [svc('api', 'unhealthy')],
    maintenances: [maintenance('m1', ['api'], 'scheduled')],
    headline: 'major_outage',
    text: 'Major outage',
    states: { api: 'major_outage' },
    active: [],
    quiet: true,
  },
  {
    name: 'nothing measured',
    components: [svc('api', 'no_data')],
    headline: 'no_data',
    text: 'No data yet',
    states: { api: 'no_data' },
    active: [],
    quiet: true,
  },
  {
    name: 'recently resolved, nothing active: not quiet',
    components: [svc('api', 'healthy')],
    recent: [incident('i0', { api: 'major_outage' }, { resolved_at: '2026-11-21T15:00:00.000Z' })],
    headline: 'operational',
    text: 'All systems operational',
    states: { api: 'operational' },
    active: [],
    quiet: false,
  },
];

describe('derivePageState: what a status page says', () => {
  it.each(CASES.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    const d = derivePageState({
      groups: [{ components: c.components }],
      active_incidents: c.incidents ?? [],
      recent_incidents: c.recent ?? [],
      maintenance_in_progress: c.maintenances ?? [],
    });
    expect(d.headline).toEqual({ state: c.headline, text: c.text });
    expect(Object.fromEntries(d.groups[0]!.components.map((x) => [x.id, x.state]))).toEqual(c.states);
    expect(d.active_incidents.map((i) => i.id)).toEqual(c.active);
    expect(d.quiet).toBe(c.quiet);
    // Never two stories at once: an active incident means no "all operational" and no "no incidents".
    if (d.active_incidents.length) {
      expect(d.headline.state).not.toBe('operational');
      expect(d.quiet).toBe(false);
    }
    // Maintenance in progress and a red headline only together with an outage somebody can see.
    if (d.headline.state === 'major_outage')
      expect(d.groups[0]!.components.some((x) => x.state === 'major_outage') || d.active_incidents.length > 0).toBe(
        true,
      );
  });

  it('moves an incident resolved since the list was read into the recent list, at once', () => {
    const resolved = incident('i1', { api: 'major_outage' }, { resolved_at: '2026-11-22T15:00:00.000Z' });
    const d = derivePageState({
      groups: [{ components: [svc('api', 'healthy')] }],
      active_incidents: [resolved],
      recent_incidents: [],
      maintenance_in_progress: [],
    });
    expect(d.active_incidents).toEqual([]);
    expect(d.recent_incidents.map((i) => i.id)).toEqual(['i1']);
  });

  it('takes a metric component by its service, and keeps an SLO at met or missed', () => {
    const d = derivePageState({
      groups: [
        {
          components: [
            { kind: 'metric', id: 'm1', service_id: 'API', status: 'unhealthy' },
            { kind: 'slo', id: 's1', service_id: 'api', status: 'healthy' },
          ],
        },
      ],
      active_incidents: [],
      recent_incidents: [],
      maintenance_in_progress: [maintenance('x', ['api'])],
    });
    expect(d.groups[0]!.components.map((c) => c.state)).toEqual(['under_maintenance', 'operational']);
    expect(d.groups[0]!.state).toBe('under_maintenance');
  });

  it('groups: the worst of their components, SLOs aside', () => {
    const d = derivePageState({
      groups: [
        { components: [svc('a', 'healthy'), { kind: 'slo', id: 's', service_id: null, status: 'unhealthy' }] },
        { components: [svc('b', 'degraded')] },
      ],
      active_incidents: [],
      recent_incidents: [],
      maintenance_in_progress: [],
    });
    expect(d.groups.map((g) => g.state)).toEqual(['operational', 'degraded_performance']);
    expect(d.headline.state).toBe('degraded_performance');
  });
});

describe('page uptime: down time inside maintenance does not count', () => {
  const day = { date: '2026-11-20', start: Date.UTC(2026, 10, 20), end: Date.UTC(2026, 10, 21) };
  const h = 3_600_000;
  // Up from midnight, down 06:00–12:00, up again.
  const timeline = [
    { at: day.start, status: 'healthy' as const },
    { at: day.start + 6 * h, status: 'unhealthy' as const },
    { at: day.start + 12 * h, status: 'healthy' as const },
  ];

  it('counts the down time without a window (75%)', () => {
    expect(uptimeByTime(timeline, [day], day.end).days[0]!.uptime_pct).toBe('75.000');
  });

  it('leaves out the down time a window covers, and keeps the up time inside it', () => {
    // The window 04:00–10:00 covers 4 of the 6 down hours and 2 up hours.
    const u = uptimeByTime(timeline, [day], day.end, [{ start: day.start + 4 * h, end: day.start + 10 * h }]);
    expect(u.days[0]!.uptime_pct).toBe('90.000'); // 18 up of 20 measured
    expect(u.total).toBe('90.000');
  });

  it('reads 100% when every down minute was inside announced maintenance', () => {
    expect(
      uptimeByTime(timeline, [day], day.end, [{ start: day.start + 6 * h, end: day.start + 12 * h }]).days[0]!
        .uptime_pct,
    ).toBe('100.000');
  });
});
