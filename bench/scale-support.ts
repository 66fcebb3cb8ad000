import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { type MetricBucket, bucketOf, plannedRunAt } from '../src/domain/metric-buckets';
import { type Stats, stats } from './support/measure';

/**
 * Helpers of bench/scale.ts: the production processes it starts, the loopback target, and the
 * drift arithmetic (pure, so the figures can be checked by hand).
 */

/** A production entry point (`dist/src/cli/<name>.js`) or the agent bin, with its output kept (the last 64 KiB). */
export interface Proc {
  name: string;
  child: ChildProcess;
  pid: number;
  output(): string;
}

export function spawnProc(name: string, file: string, env: NodeJS.ProcessEnv, nodeArgs: string[] = []): Proc {
  const child = spawn(process.execPath, [...nodeArgs, file], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const keep = (d: Buffer) => {
    out += d.toString();
    if (out.length > 65_536) out = out.slice(-65_536);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  return { name, child, pid: child.pid!, output: () => out };
}

export function waitForOutput(p: Proc, pattern: RegExp, timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    if (p.child.exitCode !== null)
      return reject(new Error(`${p.name} exited with ${p.child.exitCode}:\n${p.output().slice(-4000)}`));
    const timer = setInterval(() => {
      if (pattern.test(p.output())) done(null);
    }, 100);
    const deadline = setTimeout(
      () => done(new Error(`${p.name}: ${pattern} not seen within ${timeoutMs / 1000} s:\n${p.output().slice(-4000)}`)),
      timeoutMs,
    );
    const onExit = (code: number | null) =>
      done(new Error(`${p.name} exited with ${code}:\n${p.output().slice(-4000)}`));
    p.child.once('exit', onExit);
    function done(err: Error | null) {
      clearInterval(timer);
      clearTimeout(deadline);
      p.child.off('exit', onExit);
      if (err) reject(err);
      else resolve();
    }
  });
}

/** SIGTERM, SIGKILL after `graceMs`. */
export async function stopProc(p: Proc | null, graceMs = 20_000): Promise<void> {
  if (!p || p.child.exitCode !== null || p.child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => p.child.once('exit', () => resolve()));
  p.child.kill('SIGTERM');
  const timer = setTimeout(() => p.child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}

/** Resident and peak resident set of a process in MiB (null when gone). */
export function procRss(pid: number): { rss: number; peak: number } | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'latin1');
    const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? NaN);
    return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
  } catch {
    return null;
  }
}

export const loadavg = (): string => {
  try {
    return readFileSync('/proc/loadavg', 'latin1').split(' ').slice(0, 3).join(' ');
  } catch {
    return 'n/a';
  }
};

// ---------------------------------------------------------------------------------------------
// Drift

export interface SampleRow {
  metricId: string;
  sampledAtMs: number;
}

export interface DriftFigures {
  drift: Stats;
  samples: number;
  expected: number;
  missed: number;
}

/**
 * Cloud metrics: each sample's drift is its time minus the Schedule's nominal tick at or before
 * it (bucket Schedules: the bucket's interval grid and offset; per-metric Schedules: the interval
 * grid at offset 0). Samples whose planned tick lies in [fromMs, toMs) count; each metric is
 * expected once per such tick, so `missed` counts ticks without a sample.
 */
export function cloudDrift(
  rows: SampleRow[],
  intervalSeconds: number,
  grid: 'bucket' | 'per-metric',
  metricIds: string[],
  fromMs: number,
  toMs: number,
): DriftFigures {
  const bucket = (id: string): MetricBucket =>
    grid === 'bucket' ? bucketOf(id, intervalSeconds) : { intervalSeconds, slot: 0 };
  const drifts: number[] = [];
  const seen = new Map<string, Set<number>>();
  for (const r of rows) {
    const planned = plannedRunAt(bucket(r.metricId), r.sampledAtMs);
    if (planned < fromMs || planned >= toMs) continue;
    drifts.push(r.sampledAtMs - planned);
    const s = seen.get(r.metricId) ?? new Set<number>();
    s.add(planned);
    seen.set(r.metricId, s);
  }
  let expected = 0;
  let missed = 0;
  const every = intervalSeconds * 1000;
  for (const id of metricIds) {
    const b = bucket(id);
    let ticks = 0;
    for (let t = plannedRunAt(b, toMs - 1); t >= fromMs; t -= every) ticks++;
    expected += ticks;
    missed += Math.max(0, ticks - (seen.get(id)?.size ?? 0));
  }
  return { drift: stats(drifts), samples: drifts.length, expected, missed };
}

/**
 * Agent metrics run on the agent's own timers (first run at a random moment, then every
 * interval), whose planned ticks are not recorded. Per metric, the k-th run is planned at
 * phase + k × interval, the phase taken from the metric's least late run in the window (so that
 * run counts as on time and the figure is, if anything, low). Samples in [fromMs, toMs).
 */
export function agentDrift(
  rows: SampleRow[],
  intervalSeconds: number,
  metricIds: string[],
  fromMs: number,
  toMs: number,
): DriftFigures {
  const every = intervalSeconds * 1000;
  const byMetric = new Map<string, number[]>();
  for (const r of rows) {
    if (r.sampledAtMs < fromMs || r.sampledAtMs >= toMs) continue;
    const list = byMetric.get(r.metricId) ?? [];
    list.push(r.sampledAtMs);
    byMetric.set(r.metricId, list);
  }
  const drifts: number[] = [];
  let samples = 0;
  for (const list of byMetric.values()) {
    list.sort((a, b) => a - b);
    const first = list[0]!;
    const ks = list.map((t) => Math.round((t - first) / every));
    const phase = Math.min(...list.map((t, i) => t - ks[i]! * every));
    list.forEach((t, i) => drifts.push(t - ks[i]! * every - phase));
    samples += list.length;
  }
  const expected = Math.floor((toMs - fromMs) / every) * metricIds.length;
  return { drift: stats(drifts), samples, expected, missed: Math.max(0, expected - samples) };
}

