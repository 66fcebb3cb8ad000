import { STARTING_SOON_MS, maintenanceState, nextMaintenanceStep } from '../../src/domain/maintenance-state';

const start = Date.UTC(2026, 10, 22, 12);
const end = start + 3_600_000;
const plan = (state: Parameters<typeof nextMaintenanceStep>[0]['state'], startingSoonSent: boolean, now: number) =>
  nextMaintenanceStep({ start, end, state, startingSoonSent }, now);

describe('maintenance state and the workflow plan', () => {
  it('derives the state from the timestamps', () => {
    const t = new Date(start);
    const base = { scheduledStartAt: t, scheduledEndAt: new Date(end) };
    expect(maintenanceState(base)).toBe('scheduled');
    expect(maintenanceState({ ...base, actualStartAt: t })).toBe('in_progress');
    expect(maintenanceState({ ...base, actualStartAt: t, actualEndAt: t })).toBe('completed');
    expect(maintenanceState({ ...base, actualStartAt: t, canceledAt: t })).toBe('canceled');
    expect(maintenanceState({ ...base, canceledAt: t, deletedAt: t })).toBe('deleted');
  });

  it('waits for the starting-soon moment, then the start, then the end', () => {
    expect(plan('scheduled', false, start - 2 * STARTING_SOON_MS)).toEqual({
      kind: 'wait',
      until: start - STARTING_SOON_MS,
      then: 'starting_soon',
    });
    expect(plan('scheduled', false, start - 60_000)).toEqual({ kind: 'now', action: 'starting_soon' });
    expect(plan('scheduled', true, start - 60_000)).toEqual({ kind: 'wait', until: start, then: 'start' });
    expect(plan('scheduled', true, start)).toEqual({ kind: 'now', action: 'start' });
    expect(plan('in_progress', true, start + 1)).toEqual({ kind: 'wait', until: end, then: 'complete' });
    expect(plan('in_progress', true, end)).toEqual({ kind: 'now', action: 'complete' });
  });

  it('starts at once (no starting-soon) when the start has passed, and stops when finished', () => {
    expect(plan('scheduled', false, start + 5)).toEqual({ kind: 'now', action: 'start' });
    for (const s of ['completed', 'canceled', 'deleted'] as const)
      expect(plan(s, true, start)).toEqual({ kind: 'done' });
  });
});
