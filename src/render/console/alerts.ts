import { esc } from '../html';
import { alertsNav } from './alerting-parts';
import { type FormProblem, actionButton, csrfField, problemBox, stateFilter } from './forms';
import { type TimelineItem, facts, link, pager, stateBadge, table, timeline, zoneName, zonedTime } from './parts';
import { temporalWorkflowLink } from './pages/webhooks';

/** An alert as the API shows it (GET /v1/alerts/{id}), with its timeline. */
export interface AlertView {
  id: string;
  rule_id: string;
  subject: { kind: string; id: string; name: string };
  state: string;
  severity: string;
  title: string;
  summary: string;
  level: number;
  trigger_count: number;
  suppressed_by: Record<string, unknown> | null;
  snoozed_until: string | null;
  triggered_at: string;
  acknowledged_at: string | null;
  acknowledged_by: string | null;
  resolved_at: string | null;
  resolved_by: string | null;
  workflow_id: string;
  timeline: { at: string; kind: string; actor: string | null; detail: Record<string, unknown> }[];
}

export const ALERT_FILTER_STATES = ['open', 'triggered', 'acknowledged', 'suppressed', 'resolved'] as const;
export type AlertFilterState = (typeof ALERT_FILTER_STATES)[number];

export const alertHref = (id: string) => `/console/alerts/${encodeURIComponent(id)}`;

/** How long a snooze may be, as the form offers it (the API takes 1 to 1,440 minutes). */
export const SNOOZE_MINUTES = [15, 30, 60, 120, 240, 480] as const;

function stateTone(state: string): 'healthy' | 'degraded' | 'unhealthy' | 'neutral' {
  return state === 'triggered'
    ? 'unhealthy'
    : state === 'acknowledged'
      ? 'degraded'
      : state === 'resolved'
        ? 'healthy'
        : 'neutral';
}

export const alertStateBadge = (state: string) => stateBadge(state, stateTone(state));

export function severityBadge(severity: string): string {
  return stateBadge(severity, severity === 'critical' ? 'unhealthy' : severity === 'warning' ? 'degraded' : 'neutral');
}

const text = (v: unknown) => (typeof v === 'string' || typeof v === 'number' ? String(v) : '');

/** The targets a level did not page, and why: "Skipped: ana@example.com (user disabled)". */
function skippedText(v: unknown): string | null {
  if (!Array.isArray(v) || !v.length) return null;
  const items = v.map(
    (x: Record<string, unknown>) => `${text(x.target).replace(/^(user|channel|schedule):/, '')} (${text(x.why)})`,
  );
  return `Skipped: ${items.join('; ')}`;
}

/** Why Vigil resolved an alert by itself, from its actor ("vigil (recovered)"): ": the subject recovered". */
function autoReason(actor: string | null): string {
  const why = actor?.match(/^vigil \((.+)\)$/)?.[1] ?? actor;
  if (!why) return '';
  if (why === 'recovered') return ': the subject recovered';
  if (why === 'rule or subject removed') return ': its rule or subject was removed';
  return `: ${why}`;
}

/** One timeline entry in words: what happened, and by whom. */
export function timelineLabel(e: AlertView['timeline'][number]): TimelineItem {
  const d = e.detail;
  const by = e.actor ? ` by ${e.actor}` : '';
  const pass = Number(d.pass) > 0 ? ` (repeat ${text(d.pass)})` : '';
  switch (e.kind) {
    case 'triggered':
      return {
        at: e.at,
        label: 'Triggered',
        body:
          [
            d.status ? `Status: ${text(d.status).replace(/_/g, ' ')}` : '',
            d.severity ? `severity ${text(d.severity)}` : '',
          ]
            .filter(Boolean)
            .join(', ') || null,
      };
    case 'retriggered':
      return {
        at: e.at,
        label: 'Triggered again',
        body: d.status ? `Status: ${text(d.status).replace(/_/g, ' ')}` : null,
      };
    case 'notified_level':
      return { at: e.at, label: `Notified level ${text(d.level)}${pass}`, body: skippedText(d.skipped) };
    case 'escalated':
      return { at: e.at, label: `Escalated to level ${text(d.level)}${pass}`, body: skippedText(d.skipped) };
    case 'suppressed': {
      const s = (d.suppression ?? d) as Record<string, unknown>;
      const what = s.kind === 'maintenance' ? 'maintenance' : 'silence';
      return {
        at: e.at,
        label: `Suppressed by a ${what}`,
        body: `${text(s.title)}${s.until ? ` (until ${text(s.until)})` : ''}` || null,
      };
    }
    case 'unsuppressed':
      return { at: e.at, label: 'No longer suppressed', body: null };
    case 'acknowledged':
      return { at: e.at, label: `Acknowledged${by}`, body: null };
    case 'snoozed':
      return { at: e.at, label: `Snoozed${by}`, body: d.until ? `Until ${text(d.until)}` : null };
    case 'snooze_ended':
      return { at: e.at, label: 'Snooze ended; escalation starts again', body: null };
    case 'resolved':
      return {
        at: e.at,
        label: d.auto === true ? `Resolved automatically${autoReason(e.actor)}` : `Resolved${by}`,
        body: null,
      };
    default:
      return { at: e.at, label: `${e.kind.replace(/_/g, ' ')}${by}`, body: null };
  }
}

