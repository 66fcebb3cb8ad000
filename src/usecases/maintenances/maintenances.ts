import { randomUUID } from 'node:crypto';
import { MaintenanceMessageSchema, MaintenanceSchema } from '../../db/entities';
import { pageOf } from '../../domain/cursor';
import { ProblemError } from '../../domain/error-catalog';
import { type CreateWarning, audienceWarnings } from '../../domain/status-page/audience-warnings';
import { type MaintenanceState, maintenanceState } from '../../domain/maintenance-state';
import { assertServicesExist } from '../shared/org-refs';
import { type OrgContext, type UnitOfWork, ownTransaction } from '../shared/context';
import { NEWEST_FIRST, afterCursor } from '../shared/keyset';
import { recordEvent } from '../events/outbox';
import { assertOpen, recordReschedule } from './messages';
import type { MaintenanceScheduler } from './ports';
import { rescheduleNote } from './reschedule-note';
import { type MaintenanceTransition, applyMaintenanceTransition, loadMaintenance, viewOf } from './transitions';
import { type MaintenanceView, maintenanceView } from './view';

export interface MaintenanceInput {
  title: string;
  description?: string | null;
  affected_services?: string[];
  scheduled_start_at: Date;
  scheduled_end_at: Date;
}

export type MaintenancePatch = Partial<MaintenanceInput>;

function assertWindow(start: Date, end: Date): void {
  if (end.getTime() <= start.getTime()) {
    throw new ProblemError('validation_failed', 'scheduled_end_at must be after scheduled_start_at.', {
      errors: [{ path: 'scheduled_end_at', message: 'Must be after scheduled_start_at' }],
    });
  }
}

/**
 * A window that has already ended would start and complete at once and be published as if it
 * had happened: refused. One that started in the past and ends later starts at once.
 */
function assertNotEnded(end: Date, now: Date): void {
  if (end.getTime() <= now.getTime()) {
    const message = `The window has already ended: scheduled_end_at (${end.toISOString()}) is not after now (${now.toISOString()}). A maintenance is scheduled ahead or in progress; record a past one as an incident.`;
    throw new ProblemError('validation_failed', message, { errors: [{ path: 'scheduled_end_at', message }] });
  }
}

export interface MaintenancePorts {
  scheduler: MaintenanceScheduler;
}

/**
 * The row is the truth; its workflow is told after commit and re-reads the row. A workflow that
 * cannot be reached now is started by the housekeeping sweep within minutes.
 */
async function tellWorkflow(ctx: OrgContext, ports: MaintenancePorts, view: MaintenanceView): Promise<MaintenanceView> {
  try {
    await ports.scheduler.changed(ctx.org.id, view);
  } catch (err) {
    ctx.log?.error(
      { err, maintenance_id: view.id },
      'could not reach the maintenance workflow; the housekeeping sweep starts it within minutes',
    );
  }
  return view;
}

/** Schedules a maintenance (event maintenance.scheduled), then starts its workflow. */
export async function createMaintenance(
  ctx: OrgContext,
  ports: MaintenancePorts,
  input: MaintenanceInput,
  unit: UnitOfWork = ownTransaction(ctx),
): Promise<MaintenanceView & { warnings: CreateWarning[] }> {
  assertWindow(input.scheduled_start_at, input.scheduled_end_at);
  // Inside the unit, so that a replayed Idempotency-Key answers the first answer even after the window.
  const made = await unit(async (em) => {
    assertNotEnded(input.scheduled_end_at, ctx.now);
    const view = await insertMaintenance({ ...ctx, em }, input);
    return { ...view, warnings: audienceWarnings('maintenance', view.affected_services) };
  });
  const { warnings, ...view } = made;
  await tellWorkflow(ctx, ports, view);
  return { ...view, warnings };
}

async function insertMaintenance(ctx: OrgContext, input: MaintenanceInput): Promise<MaintenanceView> {
  const { em } = ctx;
  const services = [...new Set(input.affected_services ?? [])];
  await assertServicesExist(ctx, services, 'affected_services');
  const m = em.create(MaintenanceSchema, {
    id: randomUUID(),
    organization: ctx.org.id,
    title: input.title,
    description: input.description ?? null,
    affectedServices: services,
    scheduledStartAt: input.scheduled_start_at,
    scheduledEndAt: input.scheduled_end_at,
    actualStartAt: null,
    actualEndAt: null,
    canceledAt: null,
    deletedAt: null,
    startingSoonAt: null,
    createdAt: ctx.now,
    updatedAt: ctx.now,
  });
  await em.flush();
  const view = maintenanceView(m, []);
  recordEvent(em, {
    organizationId: ctx.org.id,
    type: 'maintenance.scheduled',
    resourceKind: 'maintenance',
    resourceId: m.id,
    payload: view,
    now: ctx.now,
  });
  await em.flush();
  return view;
}