// ---------------------------------------------------------------------------------------------
// A round's phases, read from its Temporal history

/** The parts of a history event the timeline reads (temporal.api.history.v1.HistoryEvent). */
interface HistoryEventLike {
  eventId?: { toNumber(): number } | number | null;
  eventTime?: { seconds?: { toNumber(): number } | number | null; nanos?: number | null } | null;
  eventType?: number | null;
  [attributes: string]: unknown;
}

const num = (x: { toNumber(): number } | number | null | undefined): number =>
  typeof x === 'number' ? x : x ? x.toNumber() : 0;
const timeOf = (e: HistoryEventLike): number =>
  num(e.eventTime?.seconds) * 1000 + Math.floor((e.eventTime?.nanos ?? 0) / 1e6);
const payloadBytes = (
  p:
    | { payloads?: Array<{ data?: Uint8Array | null; metadata?: Record<string, Uint8Array> | null }> | null }
    | null
    | undefined,
): number => (p?.payloads ?? []).reduce((a, x) => a + (x.data?.length ?? 0), 0);

/** A round's timeline: each step's offset from the workflow's start (ms), what it waited for, and the payload bytes it carried. */
export interface RoundTimeline {
  startedMs: number;
  totalMs: number;
  historyBytes: number;
  events: number;
  steps: string[];
  /** Workflow tasks: schedule-to-start latency of each (ms). */
  taskWaitsMs: number[];
}

/**
 * Reads a round's history (event types by the proto enum's numbers: 1 started, 2 completed,
 * 5 task scheduled, 6 task started, 7 task completed, 10 activity scheduled, 11 started,
 * 12 completed, 13 failed, 14 timed out, 25 marker recorded).
 */
export function roundTimeline(events: HistoryEventLike[]): RoundTimeline {
  const t0 = events.length ? timeOf(events[0]!) : 0;
  const at = (e: HistoryEventLike) => `+${timeOf(e) - t0}`;
  const steps: string[] = [];
  const taskWaitsMs: number[] = [];
  const activities = new Map<number, { id: string; scheduled: number; started?: number; inBytes: number }>();
  let taskScheduled = 0;
  let taskStarted = 0;
  let historyBytes = 0;
  for (const e of events) {
    const id = num(e.eventId as never);
    switch (e.eventType) {
      case 1: {
        const a = e.workflowExecutionStartedEventAttributes as { input?: never } | undefined;
        historyBytes += payloadBytes(a?.input);
        break;
      }
      case 5:
        taskScheduled = timeOf(e);
        break;
      case 6:
        taskStarted = timeOf(e);
        taskWaitsMs.push(taskStarted - taskScheduled);
        steps.push(`${at(e)} task picked up after ${taskStarted - taskScheduled} ms`);
        break;
      case 7:
        steps.push(`${at(e)} task completed (ran ${timeOf(e) - taskStarted} ms)`);
        break;
      case 25: {
        const a = e.markerRecordedEventAttributes as
          { markerName?: string; details?: Record<string, never> } | undefined;
        const bytes = Object.values(a?.details ?? {}).reduce((s: number, p) => s + payloadBytes(p), 0);
        historyBytes += bytes;
        steps.push(`${at(e)} marker ${a?.markerName ?? '?'} ${bytes} B`);
        break;
      }
      case 10: {
        const a = e.activityTaskScheduledEventAttributes as { activityId?: string; input?: never } | undefined;
        const inBytes = payloadBytes(a?.input);
        historyBytes += inBytes;
        activities.set(id, { id: a?.activityId ?? '?', scheduled: timeOf(e), inBytes });
        break;
      }
      case 11: {
        const a = e.activityTaskStartedEventAttributes as { scheduledEventId?: never } | undefined;
        const act = activities.get(num(a?.scheduledEventId));
        if (act) act.started = timeOf(e);
        break;
      }
      case 12:
      case 13:
      case 14: {
        const a = (e.activityTaskCompletedEventAttributes ??
          e.activityTaskFailedEventAttributes ??
          e.activityTaskTimedOutEventAttributes) as { scheduledEventId?: never; result?: never } | undefined;
        const act = activities.get(num(a?.scheduledEventId));
        const outBytes = payloadBytes(a?.result);
        historyBytes += outBytes;
        if (act) {
          const how = e.eventType === 12 ? 'completed' : e.eventType === 13 ? 'failed' : 'timed out';
          steps.push(
            `${at(e)} ${act.id} ${how}: scheduled +${act.scheduled - t0}, picked up after ${act.started ? act.started - act.scheduled : 'never'} ms, ran ${act.started ? timeOf(e) - act.started : '-'} ms; in ${act.inBytes} B, out ${outBytes} B`,
          );
        }
        break;
      }
      case 2:
        steps.push(`${at(e)} workflow completed`);
        break;
      default:
        break;
    }
  }
  const last = events.at(-1);
  return {
    startedMs: t0,
    totalMs: last ? timeOf(last) - t0 : 0,
    historyBytes,
    events: events.length,
    steps,
    taskWaitsMs,
  };
}