export interface AlertActionsView {
  csrf: string;
  canWrite: boolean;
  /** The viewer's zone: times are shown in it. */
  zone: string;
}

/** Acknowledge, snooze and resolve, as the alert's state allows; nothing for a reader or a resolved alert. */
export function alertButtons(a: Pick<AlertView, 'id' | 'state'>, o: AlertActionsView, withSnooze = false): string {
  if (!o.canWrite || a.state === 'resolved') return '';
  const base = alertHref(a.id);
  const buttons = [
    a.state !== 'acknowledged'
      ? actionButton({ action: `${base}/acknowledge`, label: 'Acknowledge', csrf: o.csrf })
      : '',
    actionButton({ action: `${base}/resolve`, label: 'Resolve', csrf: o.csrf, kind: 'secondary' }),
  ].filter(Boolean);
  const snooze = withSnooze
    ? `<form class="inline" method="post" action="${esc(`${base}/snooze`)}">${csrfField(o.csrf)}<label for="f-snooze-minutes">Snooze for</label> <select id="f-snooze-minutes" name="minutes">${SNOOZE_MINUTES.map(
        (m) =>
          `<option value="${m}"${m === 60 ? ' selected' : ''}>${m < 60 ? `${m} minutes` : `${m / 60} hour${m === 60 ? '' : 's'}`}</option>`,
      ).join('')}</select> <button type="submit" class="secondary">Snooze</button></form>`
    : '';
  return `<div class="actions">${buttons.join('')}${snooze}</div>`;
}

export interface AlertListView {
  open: AlertView[];
  openNext: string | null;
  /** The other section: recently resolved, or the alerts of the chosen state. */
  rest: AlertView[];
  restNext: string | null;
  state: AlertFilterState | '';
  ruleNames: ReadonlyMap<string, string>;
}

function alertRows(list: AlertView[], names: ReadonlyMap<string, string>, o: AlertActionsView): string[][] {
  return list.map((a) => [
    `${link(alertHref(a.id), a.title)}<br><span class="muted">${esc(a.summary)}</span>`,
    alertStateBadge(a.state),
    severityBadge(a.severity),
    esc(names.get(a.rule_id) ?? 'a deleted rule'),
    zonedTime(a.triggered_at, o.zone),
    a.acknowledged_by ? esc(a.acknowledged_by) : '<span class="muted">—</span>',
    alertButtons(a, o) || '<span class="muted">—</span>',
  ]);
}

const HEAD = ['Alert', 'State', 'Severity', 'Rule', 'Triggered', 'Acknowledged by', 'Actions'];