/** Starts, completes or cancels a maintenance by hand (409 when it cannot apply), then tells its workflow. */
export async function moveMaintenance(
  ctx: OrgContext,
  ports: MaintenancePorts,
  id: string,
  transition: Exclude<MaintenanceTransition, 'starting_soon'>,
): Promise<MaintenanceView> {
  const { view } = await applyMaintenanceTransition(
    ctx.em,
    { organizationId: ctx.org.id, maintenanceId: id },
    transition,
    ctx.now,
    { strict: true },
  );
  return tellWorkflow(ctx, ports, view);
}

export async function getMaintenance(ctx: OrgContext, id: string): Promise<MaintenanceView> {
  return viewOf(ctx.em, await loadMaintenance(ctx.em, { organizationId: ctx.org.id, maintenanceId: id }));
}

export async function listMaintenances(
  ctx: OrgContext,
  q: { limit: number; cursor?: string; state?: Exclude<MaintenanceState, 'deleted'> },
) {
  const filters: Record<Exclude<MaintenanceState, 'deleted'>, object> = {
    scheduled: { actualStartAt: null, canceledAt: null },
    in_progress: { actualStartAt: { $ne: null }, actualEndAt: null, canceledAt: null },
    completed: { actualEndAt: { $ne: null }, canceledAt: null },
    canceled: { canceledAt: { $ne: null } },
  };
  const rows = await ctx.em.find(
    MaintenanceSchema,
    { organization: ctx.org.id, deletedAt: null, ...(q.state ? filters[q.state] : {}), ...afterCursor(q.cursor) },
    { orderBy: NEWEST_FIRST, limit: q.limit + 1 },
  );
  const page = pageOf(rows, q.limit);
  const messages = page.items.length
    ? await ctx.em.find(MaintenanceMessageSchema, { maintenance: { $in: page.items.map((m) => m.id) } })
    : [];
  return {
    items: page.items.map((m) =>
      maintenanceView(
        m,
        messages.filter((x) => x.maintenance === m.id),
      ),
    ),
    nextCursor: page.nextCursor,
  };
}

/**
 * Edits title, description, services and times; the start can move only before it happened, the end
 * until completion. A move of either time is recorded on the timeline ("Rescheduled from … to …").
 */
export async function updateMaintenance(
  ctx: OrgContext,
  ports: MaintenancePorts,
  id: string,
  patch: MaintenancePatch,
): Promise<MaintenanceView> {
  return tellWorkflow(ctx, ports, await patchMaintenance(ctx, id, patch));
}

async function patchMaintenance(ctx: OrgContext, id: string, patch: MaintenancePatch): Promise<MaintenanceView> {
  return ctx.em.transactional(async (tx) => {
    const em = tx;
    const m = await loadMaintenance(em, { organizationId: ctx.org.id, maintenanceId: id }, true);
    assertOpen(m);
    const before = { start: m.scheduledStartAt, end: m.scheduledEndAt };
    if (patch.scheduled_start_at !== undefined && maintenanceState(m) !== 'scheduled') {
      throw new ProblemError('already_started', 'The maintenance has started; only its end can move.');
    }
    if (patch.affected_services !== undefined) {
      const services = [...new Set(patch.affected_services)];
      await assertServicesExist({ ...ctx, em }, services, 'affected_services');
      m.affectedServices = services;
    }
    if (patch.title !== undefined) m.title = patch.title;
    if (patch.description !== undefined) m.description = patch.description;
    if (patch.scheduled_start_at !== undefined) m.scheduledStartAt = patch.scheduled_start_at;
    if (patch.scheduled_end_at !== undefined) m.scheduledEndAt = patch.scheduled_end_at;
    assertWindow(m.scheduledStartAt, m.scheduledEndAt);
    if (patch.scheduled_start_at !== undefined || patch.scheduled_end_at !== undefined)
      assertNotEnded(m.scheduledEndAt, ctx.now);
    const after = { start: m.scheduledStartAt, end: m.scheduledEndAt };
    if (before.start.getTime() !== after.start.getTime() || before.end.getTime() !== after.end.getTime()) {
      recordReschedule(em, ctx.org.id, m, rescheduleNote(before, after), ctx.now);
    }
    m.updatedAt = ctx.now;
    await em.flush();
    return viewOf(em, m);
  });
}
