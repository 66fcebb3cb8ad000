import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { lockOrganizationForConfig } from '../../db/repositories/config-lock-repository';
import { CONFIG_KINDS } from '../../domain/config/kinds';
import { type PlanSummary, type PlannedChange, changesAnything, summarize } from '../../domain/config/plan';
import { type FieldError, ProblemError } from '../../domain/error-catalog';
import type { SecretBox } from '../../crypto/secret-box';
import type { OrgContext } from '../shared/context';
import type { MetricScheduler } from '../metrics/ports';
import { syncSchedule as syncMetricSchedule } from '../metrics/metrics';
import type { SlaWorkflows } from '../sla/ports';
import { syncSchedule as syncContractSchedule } from '../sla/contracts';
import { guardConfigKey } from '../shared/config-keys';
import type { ApplyOptions, ParsedDocument } from './document';
import { type ConfigPlan, buildPlan, plannedChanges } from './plan';
import { type WriteOutcome, writePlan } from './writes';

export interface ConfigPorts {
  box: SecretBox;
  metricScheduler: MetricScheduler;
  slaWorkflows: SlaWorkflows;
  /** How long an apply waits for another one of the organization before answering config_busy. */
  lockTimeoutMs?: number;
}

export interface ApplyResult {
  dry_run: boolean;
  applied: boolean;
  prune: boolean;
  changed: boolean;
  summary: PlanSummary;
  changes: PlannedChange[];
  warnings: FieldError[];
  secrets: WriteOutcome['secrets'];
  inbound: WriteOutcome['inbound'];
}

export const CONFIG_LOCK_TIMEOUT_MS = 30_000;
/** Temporal calls after the commit, a few at a time: enough to keep a large apply quick, few enough not to swamp the frontend. */
const SCHEDULE_SYNC_CONCURRENCY = 8;

/**
 * applyConfig (spec §4.8): the whole document judged first (config_invalid, in_use, quotas), then
 * written in one transaction while the organization's lock is held, so applies run one at a time.
 * A dry run answers the same plan and writes nothing. Schedules follow after the commit.
 */
export async function applyConfig(
  ctx: OrgContext,
  ports: ConfigPorts,
  doc: ParsedDocument,
  options: ApplyOptions,
): Promise<ApplyResult> {
  if (options.dryRun) return resultOf(await buildPlan(ctx, doc, options), options, null);
  // Items created meanwhile without the organization's lock (SLOs take none) can still take a key first.
  const { plan, outcome } = await guardConfigKey('item', null, () =>
    guardSubdomain(() =>
      ctx.em.transactional(async (tx) => {
        const t: OrgContext = { ...ctx, em: tx };
        if (!(await lockOrganizationForConfig(t.em, ctx.org.id, ports.lockTimeoutMs ?? CONFIG_LOCK_TIMEOUT_MS))) {
          throw new ProblemError(
            'config_busy',
            'Another configuration apply for this organization is still running; retry when it has finished.',
          );
        }
        const built = await buildPlan(t, doc, options);
        const written = changesAnything(built.items) ? await writePlan(t, t.em, ports.box, built.items) : null;
        return { plan: built, outcome: written };
      }),
    ),
  );
  if (outcome) await followCommit(ctx, ports, outcome);
  return resultOf(plan, options, outcome);
}

/** Another organization's page created meanwhile can take a subdomain the plan found free. */
async function guardSubdomain<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (!(err instanceof UniqueConstraintViolationException) || !/subdomain/.test(err.message)) throw err;
    throw new ProblemError(
      'subdomain_taken',
      "Another status page took one of the document's subdomains meanwhile; plan again.",
      { errors: [{ path: 'subdomain', message: 'Already in use' }] },
    );
  }
}

function resultOf(plan: ConfigPlan, options: ApplyOptions, outcome: WriteOutcome | null): ApplyResult {
  const order = new Map(CONFIG_KINDS.map((k, i) => [k, i]));
  const changes = plannedChanges(plan, options.dryRun).sort((a, b) => order.get(a.kind)! - order.get(b.kind)!);
  return {
    dry_run: options.dryRun,
    applied: !options.dryRun,
    prune: options.prune,
    changed: changesAnything(plan.items),
    summary: summarize(changes),
    changes,
    warnings: plan.warnings,
    secrets: outcome?.secrets ?? [],
    inbound: outcome?.inbound ?? [],
  };
}

/** The metrics' cloud Schedules and the contracts' statement Schedules follow the committed rows. */
async function followCommit(ctx: OrgContext, ports: ConfigPorts, outcome: WriteOutcome): Promise<void> {
  const tasks: Array<() => Promise<void>> = [
    // A metric this apply created (writePlan stamps it with ctx.now) gets its first check, coalesced with the others'.
    ...outcome.metrics.map(
      (m) => () =>
        syncMetricSchedule(ctx, { scheduler: ports.metricScheduler }, m, {
          created: m.createdAt.getTime() === ctx.now.getTime(),
        }),
    ),
    ...outcome.contracts.map((c) => () => syncContractSchedule(ctx, c, ports.slaWorkflows)),
  ];
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) await tasks[next++]!();
  };
  await Promise.all(Array.from({ length: Math.min(SCHEDULE_SYNC_CONCURRENCY, tasks.length) }, worker));
}
