import { ALERT_RULE_KINDS, ALERT_SEVERITIES } from '../../domain/alerting/rule-kinds';
import { esc } from '../html';
import { type FormValues, alertsNav, enabledBadge, valueOf, valuesOf, deleteLink } from './alerting-parts';
import { severityBadge } from './alerts';
import {
  type FormProblem,
  actionButton,
  checkboxField,
  choiceGroup,
  csrfField,
  inputField,
  problemBox,
  selectField,
  textareaField,
} from './forms';
import { type Choice, namesOf, pager, stateBadge, table, zonedTime } from './parts';
import { zonedDateInput } from './zoned-input';

/** An alert rule as the API shows it. */
export interface RuleView {
  id: string;
  name: string;
  kind: string;
  subject_id: string | null;
  include_degraded: boolean;
  severity: string;
  escalation_policy_id: string;
  enabled: boolean;
  auto_resolve?: boolean;
  settings?: Record<string, unknown>;
}

/** A silence as the API shows it, with its state now. */
export interface SilenceView {
  id: string;
  rule_ids: string[];
  service_ids: string[];
  starts_at: string;
  ends_at: string;
  reason: string;
  state: string;
}

export const RULE_KIND_LABELS: Readonly<Record<(typeof ALERT_RULE_KINDS)[number], string>> = {
  metric_status: 'A metric becomes unhealthy',
  service_status: 'A service (or any service) becomes unhealthy',
  status_page_status: 'A service on a status page becomes unhealthy',
  slo_burn: 'An SLO (or any SLO) burns its error budget',
  agent_offline: 'An agent (or any agent) goes offline',
  heartbeat_missed: 'A heartbeat (or any heartbeat) is missed',
  location_offline: 'A probe location (or any) goes offline',
  sla_review_overdue: 'An SLA statement waits in review too long',
};

/** Everything a rule may watch, each labelled with what it is ("Metric: Checkout latency"). */
/** Something a rule may watch, and what it is. */
export type SubjectChoice = Choice & { kind: SubjectKind };
export type SubjectKind = 'service' | 'metric' | 'heartbeat' | 'status_page' | 'slo' | 'agent' | 'location';

/** Which subjects fit each rule kind: the picker offers only those (an SLA review rule watches every statement). */
export const SUBJECTS_OF_RULE_KIND: Readonly<Record<(typeof ALERT_RULE_KINDS)[number], readonly SubjectKind[]>> = {
  metric_status: ['metric', 'heartbeat'],
  service_status: ['service'],
  status_page_status: ['status_page'],
  slo_burn: ['slo'],
  agent_offline: ['agent'],
  heartbeat_missed: ['heartbeat'],
  location_offline: ['location'],
  sla_review_overdue: [],
};

const ruleKindOf = (k: string) =>
  (ALERT_RULE_KINDS as readonly string[]).includes(k) ? (k as (typeof ALERT_RULE_KINDS)[number]) : 'service_status';
/** Rule kinds whose subject must be named (the API refuses "every one" for them). */
const NAMED_ONLY = new Set(['metric_status', 'status_page_status']);

export function ruleListBody(o: {
  rows: RuleView[];
  nextCursor: string | null;
  subjects: SubjectChoice[];
  policies: Choice[];
  csrf: string;
  canWrite: boolean;
}): string {
  const subject = (r: RuleView) =>
    r.subject_id === null
      ? r.kind === 'sla_review_overdue'
        ? '<span class="muted">every statement</span>'
        : '<span class="muted">every one</span>'
      : namesOf([r.subject_id], o.subjects);
  const rows = o.rows.map((r) => [
    esc(r.name),
    `${esc(RULE_KIND_LABELS[r.kind as keyof typeof RULE_KIND_LABELS] ?? r.kind)}${r.include_degraded ? ' <span class="muted">(degraded too)</span>' : ''}`,
    subject(r),
    severityBadge(r.severity),
    namesOf([r.escalation_policy_id], o.policies),
    enabledBadge(r.enabled),
    o.canWrite
      ? `<div class="actions row-actions"><a class="button secondary" href="${esc(`/console/alerts/rules/${encodeURIComponent(r.id)}/edit`)}" aria-label="${esc(`Edit ${r.name}`)}">Edit</a>${actionButton(
          {
            action: `/console/alerts/rules/${encodeURIComponent(r.id)}/enabled`,
            label: r.enabled ? 'Disable' : 'Enable',
            csrf: o.csrf,
            hidden: { enabled: r.enabled ? 'false' : 'true' },
            kind: 'secondary',
          },
        )}${deleteLink(`/console/alerts/rules/${encodeURIComponent(r.id)}/delete`, r.name)}</div>`
      : '<span class="muted">—</span>',
  ]);
  return `${alertsNav('/console/alerts/rules')}
${o.canWrite ? '<p class="actions"><a class="button" href="/console/alerts/rules/new">New alert rule</a></p>' : ''}
${table(['Rule', 'Raises an alert when', 'Watching', 'Severity', 'Escalation policy', 'State', 'Actions'], rows, 'No alert rules yet: nothing raises an alert.')}
${pager('/console/alerts/rules', o.nextCursor)}`;
}

