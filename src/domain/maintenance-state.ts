/** Maintenance lifecycle, derived from timestamps only (spec §3.1). */
export const MAINTENANCE_STATES = ['scheduled', 'in_progress', 'completed', 'canceled', 'deleted'] as const;
export type MaintenanceState = (typeof MAINTENANCE_STATES)[number];

export interface MaintenanceTimestamps {
  scheduledStartAt: Date;
  scheduledEndAt: Date;
  actualStartAt?: Date | null;
  actualEndAt?: Date | null;
  canceledAt?: Date | null;
  deletedAt?: Date | null;
  startingSoonAt?: Date | null;
}

export function maintenanceState(t: MaintenanceTimestamps): MaintenanceState {
  if (t.deletedAt) return 'deleted';
  if (t.canceledAt) return 'canceled';
  if (t.actualEndAt) return 'completed';
  if (t.actualStartAt) return 'in_progress';
  return 'scheduled';
}

export const STARTING_SOON_MS = 3_600_000;

export type MaintenanceStep =
  | { kind: 'wait'; until: number; then: 'starting_soon' | 'start' | 'complete' }
  | { kind: 'now'; action: 'starting_soon' | 'start' | 'complete' }
  | { kind: 'done' };

/**
 * What the maintenance workflow does next, from the row's timestamps (ms since epoch) and the
 * workflow's clock: the one place its timers are decided, so the workflow stays a thin loop.
 */
export function nextMaintenanceStep(
  t: { start: number; end: number; state: MaintenanceState; startingSoonSent: boolean },
  now: number,
): MaintenanceStep {
  if (t.state === 'completed' || t.state === 'canceled' || t.state === 'deleted') return { kind: 'done' };
  if (t.state === 'in_progress')
    return now >= t.end ? { kind: 'now', action: 'complete' } : { kind: 'wait', until: t.end, then: 'complete' };
  if (now >= t.start) return { kind: 'now', action: 'start' };
  if (!t.startingSoonSent) {
    const soon = t.start - STARTING_SOON_MS;
    return now >= soon
      ? { kind: 'now', action: 'starting_soon' }
      : { kind: 'wait', until: soon, then: 'starting_soon' };
  }
  return { kind: 'wait', until: t.start, then: 'start' };
}
