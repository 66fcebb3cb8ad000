import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { type ProbeOutcome, noValue } from '../probes/types';

/**
 * Custom probes: functions the user registers in one module on the agent host, named by the
 * environment variable VIGIL_CUSTOM_PROBES_MODULE. The module (CommonJS, or ESM — `export async
 * function name`, or an object as default export) exports named functions
 *
 *   async (config, { env, signal }) => number | { value: number, metadata?: { key: scalar } }
 *
 * `env` is the agent's environment (secrets stay on the host); `signal` aborts at the timeout.
 *
 * Decisions:
 * - custom_probe_config_invalid: the config is not a plain object (checked before the call), or
 *   the function throws an error whose `name` is 'ConfigError' (its message in metadata.error).
 * - custom_probe_timeout: default 10 s, at most 30 s (larger values are clamped). A function that
 *   blocks the event loop synchronously cannot be interrupted.
 * - custom_probe_error: any other throw or rejection; metadata.error = message, metadata.stack =
 *   the first 5 lines of the stack.
 * - custom_probe_bad_return: anything but a number or a plain object with a numeric `value` (a
 *   numeric string is refused too), or metadata that is not a plain object; non_finite_value for
 *   NaN or ±Infinity.
 *   Metadata keeps string (≤ 500 chars), finite number, boolean and null entries, at most 20.
 * - The module is loaded once (Node's require cache); restart the agent after changing it.
 */

export const CUSTOM_PROBES_MODULE_ENV = 'VIGIL_CUSTOM_PROBES_MODULE';
export const CUSTOM_PROBE_MAX_TIMEOUT_MS = 30_000;
export const CUSTOM_PROBE_DEFAULT_TIMEOUT_MS = 10_000;

export interface CustomProbeContext {
  env: Readonly<Record<string, string | undefined>>;
  signal: AbortSignal;
}
export type CustomProbeResult = number | { value: number; metadata?: Record<string, unknown> };
export type CustomProbeFn = (
  config: Record<string, unknown>,
  ctx: CustomProbeContext,
) => CustomProbeResult | Promise<CustomProbeResult>;
export type CustomProbeRegistry = ReadonlyMap<string, CustomProbeFn>;

export interface RunCustomProbeOptions {
  /** Clamped to 1..30 000 ms; default 10 000. */
  timeoutMs?: number;
  env?: Readonly<Record<string, string | undefined>>;
}

type Metadata = NonNullable<ProbeOutcome['metadata']>;

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' &&
  v !== null &&
  !Array.isArray(v) &&
  [Object.prototype, null].includes(Object.getPrototypeOf(v) as object | null);

const realRequire = createRequire(__filename);
// Kept out of tsc's reach, which would turn import() into require() under CommonJS.
// eslint-disable-next-line @typescript-eslint/no-implied-eval -- a fixed body, not code from input
const dynamicImport = new Function('specifier', 'return import(specifier)') as (
  specifier: string,
) => Promise<Record<string, unknown>>;

/** Named functions of a loaded module: its own function exports, and those of an object default export. */
function functionsOf(mod: unknown): Map<string, CustomProbeFn> {
  const out = new Map<string, CustomProbeFn>();
  if (typeof mod !== 'object' || mod === null) return out;
  const m = mod as Record<string, unknown>;
  const sources = [
    typeof m.default === 'object' && m.default !== null ? (m.default as Record<string, unknown>) : {},
    m,
  ];
  for (const source of sources) {
    for (const [name, fn] of Object.entries(source))
      if (name !== 'default' && typeof fn === 'function') out.set(name, fn as CustomProbeFn);
  }
  return out;
}

/** Loads the module at `modulePath` (relative to the working directory); throws when it cannot be loaded. */
export async function loadCustomProbes(modulePath: string): Promise<CustomProbeRegistry> {
  const file = path.resolve(modulePath);
  let mod: unknown;
  try {
    mod = realRequire(file);
  } catch (err) {
    const code = (err as { code?: string }).code;
    // ESM that require() cannot load (top-level await, or Node without require(esm)).
    if (code !== 'ERR_REQUIRE_ESM' && code !== 'ERR_REQUIRE_ASYNC_MODULE') throw err;
    mod = await dynamicImport(pathToFileURL(file).href);
  }
  return functionsOf(mod);
}