const RULE_FIELDS = [
  'name',
  'kind',
  'subject_id',
  'include_degraded',
  'severity',
  'escalation_policy_id',
  'auto_resolve',
  'enabled',
  'settings.reminder_hours',
];

/**
 * The rule form. What raises the alert is chosen first (a small GET form: the page comes back
 * with only the subjects of that kind, so a service is never offered to a metric rule); the rule's
 * own form carries the kind. Editing keeps the kind (the API cannot change it) and may change
 * everything else.
 */
export function ruleFormBody(o: {
  csrf: string;
  values: FormValues;
  subjects: SubjectChoice[];
  policies: Choice[];
  problem?: FormProblem | null;
  editing?: { id: string } | null;
}): string {
  const p = o.problem;
  const val = (n: string) => valueOf(o.values, n);
  const kind = ruleKindOf(val('kind'));
  const fitting = SUBJECTS_OF_RULE_KIND[kind];
  const subjects = o.subjects.filter((s) => fitting.includes(s.kind));
  const degradedErrors = (p?.errors ?? []).filter((e) => e.path === 'include_degraded').map((e) => e.message);
  const kindLabel = RULE_KIND_LABELS[kind];
  const chooser = o.editing
    ? `<p><strong>Raises an alert when:</strong> ${esc(kindLabel)} <span class="muted">(a rule's kind cannot change; create another rule for another kind)</span></p>`
    : `<form class="stack" method="get" action="/console/alerts/rules/new" aria-label="What raises the alert">
${selectField({ name: 'kind', label: 'Raise an alert when', value: kind, problem: p, options: ALERT_RULE_KINDS.map((k) => ({ value: k, label: RULE_KIND_LABELS[k] })) })}
<div><button type="submit" class="secondary">Show what it can watch</button></div>
</form>`;
  const subjectField = fitting.length
    ? selectField({
        name: 'subject_id',
        label: 'Watching',
        value: val('subject_id'),
        problem: p,
        options: [
          ...(NAMED_ONLY.has(kind)
            ? [{ value: '', label: 'Choose one' }]
            : [{ value: '', label: 'Every one of the kind' }]),
          ...subjects.map((s) => ({ value: s.id, label: s.name })),
        ],
        hint: subjects.length
          ? `Only what this kind of rule can watch is offered.`
          : `Nothing of this kind exists yet.`,
      })
    : '<p class="muted">This rule watches every SLA statement in review.</p><input type="hidden" name="subject_id" value="">';
  const action = o.editing
    ? `/console/alerts/rules/${encodeURIComponent(o.editing.id)}/edit`
    : '/console/alerts/rules/new';
  return `${problemBox(p, RULE_FIELDS)}
${chooser}
<form class="stack" method="post" action="${esc(action)}">
${csrfField(o.csrf)}
<input type="hidden" name="kind" value="${esc(kind)}">
${o.editing ? '' : `<p class="muted">Raises an alert when: ${esc(kindLabel)}.</p>`}
${inputField({ name: 'name', label: 'Name', value: val('name'), problem: p, required: true, hint: 'e.g. "Checkout down"' })}
${subjectField}
${checkboxField({ name: 'include_degraded', label: 'Degraded raises the alert too (metric, service and status page rules)', checked: val('include_degraded') === 'true' })}
${degradedErrors.length ? `<p class="field-error">${esc(degradedErrors.join('; '))}</p>` : ''}
${selectField({ name: 'severity', label: 'Severity', value: val('severity') || 'critical', problem: p, options: ALERT_SEVERITIES.map((s) => ({ value: s, label: s })) })}
${o.policies.length ? selectField({ name: 'escalation_policy_id', label: 'Escalation policy', value: val('escalation_policy_id'), problem: p, options: o.policies.map((c) => ({ value: c.id, label: c.name })) }) : '<p class="field-error">Create an escalation policy first (On call → Escalation policies): every rule escalates by one.</p>'}
${kind === 'sla_review_overdue' ? inputField({ name: 'settings.reminder_hours', label: 'Hours in review before the alert (default 24)', type: 'number', value: val('settings.reminder_hours'), problem: p }) : ''}
${checkboxField({ name: 'auto_resolve', label: 'Resolve the alert when the subject recovers', checked: val('auto_resolve') === 'true' })}
${checkboxField({ name: 'enabled', label: 'Enabled', checked: val('enabled') === 'true' })}
<div><button type="submit">${o.editing ? 'Save rule' : 'Create rule'}</button> <a href="/console/alerts/rules">Cancel</a></div>
</form>`;
}

