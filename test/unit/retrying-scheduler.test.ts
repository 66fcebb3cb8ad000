import { retryingMaintenanceScheduler } from '../../src/usecases/maintenances/retrying-scheduler';
import type { MaintenanceScheduler } from '../../src/usecases/maintenances/ports';
import type { MaintenanceView } from '../../src/usecases/maintenances/view';
import { eventually } from '../support/eventually';

/** The wrapper's bookkeeping, over a port that is unreachable until told otherwise (the real Temporal path is test/faults/temporal-restart.test.ts). */
function port() {
  const told: string[] = [];
  let reachable = false;
  const inner: MaintenanceScheduler = {
    async changed(_org, m) {
      if (!reachable) throw new Error('unreachable');
      told.push(m.title);
    },
  };
  return { inner, told, setReachable: (r: boolean) => (reachable = r) };
}
const view = (title: string) => ({ id: 'm-1', title }) as MaintenanceView;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('retryingMaintenanceScheduler', () => {
  it('throws to the caller, then tells the latest view in the background once the port answers', async () => {
    const p = port();
    const s = retryingMaintenanceScheduler(p.inner, { firstMs: 20, maxMs: 40 });
    await expect(s.changed('org', view('first'))).rejects.toThrow('unreachable');
    await expect(s.changed('org', view('second'))).rejects.toThrow('unreachable');
    expect(s.pending).toBe(1);
    p.setReachable(true);
    await eventually(async () => expect(s.pending).toBe(0), 2_000);
    expect(p.told).toEqual(['second']);
    s.close();
  });

  it('owes nothing once a later call got through, so no stale retry follows', async () => {
    const p = port();
    const s = retryingMaintenanceScheduler(p.inner, { firstMs: 50, maxMs: 50 });
    await expect(s.changed('org', view('first'))).rejects.toThrow();
    p.setReachable(true);
    await s.changed('org', view('second'));
    expect(s.pending).toBe(0);
    // A fixed wait that proves a negative: three of its 50 ms retry intervals pass and no stale 'first' is told.
    await sleep(150);
    expect(p.told).toEqual(['second']);
    s.close();
  });
});