/** The registry named by VIGIL_CUSTOM_PROBES_MODULE, or an empty one when it is unset. */
export async function loadCustomProbesFromEnv(env: NodeJS.ProcessEnv = process.env): Promise<CustomProbeRegistry> {
  const modulePath = env[CUSTOM_PROBES_MODULE_ENV]?.trim();
  return modulePath ? loadCustomProbes(modulePath) : new Map();
}

function errorMetadata(err: unknown): Metadata {
  if (err instanceof Error || (typeof err === 'object' && err !== null && 'message' in err)) {
    const e = err as { message?: unknown; stack?: unknown };
    const stack = typeof e.stack === 'string' ? e.stack.split('\n').slice(0, 5).join('\n') : null;
    return { error: String(e.message), stack };
  }
  return { error: String(err), stack: null };
}

function cleanMetadata(raw: Record<string, unknown>): Metadata {
  const out: Metadata = {};
  for (const [k, v] of Object.entries(raw).slice(0, 20)) {
    if (typeof v === 'string') out[k] = v.slice(0, 500);
    else if (typeof v === 'boolean' || v === null || (typeof v === 'number' && Number.isFinite(v))) out[k] = v;
  }
  return out;
}

/** A returned value → outcome: a finite number (or { value, metadata }), else a reason. */
function fromReturn(name: string, ret: unknown): ProbeOutcome {
  let value: unknown = ret;
  let metadata: Metadata | undefined;
  if (isPlainObject(ret)) {
    value = ret.value;
    if (ret.metadata !== undefined) {
      if (!isPlainObject(ret.metadata))
        return noValue('custom_probe_bad_return', { probe: name, detail: 'metadata must be an object' });
      metadata = cleanMetadata(ret.metadata);
    }
  }
  if (typeof value !== 'number')
    return noValue('custom_probe_bad_return', {
      probe: name,
      returned: Array.isArray(value) ? 'array' : value === null ? 'null' : typeof value,
    });
  if (!Number.isFinite(value)) return noValue('non_finite_value', { probe: name });
  return {
    value,
    unit: null,
    value_description: `custom probe ${name}`,
    reason: null,
    ...(metadata ? { metadata } : {}),
  };
}

/** The timeout a run gets: `requested` clamped to 1..30 000 ms, the default when absent or not finite. */
export function customProbeTimeoutMs(requested: number | undefined): number {
  if (requested === undefined || !Number.isFinite(requested)) return CUSTOM_PROBE_DEFAULT_TIMEOUT_MS;
  return Math.min(Math.max(1, Math.round(requested)), CUSTOM_PROBE_MAX_TIMEOUT_MS);
}

/** Runs one registered function with a timeout; never throws. */
export async function runCustomProbe(
  registry: CustomProbeRegistry,
  name: string,
  config: unknown,
  opts: RunCustomProbeOptions = {},
): Promise<ProbeOutcome> {
  const fn = typeof name === 'string' ? registry.get(name) : undefined;
  if (!fn)
    return noValue('custom_probe_not_found', {
      probe: String(name),
      available: [...registry.keys()].slice(0, 20).join(','),
    });
  if (!isPlainObject(config))
    return noValue('custom_probe_config_invalid', { probe: name, error: 'config must be an object' });
  const timeoutMs = customProbeTimeoutMs(opts.timeoutMs);
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const TIMEOUT = Symbol('timeout');
  const timeout = new Promise<typeof TIMEOUT>((resolve) => {
    timer = setTimeout(() => resolve(TIMEOUT), timeoutMs);
  });
  try {
    const call = Promise.resolve().then(() =>
      fn(structuredClone(config), { env: { ...(opts.env ?? process.env) }, signal: controller.signal }),
    );
    call.catch(() => undefined); // a late rejection after the timeout is nobody's business
    const ret = await Promise.race([call, timeout]);
    if (ret === TIMEOUT) {
      controller.abort();
      return noValue('custom_probe_timeout', { probe: name, timeout_ms: timeoutMs });
    }
    return fromReturn(name, ret);
  } catch (err) {
    if (typeof err === 'object' && err !== null && (err as { name?: unknown }).name === 'ConfigError') {
      return noValue('custom_probe_config_invalid', {
        probe: name,
        error: String((err as { message?: unknown }).message),
      });
    }
    return noValue('custom_probe_error', { probe: name, ...errorMetadata(err) });
  } finally {
    clearTimeout(timer);
  }
}