function silenceTone(state: string): 'healthy' | 'degraded' | 'neutral' {
  return state === 'active' ? 'degraded' : state === 'scheduled' ? 'neutral' : 'healthy';
}

export function silenceListBody(o: {
  rows: SilenceView[];
  nextCursor: string | null;
  rules: Choice[];
  services: Choice[];
  csrf: string;
  canWrite: boolean;
  zone: string;
}): string {
  const rows = o.rows.map((s) => [
    esc(s.reason),
    stateBadge(s.state, silenceTone(s.state)),
    s.rule_ids.length ? namesOf(s.rule_ids, o.rules) : '<span class="muted">none</span>',
    s.service_ids.length ? namesOf(s.service_ids, o.services) : '<span class="muted">none</span>',
    zonedTime(s.starts_at, o.zone),
    zonedTime(s.ends_at, o.zone),
    o.canWrite && s.state !== 'expired'
      ? actionButton({
          action: `/console/alerts/silences/${encodeURIComponent(s.id)}/delete`,
          label: 'End silence',
          csrf: o.csrf,
          kind: 'secondary',
        })
      : '<span class="muted">—</span>',
  ]);
  return `${alertsNav('/console/alerts/silences')}
<p class="muted">While a silence is active, alerts of its rules and services are recorded as suppressed and nobody is notified.</p>
${o.canWrite ? '<p class="actions"><a class="button" href="/console/alerts/silences/new">New silence</a></p>' : ''}
${table(
  ['Reason', 'State', 'Rules', 'Services', 'From', 'Until', ...(o.canWrite ? ['Actions'] : [])],
  rows.map((r) => (o.canWrite ? r : r.slice(0, 6))),
  'No silences.',
  'Newest first',
)}
${pager('/console/alerts/silences', o.nextCursor)}`;
}

const SILENCE_FIELDS = ['rule_ids', 'service_ids', 'starts_at', 'ends_at', 'reason'];

/** `zone`: the viewer's; the times are typed in it and read back in it (localInputToInstant). */
export function silenceFormBody(o: {
  csrf: string;
  values: FormValues;
  rules: Choice[];
  services: Choice[];
  zone: string;
  problem?: FormProblem | null;
}): string {
  const p = o.problem;
  return `${problemBox(p, SILENCE_FIELDS)}
<form class="stack" method="post" action="/console/alerts/silences/new">
${csrfField(o.csrf)}
${choiceGroup({ name: 'rule_ids', legend: 'Silence these alert rules', choices: o.rules, selected: valuesOf(o.values, 'rule_ids'), problem: p, empty: 'No alert rules yet.' })}
${choiceGroup({ name: 'service_ids', legend: 'And the alerts of these services', choices: o.services, selected: valuesOf(o.values, 'service_ids'), problem: p, empty: 'No services yet.' })}
${zonedDateInput({ name: 'starts_at', label: 'From', timeZone: o.zone, raw: valueOf(o.values, 'starts_at'), problem: p, hint: 'Optional: empty starts the silence now.' })}
${zonedDateInput({ name: 'ends_at', label: 'Until', timeZone: o.zone, raw: valueOf(o.values, 'ends_at'), problem: p, required: true })}
${textareaField({ name: 'reason', label: 'Reason', value: valueOf(o.values, 'reason'), problem: p, required: true, hint: 'e.g. "Database migration, expect errors"' })}
<div><button type="submit">Create silence</button> <a href="/console/alerts/silences">Cancel</a></div>
</form>`;
}
