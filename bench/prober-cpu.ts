import { fork } from 'node:child_process';
import http from 'node:http';
import { createProbeLocationActivities, LOCATION_CHECK_CONCURRENCY } from '../src/activities/probe-location';
import type { CompactBatch, CompactBatchAnswer } from '../src/domain/metric-rounds';
import { mapBounded } from '../src/domain/metric-buckets';
import { PROBES } from '../src/probes/registry';
import { startTarget } from './loopback-target';

/**
 * bench/prober-cpu: the CPU a probe location spends per HTTP check. In this process:
 * the location's own `probeChecks` activity (createProbeLocationActivities, as `vigil-prober` runs
 * it: source address 127.0.0.11, cloud rules, batches of 64 checks) against a loopback target in a
 * child process, and as the baseline in the same run a bare `http.get` with a fresh connection per
 * request (agent: false), the least any check that opens its own connection can cost, at the same
 * concurrency. Reports CPU µs per check for both and their ratio; rounds alternate so machine noise
 * hits both alike.
 *
 * VIGIL_PROBER_CPU_TARGET=keeps makes the target keep connections open, so the location closes
 * first and each closed connection waits in TIME_WAIT on the bound source address: past about
 * 20,000 of them (of the address's 28,232 ephemeral ports) every bind() searches the port range and
 * connects start to fail. That is what bound bench:scale at 10,000 × 3 before its target closed
 * first (docs/operations.md, "From three locations").
 *
 *   npm run bench:prober-cpu   (VIGIL_PROBER_CPU_CHECKS=15000 per side per round, VIGIL_PROBER_CPU_ROUNDS=3,
 *                               VIGIL_PROBER_CPU_TARGET=closes|keeps, VIGIL_PROBER_CPU_SOURCE=127.0.0.11|none)
 */
const CHECKS = Number(process.env.VIGIL_PROBER_CPU_CHECKS ?? 15_000);
const ROUNDS = Number(process.env.VIGIL_PROBER_CPU_ROUNDS ?? 3);
const BATCH = 64;
/** The target closes each connection after its answer (as bench:scale's does), unless VIGIL_PROBER_CPU_TARGET=keeps. */
const TARGET_MODE = process.env.VIGIL_PROBER_CPU_TARGET ?? 'closes';
if (TARGET_MODE !== 'closes' && TARGET_MODE !== 'keeps')
  throw new Error(`VIGIL_PROBER_CPU_TARGET must be closes or keeps, not ${TARGET_MODE}`);
const CLOSE = TARGET_MODE === 'closes';
/** The location's source address (VIGIL_PROBE_SOURCE_ADDRESS); VIGIL_PROBER_CPU_SOURCE=none binds nothing, as a production location. */
const SOURCE =
  process.env.VIGIL_PROBER_CPU_SOURCE === 'none' ? undefined : (process.env.VIGIL_PROBER_CPU_SOURCE ?? '127.0.0.11');

async function serveTarget(): Promise<void> {
  const target = await startTarget({ closeConnections: CLOSE });
  process.send?.(target.origin);
}

const cpuMicros = () => {
  const u = process.cpuUsage();
  return u.user + u.system;
};

async function measure(run: () => Promise<number>): Promise<{ usPerCheck: number; ok: number; wallMs: number }> {
  const cpu = cpuMicros();
  const wall = performance.now();
  const ok = await run();
  return { usPerCheck: (cpuMicros() - cpu) / CHECKS, ok, wallMs: performance.now() - wall };
}

function bareGet(origin: string): Promise<boolean> {
  return new Promise((resolve) => {
    const req = http.get(
      `${origin}/`,
      { agent: false, ...(SOURCE ? { localAddress: SOURCE } : {}), timeout: 10_000 },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode === 200));
      },
    );
    req.on('error', () => resolve(false));
    req.on('timeout', () => req.destroy());
  });
}

async function main(): Promise<void> {
  const child = fork(__filename, ['--target'], { stdio: 'inherit' });
  const origin = await new Promise<string>((resolve) => child.once('message', (m) => resolve(String(m))));
  const location = createProbeLocationActivities({
    location: 'bench',
    prober: {
      registry: PROBES,
      allowCidrs: '127.0.0.0/8',
      defaultTimeoutMs: 10_000,
      ...(SOURCE ? { localAddress: SOURCE } : {}),
    },
  });
  const batch: CompactBatch = {
    ids: Array.from({ length: BATCH }, (_, i) => `m${i}`),
    sources: Array.from(
      { length: BATCH },
      () =>
        ['http', { url: `${origin}/health`, method: 'GET', expected_status: 200 }] as [string, Record<string, unknown>],
    ),
  };
  // Rounds start a batch per location per bucket at once: enough batches in flight to keep 64 checks each busy.
  const inFlightBatches = 4;
  const probed = async () => {
    let ok = 0;
    const batches = Math.ceil(CHECKS / BATCH);
    await mapBounded(
      Array.from({ length: batches }, (_, i) => i),
      inFlightBatches,
      async () => {
        const answer = (await location.probeChecks(batch)) as CompactBatchAnswer;
        ok += answer.results.filter(([value]) => value !== null).length;
      },
    );
    return ok;
  };
  const bare = async () => {
    let ok = 0;
    await mapBounded(
      Array.from({ length: CHECKS }, (_, i) => i),
      inFlightBatches * LOCATION_CHECK_CONCURRENCY,
      async () => {
        if (await bareGet(origin)) ok++;
      },
    );
    return ok;
  };
  console.log(
    `bench/prober-cpu: ${CHECKS} HTTP checks per side per round, ${ROUNDS} rounds, target ${CLOSE ? 'closes' : 'keeps'} connections, source address ${SOURCE ?? 'none'}, ${inFlightBatches} batches of ${BATCH} in flight (${inFlightBatches * LOCATION_CHECK_CONCURRENCY} checks at once)`,
  );
  await probed(); // warm-up: JIT, undici's first connections
  await bare();
  const p: number[] = [];
  const b: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const base = await measure(bare);
    const probe = await measure(probed);
    b.push(base.usPerCheck);
    p.push(probe.usPerCheck);
    console.log(
      `  round ${r + 1}: bare http.get ${base.usPerCheck.toFixed(0)} µs/check (${base.ok} ok, ${((CHECKS / base.wallMs) * 1000).toFixed(0)}/s); location probeChecks ${probe.usPerCheck.toFixed(0)} µs/check (${probe.ok} ok, ${((CHECKS / probe.wallMs) * 1000).toFixed(0)}/s); ratio ${(probe.usPerCheck / base.usPerCheck).toFixed(2)}`,
    );
  }
  const med = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;
  console.log(
    `median: location ${med(p).toFixed(0)} µs CPU per check, bare ${med(b).toFixed(0)} µs; ratio ${(med(p) / med(b)).toFixed(2)} (the target's CPU is in its own process, not counted)`,
  );
  child.kill();
}

const fail = (err: unknown) => {
  console.error(err);
  process.exit(1);
};
if (process.argv.includes('--target')) serveTarget().catch(fail);
else main().catch(fail);
