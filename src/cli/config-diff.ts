/**
 * The human output of `vigil config plan|apply` (src/cli/config-command.ts): a plan or an applied
 * result of `POST /v1/config/apply` as Terraform-like lines, and a problem+json answer as error
 * lines. Pure: no I/O, so it is unit tested on hand-written answers.
 */

export type ConfigKind = 'customer' | 'service' | 'metric' | 'slo' | 'status_page' | 'webhook' | 'contract';
export type ChangeAction = 'create' | 'update' | 'delete' | 'unchanged';

export interface FieldChange {
  /** A dotted path: `name`, `source_config.url`, `thresholds.healthy_value`. */
  field: string;
  before: unknown;
  after: unknown;
}

export interface ConfigChange {
  kind: ConfigKind | string;
  /** Null only for an item without one that a deleted service takes with it. */
  config_key: string | null;
  name?: string;
  action: ChangeAction;
  id: string | null;
  diff: FieldChange[];
}

export interface PathMessage {
  path: string;
  message: string;
}

export interface CreatedWebhookSecret {
  config_key: string;
  webhook_id: string;
  secret: string;
}

/** The inbound URL of a heartbeat or alert metric the apply created (it holds the metric's token). */
export interface CreatedInboundUrl {
  config_key: string;
  metric_id: string;
  url: string;
}

export interface ChangeCounts {
  create: number;
  update: number;
  delete: number;
  unchanged: number;
}

/** The 200 answer of `POST /v1/config/apply`, dry run or not. */
export interface ConfigPlan {
  dry_run: boolean;
  applied: boolean;
  prune: boolean;
  changed: boolean;
  summary: ChangeCounts;
  changes: ConfigChange[];
  warnings?: PathMessage[];
  secrets?: CreatedWebhookSecret[];
  inbound_urls?: CreatedInboundUrl[];
}

interface Reference {
  id: string;
  config_key: string | null;
  name: string;
}

/** An application/problem+json answer, with the extensions the config routes use. */
export interface Problem {
  title: string;
  status?: number;
  detail?: string;
  errors?: PathMessage[];
  warnings?: PathMessage[];
  referenced_by?: { slos?: Reference[]; pages?: Reference[]; subscribers?: number; sla_statements?: number };
  quota?: { capability: string; used: number | null; cap: number | null; plan: string | null };
  upgrade?: { plan: string; label: string; url: string };
  retry_after?: number;
}

/** Lines for stdout and for stderr. */
export interface OutputLines {
  out: string[];
  err: string[];
}

export const MAX_VALUE_LENGTH = 120;

const ANSI = { green: 32, yellow: 33, red: 31, bold: 1 } as const;
type Style = keyof typeof ANSI;
type Paint = (text: string, style: Style) => string;

const plain: Paint = (text) => text;
const ansi: Paint = (text, style) => `\u001b[${ANSI[style]}m${text}\u001b[0m`;

const SYMBOL: Record<Exclude<ChangeAction, 'unchanged'>, { sign: string; style: Style }> = {
  create: { sign: '+', style: 'green' },
  update: { sign: '~', style: 'yellow' },
  delete: { sign: '-', style: 'red' },
};

export const NO_CHANGES = 'No changes. The configuration matches the document.';

/** Colour only for a terminal, and never when NO_COLOR is set (https://no-color.org). */
export function wantsColour(stdoutIsTTY: boolean | undefined, env: Record<string, string | undefined>): boolean {
  return stdoutIsTTY === true && env.NO_COLOR === undefined;
}

/** A value as JSON (`null` for an absent one), cut to `max` characters with an ellipsis. */
export function formatValue(value: unknown, max = MAX_VALUE_LENGTH): string {
  const json = JSON.stringify(value === undefined ? null : value) ?? 'null';
  return json.length <= max ? json : `${json.slice(0, max - 1)}…`;
}

function fieldLines(change: ConfigChange): string[] {
  if (change.action === 'create') return change.diff.map((d) => `    ${d.field}: ${formatValue(d.after)}`);
  if (change.action === 'update')
    return change.diff.map((d) => `    ${d.field}: ${formatValue(d.before)} → ${formatValue(d.after)}`);
  return [];
}

/** The item by its config_key, or by its name and id for one that has none. */
function itemLabel(change: ConfigChange): string {
  if (change.config_key !== null) return change.config_key;
  return `${JSON.stringify(change.name ?? '')}${change.id ? ` (${change.id})` : ''}`;
}