/** Open alerts first (every state but resolved), then the recently resolved; `?state=` shows one state, paged. */
export function alertListBody(view: AlertListView, o: AlertActionsView): string {
  const filter = stateFilter('/console/alerts', 'state', 'State', ALERT_FILTER_STATES, view.state);
  if (view.state) {
    return `${alertsNav('/console/alerts')}
${filter}
${table(HEAD, alertRows(view.rest, view.ruleNames, o), `No ${view.state} alerts.`, 'Newest first')}
${pager('/console/alerts', view.restNext, { state: view.state })}`;
  }
  return `${alertsNav('/console/alerts')}
${filter}
<section aria-labelledby="open-alerts"><h2 id="open-alerts">Open</h2>
${table(HEAD, alertRows(view.open, view.ruleNames, o), 'No open alerts: nothing is firing.', 'Newest first')}
${pager('/console/alerts', view.openNext, { state: 'open' })}
</section>
<section aria-labelledby="resolved-alerts"><h2 id="resolved-alerts">Recently resolved</h2>
${table(
  HEAD.slice(0, 6),
  alertRows(view.rest, view.ruleNames, o).map((r) => r.slice(0, 6)),
  'No resolved alerts yet.',
  'Newest first',
)}
${pager('/console/alerts', view.restNext, { state: 'resolved' })}
</section>`;
}

export interface AlertDetailView {
  alert: AlertView;
  ruleName: string | null;
  temporalUiUrl: string | null;
  problem: FormProblem | null;
}

export function alertDetailBody(view: AlertDetailView, o: AlertActionsView): string {
  const a = view.alert;
  const suppressed = a.suppressed_by as { kind?: string; title?: string; until?: string } | null;
  const rows: [string, string][] = [
    [
      'State',
      `${alertStateBadge(a.state)}${a.snoozed_until ? ` <span class="muted">snoozed until</span> ${zonedTime(a.snoozed_until, o.zone)}` : ''}`,
    ],
    ['Severity', severityBadge(a.severity)],
    ['Summary', esc(a.summary)],
    ['Subject', `${esc(a.subject.name)} <span class="muted">(${esc(a.subject.kind.replace(/_/g, ' '))})</span>`],
    ['Rule', view.ruleName ? esc(view.ruleName) : '<span class="muted">deleted</span>'],
    ['Escalation level', a.level ? esc(String(a.level)) : '<span class="muted">nobody notified yet</span>'],
    ['Triggers', esc(String(a.trigger_count))],
    ['Triggered', zonedTime(a.triggered_at, o.zone)],
  ];
  if (suppressed)
    rows.push([
      'Suppressed by',
      `${esc(suppressed.kind ?? '')}: ${esc(suppressed.title ?? '')}${suppressed.until ? ` until ${zonedTime(suppressed.until, o.zone)}` : ''}`,
    ]);
  if (a.acknowledged_at)
    rows.push([
      'Acknowledged',
      `${zonedTime(a.acknowledged_at, o.zone)}${a.acknowledged_by ? ` by ${esc(a.acknowledged_by)}` : ''}`,
    ]);
  if (a.resolved_at)
    rows.push(['Resolved', `${zonedTime(a.resolved_at, o.zone)}${a.resolved_by ? ` by ${esc(a.resolved_by)}` : ''}`]);
  const workflow = temporalWorkflowLink(view.temporalUiUrl, a.workflow_id);
  return `<p><a href="/console/alerts">← All alerts</a></p>
${problemBox(view.problem)}
${facts(rows)}
${alertButtons(a, o, true)}
${workflow ? `<p>${workflow}</p>` : ''}
<section aria-labelledby="timeline"><h2 id="timeline">Timeline</h2>
<p class="muted">Oldest first, times in ${zoneName(o.zone)}.</p>
${timeline(a.timeline.map(timelineLabel), 'Nothing has happened yet.', o.zone)}
</section>`;
}

export interface OnCallNowRow {
  scheduleId: string;
  scheduleName: string;
  email: string | null;
  source: 'override' | 'layer' | null;
  layerName: string | null;
  until: string | null;
}

