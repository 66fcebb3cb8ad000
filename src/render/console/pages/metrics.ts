import { describeReason } from '../../../domain/reason-codes';
import { esc } from '../../html';
import { exportLink, managedMarker, managedNotice } from '../config-as-code';
import { type FormProblem, actionButton, csrfField, problemBox, selectField } from '../forms';
import { facts, link, pager, stateBadge, table, toneOfStatus, zonedTime } from '../parts';
import { temporalWorkflowLink } from './webhooks';
import { type MetricLocationsView, metricLocationsSections } from './metric-locations';
import { probeTestWorkflowId } from '../../../domain/workflow-ids';

/** One metric as the console shows it (the fields of the API's Metric it needs). */
export interface ConsoleMetric {
  id: string;
  name: string;
  service_id: string;
  /** The service's name, or null when it is no longer readable. */
  service_name: string | null;
  config_key: string | null;
  source_type: string;
  source_config: Record<string, unknown>;
  thresholds: Record<string, unknown> | null;
  interval_seconds: number;
  agent_id: string | null;
  /** The agent's name, when the page looked it up. */
  agent_name?: string | null;
  mode: 'agent' | 'cloud' | 'push';
  unit: string | null;
  status: string;
  current_value: number | null;
  reason: string | null;
  reason_label: string | null;
  reason_hint: string | null;
  /** While `no_data`, `target` (the target did not answer: down) or `measurement` (not measured). */
  reason_class: 'target' | 'measurement' | null;
  last_sample_at: string | null;
  status_since: string | null;
  /** Paused (not checked); its last status stays. */
  paused: boolean;
  paused_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface MetricSample {
  sampled_at: string;
  value: number | null;
  status: string;
  reason: string | null;
  reason_class: 'target' | 'measurement' | null;
}

export interface MetricFilters {
  service_id: string;
  status: string;
  agent_id: string;
}

export interface MetricListView {
  metrics: ConsoleMetric[];
  nextCursor: string | null;
  filters: MetricFilters;
  /** Services to filter by (id, name). */
  services: { id: string; name: string }[];
  statuses: readonly string[];
  /** The viewer may create metrics (write:metrics). */
  canCreate?: boolean;
  /** The viewer's zone: every time on the page is shown in it. */
  zone: string;
}

/** What a probe test answered (spec §2.3), as the console shows it. */
export interface ProbeTestResultView {
  value: number | null;
  unit: string | null;
  value_description: string | null;
  status: string | null;
  reason: string | null;
  reason_label: string | null;
  reason_hint: string | null;
  duration_ms: number;
  mode: 'agent' | 'cloud';
  thresholds_complete: boolean;
  skipped_secret_headers: string[];
}

/** The outcome of "Test this probe": a result, a test still waiting for its agent, or the problem that refused or ended it. */
export type ProbeTestOutcome =
  | { kind: 'result'; result: ProbeTestResultView }
  | {
      kind: 'pending';
      jobId: string;
      state: 'pending' | 'running';
      expiresAt: string;
      detail: string;
      pollHref: string;
    }
  | { kind: 'problem'; problem: FormProblem };

export interface MetricDetailView {
  metric: ConsoleMetric;
  history: MetricSample[];
  csrf: string;
  /** The viewer may run probe tests (write:metrics or write:config). */
  canTest: boolean;
  /** The source type is one a probe test runs (not pushed or set by hand). */
  testable: boolean;
  /** The viewer may set a manual metric's status (write:metrics). */
  canSetStatus: boolean;
  manualStatuses: readonly string[];
  /** The manual-status form's problem and the status it sent. */
  manual?: { problem: FormProblem; status: string } | null;
  test?: ProbeTestOutcome | null;
  temporalUiUrl: string | null;
  /** Its locations, confirmation, flips and the form that changes them. */
  locations?: MetricLocationsView | null;
  /** The viewer may edit, pause and delete it (write:metrics). */
  canEdit?: boolean;
  /** The viewer's zone: every time on the page is shown in it. */
  zone: string;
}

const MODE_LABELS: Record<ConsoleMetric['mode'], string> = { agent: 'agent', cloud: 'cloud', push: 'push' };

export const statusText = (status: string): string => status.replace(/_/g, ' ');

export function statusBadge(status: string): string {
  return stateBadge(statusText(status), toneOfStatus(status));
}

/** What a `no_data` reading means for availability, in words next to its status. */
export function availabilityNote(status: string, reasonClass: string | null): string {
  if (status !== 'no_data') return '';
  return reasonClass === 'target'
    ? ' <span class="muted">· counts as down: the target did not answer</span>'
    : ' <span class="muted">· not measured</span>';
}

/** Whether a metric has not been measured yet: created, and no sample since. */
export const awaitingFirstCheck = (m: Pick<ConsoleMetric, 'last_sample_at' | 'status' | 'paused'>) =>
  m.last_sample_at === null && m.status === 'no_data' && !m.paused;

/** What a metric without a sample waits for, by how it gets its values. */
function firstCheckText(m: Pick<ConsoleMetric, 'source_type' | 'mode'>): string {
  if (m.source_type === 'manual') return 'no status set yet';
  if (m.source_type === 'heartbeat') return 'waiting for the first ping';
  if (m.mode === 'push') return 'waiting for the first value';
  return 'first check in progress';
}

/** A paused metric says so first; the status it had when paused stays beside it; a new one says it waits for its first check. */
function metricStatus(
  m: Pick<ConsoleMetric, 'status' | 'reason_class' | 'reason' | 'paused' | 'last_sample_at' | 'source_type' | 'mode'>,
): string {
  if (m.paused)
    return `${stateBadge('paused', 'neutral')} <span class="muted">not checked; last status ${esc(statusText(m.status))}</span>`;
  if (awaitingFirstCheck(m)) return stateBadge(firstCheckText(m), 'neutral');
  return readingStatus(m.status, m.reason_class, m.reason);
}

/** A label inside a sentence: "Connection refused" → "connection refused", "TCP connection refused" unchanged. */
const sentenceInner = (label: string) =>
  /^[A-Z][a-z]/.test(label) ? `${label.charAt(0).toLowerCase()}${label.slice(1)}` : label;

/**
 * A reading's status badge. A `no_data` reading whose target did not answer is an outage, and
 * reads as one: "Down (TCP connection refused)" in the unhealthy colour, as the service, the
 * status page and the alert say; the stored status (`no_data`) stays beside it. Not measured
 * (a measurement-class reason) stays grey.
 */
export function readingStatus(status: string, reasonClass: string | null, reason: string | null = null): string {
  if (status === 'no_data' && reasonClass === 'target') {
    const label = reason ? describeReason(reason).reason_label : null;
    return `${stateBadge(label ? `Down (${sentenceInner(label)})` : 'Down', 'unhealthy')} <span class="muted">· no value: the target did not answer (status no data)</span>`;
  }
  return `${statusBadge(status)}${availabilityNote(status, reasonClass)}`;
}

/** `12.5 ms`; a missing value says so in words. */
export function valueText(value: number | null, unit: string | null): string {
  if (value === null) return 'no value';
  return unit ? `${value} ${unit}` : String(value);
}

function whenOrNever(iso: string | null, zone: string, never = 'never'): string {
  return iso ? zonedTime(iso, zone) : `<span class="muted">${esc(never)}</span>`;
}

function reasonCell(label: string | null, hint: string | null, reason: string | null): string {
  if (!label && !reason) return '<span class="muted">—</span>';
  const head = label ? esc(label) : `<code>${esc(reason!)}</code>`;
  const code = label && reason ? ` <code class="muted">${esc(reason)}</code>` : '';
  return `${head}${code}${hint ? `<br><span class="muted">${esc(hint)}</span>` : ''}`;
}

export function metricHref(id: string): string {
  return `/console/metrics/${encodeURIComponent(id)}`;
}

function serviceCell(m: ConsoleMetric): string {
  return m.service_name === null
    ? `<code>${esc(m.service_id)}</code>`
    : link(`/console/metrics?service_id=${encodeURIComponent(m.service_id)}`, m.service_name);
}

function filterForm(view: MetricListView): string {
  const services = [
    { value: '', label: 'All services' },
    ...view.services.map((s) => ({ value: s.id, label: s.name })),
  ];
  const statuses = [
    { value: '', label: 'Any status' },
    ...view.statuses.map((s) => ({ value: s, label: statusText(s) })),
  ];
  const agent = view.filters.agent_id
    ? `<p class="muted">Only the metrics of agent <code>${esc(view.filters.agent_id)}</code>. <a href="/console/metrics">Show all metrics</a></p><input type="hidden" name="agent_id" value="${esc(view.filters.agent_id)}">`
    : '';
  return `<form class="stack" method="get" action="/console/metrics" aria-label="Filter metrics">
${agent}${selectField({ name: 'service_id', label: 'Service', options: services, value: view.filters.service_id })}
${selectField({ name: 'status', label: 'Status', options: statuses, value: view.filters.status })}
<div class="actions"><button type="submit">Filter</button> <a href="/console/metrics">Clear filters</a></div>
</form>`;
}

export function metricListBody(view: MetricListView): string {
  const rows = view.metrics.map((m) => [
    `${link(metricHref(m.id), m.name)}${managedMarker(m.config_key)}`,
    serviceCell(m),
    `<code>${esc(m.source_type)}</code>`,
    esc(MODE_LABELS[m.mode]),
    metricStatus(m),
    awaitingFirstCheck(m) ? '<span class="muted">—</span>' : esc(valueText(m.current_value, m.unit)),
    awaitingFirstCheck(m) ? '<span class="muted">—</span>' : reasonCell(m.reason_label, m.reason_hint, m.reason),
    whenOrNever(m.last_sample_at, view.zone),
  ]);
  const query: Record<string, string> = {};
  for (const [k, v] of Object.entries(view.filters) as [string, string | undefined][]) if (v) query[k] = v;
  const filtered = Object.keys(query).length > 0;
  const create = view.canCreate ? '<p><a class="button" href="/console/metrics/new">New metric</a></p>' : '';
  return `${create}
${exportLink('metric')}
${filterForm(view)}
<h2>Metrics</h2>
${table(['Name', 'Service', 'Type', 'Mode', 'Status', 'Latest value', 'Reason', 'Last sample'], rows, filtered ? 'No metric matches these filters.' : 'No metrics yet.')}
${pager('/console/metrics', view.nextCursor, query)}`;
}

const OPERATION_WORDS: Record<string, string> = { over: 'over', under: 'under', equal: 'equal to' };

/** "healthy when under 1000; unhealthy when over 5000; degraded in between". */
export function thresholdsText(t: Record<string, unknown> | null, unit: string | null): string {
  if (!t) return 'none';
  const part = (op: unknown, value: unknown) =>
    op === undefined || op === null || value === undefined || value === null
      ? null
      : `${OPERATION_WORDS[String(op)] ?? String(op)} ${String(value)}${unit ? ` ${unit}` : ''}`;
  const healthy = part(t.healthy_operation, t.healthy_value);
  const unhealthy = part(t.unhealthy_operation, t.unhealthy_value);
  if (!healthy && !unhealthy) return 'none';
  return [
    unhealthy ? `unhealthy when ${unhealthy}` : null,
    healthy ? `healthy when ${healthy}` : null,
    healthy && unhealthy ? 'degraded otherwise' : null,
  ]
    .filter(Boolean)
    .join('; ');
}

function probeResultBlock(r: ProbeTestResultView): string {
  const status =
    r.status === null
      ? `<span class="muted">not judged: ${r.thresholds_complete ? 'no status' : 'the metric has no complete thresholds to compare against'}</span>`
      : statusBadge(r.status);
  const rows: [string, string][] = [
    [
      'Value',
      `${esc(valueText(r.value, r.unit))}${r.value_description ? ` <span class="muted">(${esc(r.value_description)})</span>` : ''}`,
    ],
    ['Status against the thresholds', status],
    ['Reason', reasonCell(r.reason_label, r.reason_hint, r.reason)],
    ['Duration', `${esc(String(r.duration_ms))} ms`],
    ['Ran on', r.mode === 'agent' ? 'the agent' : 'the cloud prober'],
  ];
  if (r.skipped_secret_headers.length)
    rows.push([
      'Headers not sent',
      `${esc(r.skipped_secret_headers.join(', '))} <span class="muted">(their values live on an agent host)</span>`,
    ]);
  return `<div role="status" id="probe-test-result"><p><strong>Test result.</strong> Nothing was stored: no sample, no status change.</p>${facts(rows)}</div>`;
}

/** `zone`: the viewer's, which a pending test's deadline is shown in. */
export function probeOutcomeBlock(t: ProbeTestOutcome, temporalUiUrl: string | null, zone: string): string {
  if (t.kind === 'result') return probeResultBlock(t.result);
  if (t.kind === 'problem') return problemBox(t.problem);
  const workflow = temporalWorkflowLink(temporalUiUrl, probeTestWorkflowId(t.jobId));
  return `<div role="status" id="probe-test-result"><p><strong>${t.state === 'running' ? 'Running' : 'Pending'}:</strong> ${esc(t.detail)} The agent has until ${zonedTime(t.expiresAt, zone)} to answer.</p>
<div class="actions"><a href="${esc(t.pollHref)}">Check the result again</a>${workflow ? ` ${workflow}` : ''}</div></div>`;
}

function probeTestSection(view: MetricDetailView): string {
  const m = view.metric;
  let body: string;
  if (!view.testable)
    body = `<p class="muted">${esc(m.source_type)} metrics are pushed or set by hand, not probed: there is no probe to test.</p>`;
  else if (!view.canTest)
    body = '<p class="muted">Your role cannot run probe tests (it needs write:metrics or write:config).</p>';
  else {
    const where = m.agent_id ? 'on its agent' : 'from the cloud';
    body = `<p>Runs this metric's probe once ${where}, with its configuration and thresholds, and shows what it measured. Nothing is stored.</p>
<form method="post" action="${esc(`${metricHref(m.id)}/test`)}">${csrfField(view.csrf)}<button type="submit">Test this probe</button></form>`;
  }
  const outcome = view.test ? probeOutcomeBlock(view.test, view.temporalUiUrl, view.zone) : '';
  return `<section aria-labelledby="probe-test"><h2 id="probe-test">Test this probe</h2>
${outcome}
${body}</section>`;
}

function manualSection(view: MetricDetailView): string {
  const m = view.metric;
  const problem = view.manual?.problem ?? null;
  // A status sent for a metric that takes none: the problem alone, where the form would be.
  if (m.source_type !== 'manual' || !view.canSetStatus)
    return problem
      ? `<section aria-labelledby="manual-status"><h2 id="manual-status">Set the status by hand</h2>${problemBox(problem)}</section>`
      : '';
  const options = view.manualStatuses.map((s) => ({ value: s, label: statusText(s) }));
  const current = view.manual?.status ?? (view.manualStatuses.includes(m.status) ? m.status : '');
  return `<section aria-labelledby="manual-status"><h2 id="manual-status">Set the status by hand</h2>
${problemBox(problem, ['status'])}
<form class="stack" method="post" action="${esc(`${metricHref(m.id)}/status`)}">${csrfField(view.csrf)}
${selectField({ name: 'status', label: 'Status', options, value: current, problem, required: true, hint: 'Holds until set again; open incidents on the service can make the metric show worse.' })}
<div class="actions"><button type="submit">Set status</button></div>
</form></section>`;
}

function historySection(history: MetricSample[], unit: string | null, zone: string): string {
  const dash = '<span class="muted">—</span>';
  const rows = history.map((h) => [
    zonedTime(h.sampled_at, zone),
    esc(valueText(h.value, unit)),
    readingStatus(h.status, h.reason_class, h.reason),
    h.reason ? `<code>${esc(h.reason)}</code>` : dash,
    h.reason_class ? `<code>${esc(h.reason_class)}</code>` : dash,
  ]);
  return `<section aria-labelledby="history"><h2 id="history">Recent samples</h2>
${table(['Sampled at', 'Value', 'Status', 'Reason', 'Reason class'], rows, 'No samples yet.', 'Newest first')}</section>`;
}

/** Edit, pause or resume, delete. */
function configActions(m: ConsoleMetric, csrf: string): string {
  const href = metricHref(m.id);
  const pause = m.paused
    ? actionButton({ action: `${href}/resume`, label: 'Resume checks', csrf, kind: 'secondary' })
    : actionButton({ action: `${href}/pause`, label: 'Pause checks', csrf, kind: 'secondary' });
  return `<div class="actions row-actions"><a class="button" href="${esc(`${href}/edit`)}">Edit</a> ${pause} <a href="${esc(`${href}/delete`)}">Delete…</a></div>`;
}

export function metricDetailBody(view: MetricDetailView): string {
  const m = view.metric;
  const agent = m.agent_id
    ? m.agent_name
      ? `${esc(m.agent_name)} <span class="muted">(${link('/console/agents', 'agents')}; id <code>${esc(m.agent_id)}</code>)</span>`
      : `${link(`/console/agents`, 'agent')} <code>${esc(m.agent_id)}</code>`
    : '<span class="muted">none</span>';
  const rows: [string, string][] = [
    [
      'Status',
      `${metricStatus(m)}${m.paused_at ? ` <span class="muted">paused since</span> ${zonedTime(m.paused_at, view.zone)}` : ''}${m.status_since ? ` <span class="muted">since</span> ${zonedTime(m.status_since, view.zone)}` : ''}`,
    ],
    [
      'Latest value',
      awaitingFirstCheck(m) ? '<span class="muted">none yet</span>' : esc(valueText(m.current_value, m.unit)),
    ],
    [
      'Reason',
      awaitingFirstCheck(m)
        ? '<span class="muted">none yet</span>'
        : reasonCell(m.reason_label, m.reason_hint, m.reason),
    ],
    ['Last sample', whenOrNever(m.last_sample_at, view.zone)],
    ['Service', serviceCell(m)],
    ['Type', `<code>${esc(m.source_type)}</code>`],
    ['Mode', esc(MODE_LABELS[m.mode])],
    ['Agent', agent],
    ['Interval', `${esc(String(m.interval_seconds))} s`],
    ['Thresholds', esc(thresholdsText(m.thresholds, m.unit))],
    [
      'Configuration',
      `<div class="table-wrap"><pre><code>${esc(JSON.stringify(m.source_config, null, 2))}</code></pre></div>`,
    ],
  ];
  if (m.config_key) rows.push(['Config key', `<code>${esc(m.config_key)}</code>`]);
  rows.push(['Created', zonedTime(m.created_at, view.zone)]);
  return `<p><a href="/console/metrics">All metrics</a></p>
${managedNotice(m.config_key)}
${view.canEdit ? configActions(m, view.csrf) : ''}
${facts(rows)}
${view.locations ? metricLocationsSections(view.locations) : ''}
${probeTestSection(view)}
${manualSection(view)}
${historySection(view.history, m.unit, view.zone)}`;
}
