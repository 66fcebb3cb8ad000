import { randomUUID } from 'node:crypto';
import {
  BUCKET_WORKFLOW_TYPE,
  MAX_BUCKET_SLOTS,
  bucketIdRange,
  bucketOf,
  bucketOffsetSeconds,
  bucketScheduleId,
  bucketScheduleOptions,
  mapBounded,
  parseBucketScheduleId,
  plannedRunAt,
  slotsFor,
} from '../../src/domain/metric-buckets';

/** uuid order as PostgreSQL compares uuids: byte by byte, i.e. the lower-case hex text. */
const inRange = (id: string, r: { from: string; below: string | null }) =>
  id.toLowerCase() >= r.from && (r.below === null || id.toLowerCase() < r.below);
const idWithLead = (lead: number) => `${lead.toString(16).padStart(8, '0')}-${randomUUID().slice(9)}`;

describe('cloud metric buckets', () => {
  it('splits an interval into one slot per second, at most MAX_BUCKET_SLOTS', () => {
    expect([5, 29, 30, 31, 60, 86_400].map(slotsFor)).toEqual([5, 29, 30, 30, 30, 30]);
    expect(MAX_BUCKET_SLOTS).toBe(30);
    expect(() => slotsFor(0)).toThrow(RangeError);
    expect(() => slotsFor(1.5)).toThrow(RangeError);
  });

  it('puts a metric in one bucket, the same every time, and its slot within the interval', () => {
    for (let i = 0; i < 500; i++) {
      const id = randomUUID();
      for (const interval of [5, 30, 60, 3_600]) {
        const b = bucketOf(id, interval);
        expect(b).toEqual(bucketOf(id, interval));
        expect(b.intervalSeconds).toBe(interval);
        expect(b.slot).toBeGreaterThanOrEqual(0);
        expect(b.slot).toBeLessThan(slotsFor(interval));
      }
    }
    expect(() => bucketOf('not-a-uuid', 30)).toThrow(RangeError);
  });

  it('spreads random ids evenly over the slots', () => {
    const counts = new Array<number>(30).fill(0);
    for (let i = 0; i < 30_000; i++) counts[bucketOf(randomUUID(), 30).slot]!++;
    for (const c of counts) expect(c).toBeGreaterThan(800); // 1,000 expected per slot
  });

  it('moves a metric to another bucket when its interval changes, and back when it changes back', () => {
    const id = idWithLead(0x80000000); // half-way: slot 15 of 30, slot 2 of 5
    expect(bucketOf(id, 30)).toEqual({ intervalSeconds: 30, slot: 15 });
    expect(bucketOf(id, 5)).toEqual({ intervalSeconds: 5, slot: 2 });
    expect(bucketOf(id, 60)).toEqual({ intervalSeconds: 60, slot: 15 });
    expect(bucketScheduleId(bucketOf(id, 30), 'vigil')).not.toBe(bucketScheduleId(bucketOf(id, 60), 'vigil'));
    expect(bucketOf(id, 30)).toEqual(bucketOf(id, 30));
  });

  it('answers the id range of a bucket, holding exactly the ids bucketOf puts there (boundaries included)', () => {
    for (const interval of [5, 7, 30, 86_400]) {
      const slots = slotsFor(interval);
      const ranges = Array.from({ length: slots }, (_, slot) => bucketIdRange({ intervalSeconds: interval, slot }));
      expect(ranges[0]!.from).toBe('00000000-0000-0000-0000-000000000000');
      expect(ranges.at(-1)!.below).toBeNull();
      for (let s = 1; s < slots; s++) expect(ranges[s]!.from).toBe(ranges[s - 1]!.below);
      const leads = [0, 1, 0xffffffff, 0x7fffffff, 0x80000000];
      for (const r of ranges) {
        const lead = Number.parseInt(r.from.slice(0, 8), 16);
        leads.push(lead, Math.max(0, lead - 1), lead + 1);
      }
      for (let i = 0; i < 300; i++) leads.push(Math.floor(Math.random() * 2 ** 32));
      for (const lead of leads) {
        const id = idWithLead(Math.min(lead, 0xffffffff));
        const { slot } = bucketOf(id, interval);
        expect(ranges.map((r) => inRange(id, r))).toEqual(ranges.map((_, s) => s === slot));
        expect(inRange(id.toUpperCase(), ranges[slot]!)).toBe(true);
      }
    }
    expect(() => bucketIdRange({ intervalSeconds: 30, slot: 30 })).toThrow(RangeError);
  });

  it('plans each bucket at its offset after every multiple of the interval since the epoch', () => {
    expect([0, 1, 7, 29].map((slot) => bucketOffsetSeconds({ intervalSeconds: 30, slot }))).toEqual([0, 1, 7, 29]);
    expect([0, 1, 29].map((slot) => bucketOffsetSeconds({ intervalSeconds: 3_600, slot }))).toEqual([0, 120, 3_480]);
    const b = { intervalSeconds: 30, slot: 7 };
    const base = Date.UTC(2026, 10, 24, 12, 0, 0); // a multiple of 30 s
    expect(plannedRunAt(b, base + 7_000)).toBe(base + 7_000);
    expect(plannedRunAt(b, base + 7_450)).toBe(base + 7_000);
    expect(plannedRunAt(b, base + 6_999)).toBe(base - 23_000);
    expect(plannedRunAt(b, base + 36_999)).toBe(base + 7_000);
    expect(plannedRunAt(b, base + 37_000)).toBe(base + 37_000);
  });

  it('describes the Schedule of a bucket: its id per task queue, interval and offset, overlap skip, the bucket workflow', () => {
    const opts = bucketScheduleOptions({ intervalSeconds: 30, slot: 7 }, 'vigil');
    expect(opts).toEqual({
      scheduleId: 'metric-bucket:vigil:30:7',
      spec: { intervals: [{ every: '30 seconds', offset: '7 seconds' }] },
      action: {
        type: 'startWorkflow',
        workflowType: BUCKET_WORKFLOW_TYPE,
        workflowId: 'metric-bucket:vigil:30:7',
        taskQueue: 'vigil',
        args: [{ intervalSeconds: 30, slot: 7 }],
        memo: { title: 'Cloud checks every 30 s, slot 7' },
      },
      policies: { overlap: 'SKIP', catchupWindow: '30 seconds' },
    });
    expect(bucketScheduleOptions({ intervalSeconds: 300, slot: 0 }, 'q').policies.catchupWindow).toBe('60 seconds');
    expect(parseBucketScheduleId('metric-bucket:test:a:b:30:7')).toEqual({
      taskQueue: 'test:a:b',
      intervalSeconds: 30,
      slot: 7,
    });
    expect(parseBucketScheduleId('metric-bucket:vigil:30:30')).toBeNull();
    expect(parseBucketScheduleId('metric:2f1c…')).toBeNull();
  });

  it('runs a batch with bounded concurrency and answers in input order', async () => {
    let running = 0;
    let most = 0;
    const out = await mapBounded([5, 1, 4, 2, 3, 0, 6], 3, async (x) => {
      running++;
      most = Math.max(most, running);
      await new Promise((r) => setTimeout(r, x));
      running--;
      return x * 10;
    });
    expect(out).toEqual([50, 10, 40, 20, 30, 0, 60]);
    expect(most).toBe(3);
    expect(await mapBounded([], 3, async (x) => x)).toEqual([]);
  });
});