/** The overview's "Who is on call now" and the count of open alerts. */
export function onCallNowBlock(
  rows: readonly OnCallNowRow[],
  openAlerts: { count: number; more: boolean } | null,
  timeZone: string,
): string {
  const alerts =
    openAlerts === null
      ? ''
      : `<p>${openAlerts.count === 0 ? 'No open alerts.' : `${link('/console/alerts', `${openAlerts.count}${openAlerts.more ? '+' : ''} open alert${openAlerts.count === 1 && !openAlerts.more ? '' : 's'}`)}`}</p>`;
  const body = rows.map((r) => [
    link(`/console/on-call/schedules/${encodeURIComponent(r.scheduleId)}`, r.scheduleName),
    r.email
      ? `${esc(r.email)}${r.source === 'override' ? ' <span class="muted">(override)</span>' : r.layerName ? ` <span class="muted">(${esc(r.layerName)})</span>` : ''}`
      : '<span class="muted">Nobody</span>',
    zonedTime(r.until, timeZone),
  ]);
  return `<section aria-labelledby="on-call-now"><h2 id="on-call-now">Who is on call now</h2>
${alerts}
${table(['Schedule', 'On call', 'Until'], body, 'No on-call schedules yet.')}
</section>`;
}

/** An open alert as the overview lists it. */
export interface OpenAlertRow {
  id: string;
  title: string;
  severity: string;
  state: string;
  triggered_at: string;
  level: number;
}

const SEVERITY_ORDER: Record<string, number> = { critical: 0, warning: 1, info: 2 };

/**
 * The overview's first block while anything pages: the open alerts, critical first, newest first
 * within a severity, each with its state and since when. Nothing at all when none is open (the
 * on-call block says "No open alerts").
 */
export function openAlertsBlock(alerts: readonly OpenAlertRow[], more: boolean, timeZone: string): string {
  if (!alerts.length) return '';
  const sorted = [...alerts].sort(
    (a, b) =>
      (SEVERITY_ORDER[a.severity] ?? 3) - (SEVERITY_ORDER[b.severity] ?? 3) ||
      b.triggered_at.localeCompare(a.triggered_at),
  );
  const rows = sorted.map((a) => [
    link(alertHref(a.id), a.title),
    severityBadge(a.severity),
    alertStateBadge(a.state),
    zonedTime(a.triggered_at, timeZone),
    a.level ? esc(String(a.level)) : '<span class="muted">—</span>',
  ]);
  const critical = alerts.filter((a) => a.severity === 'critical').length;
  const heading = critical
    ? `${critical} critical alert${critical === 1 ? '' : 's'} open`
    : `${alerts.length} alert${alerts.length === 1 ? '' : 's'} open`;
  return `<section class="open-alerts" aria-labelledby="open-alerts"><h2 id="open-alerts">${esc(heading)}</h2>
${table(['Alert', 'Severity', 'State', 'Since', 'Level'], rows, '')}${more ? `<p>${link('/console/alerts?state=open', 'All open alerts')}</p>` : ''}</section>`;
}

/** How far an organization has set alerting up: each step's count. */
export interface AlertingSetup {
  channels: number;
  policies: number;
  rules: number;
}

/**
 * The order alerting is set up in, with links: where to send (a channel), whom to page and when
 * (a policy, which names channels, people or schedules), what raises an alert (a rule, which
 * escalates by a policy). Shown until all three exist, so a new organization sees where to start.
 */
export function alertingChecklist(s: AlertingSetup, canWrite: boolean): string {
  if (s.channels > 0 && s.policies > 0 && s.rules > 0) return '';
  const step = (done: boolean, n: number, what: string, why: string, list: string, create: string) =>
    `<li>${done ? '<span class="badge healthy">done</span>' : '<span class="badge neutral">to do</span>'} <strong>${esc(what)}</strong> — ${esc(why)} ${link(list, `${n} so far`)}${!done && canWrite ? ` · ${link(create, `Add one`)}` : ''}</li>`;
  return `<section class="setup-checklist" aria-labelledby="alerting-setup"><h2 id="alerting-setup">Set up alerting in three steps</h2>
<ol>
${step(s.channels > 0, s.channels, '1. A notification channel', 'where alerts are sent: Slack, Teams, Discord, PagerDuty, Opsgenie, email or a webhook.', '/console/alerts/channels', '/console/alerts/channels/new')}
${step(s.policies > 0, s.policies, '2. An escalation policy', 'whom to page and when: channels, people or on-call schedules, level by level.', '/console/on-call/policies', '/console/on-call/policies/new')}
${step(s.rules > 0, s.rules, '3. An alert rule', 'what raises an alert (a metric, a service, an agent…), escalated by a policy.', '/console/alerts/rules', '/console/alerts/rules/new')}
</ol></section>`;
}
