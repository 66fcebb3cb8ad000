import type { ReportedOutcome } from '../domain/probe-test-result';
import { normalizeReason } from '../domain/reason-codes';
import { validateSourceConfig } from '../domain/source-config';
import { CLOUD_SOURCE_TYPES, type TestableSourceType, isTestableSourceType } from '../domain/source-types';
import { checkCloudHost } from './cloud-guard';
import { reasonForError } from './errors';
import { type Probe, type ProbeContext, type ProbeOutcome, ProbeFailure, noValue } from './types';

export type ProbeRegistry = Partial<Record<TestableSourceType, Probe<never>>>;

export interface RunOptions extends Omit<ProbeContext, 'signal'> {
  /** Hard deadline for the whole run, whatever the config says. */
  deadlineMs: number;
}

/** The host a cloud check targets, for the name checks that come before any lookup. */
function cloudHost(sourceType: string, config: Record<string, unknown>): string | null {
  if (sourceType === 'http' && typeof config.url === 'string') return new URL(config.url).hostname;
  if (['tcp', 'tls_cert', 'icmp'].includes(sourceType) && typeof config.host === 'string') return config.host;
  // The name a dns check asks about gets the same rules: no internal names (metadata.google.internal…).
  if (sourceType === 'dns' && typeof config.name === 'string') return config.name;
  return null;
}

/**
 * Runs one probe: validates the config with the same schema as a metric write, applies the
 * cloud prober's rules, enforces the deadline, and turns whatever happens into an outcome with a
 * §7.3 reason (never a thrown error, never a response body).
 */
export async function runProbe(
  registry: ProbeRegistry,
  sourceType: string,
  rawConfig: unknown,
  opts: RunOptions,
): Promise<ReportedOutcome & ProbeOutcome> {
  const started = performance.now();
  const finish = (o: ProbeOutcome): ReportedOutcome & ProbeOutcome => {
    const value = o.value !== null && !Number.isFinite(o.value) ? null : o.value;
    const reason = o.value !== null && value === null ? 'non_finite_value' : o.reason;
    return {
      ...o,
      value,
      reason: reason === null ? null : normalizeReason(reason),
      duration_ms: Math.round(performance.now() - started),
    };
  };
  const probe = registry[sourceType as TestableSourceType];
  if (!probe) return finish(noValue(isTestableSourceType(sourceType) ? 'not_implemented' : 'unknown_source_type'));
  if (opts.mode === 'cloud' && !(CLOUD_SOURCE_TYPES as readonly string[]).includes(sourceType))
    return finish(noValue('source_not_allowed_in_prober'));
  const valid = validateSourceConfig(sourceType, rawConfig);
  if (!valid.ok) return finish(noValue('invalid_config', { path: valid.errors[0]?.path ?? null }));

  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new ProbeFailure('ETIMEDOUT')), opts.deadlineMs);
  try {
    if (opts.mode === 'cloud') {
      const host = cloudHost(sourceType, valid.config);
      if (host !== null) checkCloudHost(host);
    }
    const ctx: ProbeContext = { ...opts, signal: controller.signal };
    const aborted = new Promise<never>((_, reject) =>
      controller.signal.addEventListener('abort', () => reject(new ProbeFailure('ETIMEDOUT')), { once: true }),
    );
    return finish(await Promise.race([(probe as Probe<unknown>)(valid.config, ctx), aborted]));
  } catch (err) {
    if (err instanceof ProbeFailure) return finish(noValue(err.reason, err.metadata));
    return finish(noValue(reasonForError(err, 'source_threw')));
  } finally {
    clearTimeout(timer);
  }
}
