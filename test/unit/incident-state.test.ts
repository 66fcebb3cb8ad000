import { incidentState } from '../../src/domain/incident-state';

const t = new Date('2026-11-22T00:00:00.000Z');

describe('incident state from timestamps (spec §3.1)', () => {
  it.each([
    [{}, 'draft'],
    [{ publishedAt: t }, 'published'],
    [{ publishedAt: t, resolvedAt: t }, 'resolved'],
    [{ publishedAt: t, canceledAt: t }, 'canceled'],
    [{ publishedAt: t, resolvedAt: t, deletedAt: t }, 'deleted'],
    [{ deletedAt: t }, 'deleted'],
    [{ publishedAt: null, resolvedAt: null }, 'draft'],
  ])('%j is %s', (stamps, state) => expect(incidentState(stamps)).toBe(state));
});