function changeLines(change: ConfigChange, paint: Paint): string[] {
  if (change.action === 'unchanged') return [];
  const { sign, style } = SYMBOL[change.action];
  return [paint(`${sign} ${change.kind} ${itemLabel(change)}`, style), ...fieldLines(change)];
}

function summaryLine(counts: ChangeCounts, applied: boolean): string {
  if (applied)
    return `Applied: ${counts.create} created, ${counts.update} updated, ${counts.delete} deleted, ${counts.unchanged} unchanged.`;
  return `Plan: ${counts.create} to create, ${counts.update} to update, ${counts.delete} to delete, ${counts.unchanged} unchanged.`;
}

/** What an apply shows only once: the created webhooks' secrets and metrics' inbound URLs. */
function shownOnceLines(plan: ConfigPlan): string[] {
  const secrets = plan.secrets ?? [];
  const inbound = plan.inbound_urls ?? [];
  const lines: string[] = [];
  if (secrets.length) {
    lines.push('', 'Webhook signing secrets (shown once; store them now, they cannot be read again):');
    lines.push(...secrets.map((s) => `  ${s.config_key} (webhook ${s.webhook_id}): ${s.secret}`));
  }
  if (inbound.length) {
    lines.push('', 'Inbound URLs of the new heartbeat and alert metrics (shown once; store them now):');
    lines.push(...inbound.map((i) => `  ${i.config_key} (metric ${i.metric_id}): ${i.url}`));
  }
  return lines;
}

export function warningLines(warnings: PathMessage[] | undefined): string[] {
  return (warnings ?? []).map((w) => (w.path ? `warning: ${w.path}: ${w.message}` : `warning: ${w.message}`));
}

/** Whether the answer plans (or made) any change; `changed` when the server says, else the counts. */
export function hasChanges(plan: ConfigPlan): boolean {
  if (typeof plan.changed === 'boolean') return plan.changed;
  return plan.summary.create + plan.summary.update + plan.summary.delete > 0;
}

/** The plan (a dry run) or the applied result as lines: one per change, then the summary. */
export function formatPlan(plan: ConfigPlan, opts: { colour: boolean }): OutputLines {
  const paint = opts.colour ? ansi : plain;
  const err = warningLines(plan.warnings);
  const shownOnce = shownOnceLines(plan);
  if (!hasChanges(plan)) return { out: [NO_CHANGES, ...shownOnce], err };
  const out = plan.changes.flatMap((c) => changeLines(c, paint));
  out.push('', paint(summaryLine(plan.summary, !plan.dry_run), 'bold'), ...shownOnce);
  return { out, err };
}

function referenceName(ref: Reference): string {
  return `"${ref.name}" (${ref.config_key ?? ref.id})`;
}

function referencedByLines(refs: NonNullable<Problem['referenced_by']>): string[] {
  const lines = [
    ...(refs.slos ?? []).map((r) => `  used by SLO ${referenceName(r)}`),
    ...(refs.pages ?? []).map((r) => `  shown on status page ${referenceName(r)}`),
  ];
  if (refs.subscribers) lines.push(`  ${refs.subscribers} status page subscriber(s) would be affected`);
  if (refs.sla_statements) lines.push(`  ${refs.sla_statements} SLA statement(s) were issued under it`);
  return lines;
}

function quotaLines(quota: NonNullable<Problem['quota']>, upgrade: Problem['upgrade']): string[] {
  const used = quota.used === null ? '' : `${quota.used} used, `;
  const cap = quota.cap === null ? 'no limit' : `limit ${quota.cap}`;
  const plan = quota.plan ? ` on the ${quota.plan} plan` : '';
  const lines = [`  quota: ${quota.capability}: ${used}${cap}${plan}`];
  if (upgrade) lines.push(`  ${upgrade.label}: ${upgrade.url}`);
  return lines;
}

/** A problem answer as stderr lines: `error: <title>: <detail>`, then its details indented. */
export function formatProblem(problem: Problem): string[] {
  const lines = [problem.detail ? `error: ${problem.title}: ${problem.detail}` : `error: ${problem.title}`];
  for (const e of problem.errors ?? []) lines.push(`  ${e.path || '(document)'}: ${e.message}`);
  if (problem.referenced_by) lines.push(...referencedByLines(problem.referenced_by));
  if (problem.quota) lines.push(...quotaLines(problem.quota, problem.upgrade));
  if (typeof problem.retry_after === 'number') lines.push(`  retry after ${problem.retry_after} s`);
  lines.push(...warningLines(problem.warnings));
  return lines;
}
