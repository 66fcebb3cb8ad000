import { type ProbeRegistry, runProbe } from '../probes/run-probe';
import type { ProbeOutcome } from '../probes/types';
import type { AgentApiClient } from './api-client';
import { type CustomProbeRegistry, runCustomProbe } from './custom-probes';
import { OtlpQuerySchema } from './otlp-aggregate';
import type { OtlpReceiver } from './otlp-receiver';
import { secretRefResolver } from './secret-refs';

export interface MetricConfig {
  metric_id: string;
  source_type: string;
  source_config: Record<string, unknown>;
  interval_seconds: number;
}

interface Sample {
  metric_id: string;
  sampled_at: string;
  value: number | null;
  reason: string | null;
}

export interface MetricRunnerOptions {
  api: AgentApiClient;
  registry: ProbeRegistry;
  env: NodeJS.ProcessEnv;
  otlp?: OtlpReceiver | null;
  customProbes?: CustomProbeRegistry;
  /** How often buffered samples are posted. */
  flushMs?: number;
  /** Server time (the agent's corrected clock); samples are stamped with it. Default: this host's clock. */
  now?: () => Date;
  log?: (level: 'info' | 'warn' | 'error', msg: string, extra?: Record<string, unknown>) => void;
}

/** Samples kept while the API cannot be reached (oldest dropped beyond this). */
const MAX_BUFFERED = 50_000;

/**
 * Runs the agent's metrics on their intervals (each on its own timer, first run spread over the
 * interval) and posts their samples in batches. Probes run here with this host's network and
 * secrets; otlp metrics read the receiver, custom metrics call the registered functions.
 */
export class MetricRunner {
  private readonly timers = new Map<string, { config: string; timer: NodeJS.Timeout; first?: NodeJS.Timeout }>();
  private buffer: Sample[] = [];
  private flushTimer: NodeJS.Timeout;
  private flushing: Promise<void> | null = null;
  /** Where the metrics' `*_ref` names resolve: only the variables the operator allows. */
  private readonly refs: (name: string) => string | undefined;

  constructor(private readonly opts: MetricRunnerOptions) {
    this.refs = secretRefResolver(opts.env, (variable, rule) =>
      opts.log?.('warn', 'a metric names a variable the agent does not send; it resolves to nothing', {
        variable,
        rule,
      }),
    );
    this.flushTimer = setInterval(() => void this.flush(), opts.flushMs ?? 2_000);
  }

  /** Starts, restarts (changed config) and stops metric timers to match the agent's config. */
  apply(metrics: MetricConfig[]): void {
    const wanted = new Map(metrics.map((m) => [m.metric_id, m]));
    for (const [id, t] of this.timers) {
      const next = wanted.get(id);
      if (!next || JSON.stringify(next) !== t.config) {
        clearInterval(t.timer);
        clearTimeout(t.first);
        this.timers.delete(id);
      }
    }
    for (const m of metrics) {
      if (this.timers.has(m.metric_id)) continue;
      const every = m.interval_seconds * 1000;
      const run = () => void this.measure(m);
      const first = setTimeout(run, Math.floor(Math.random() * Math.min(every, 5_000)));
      this.timers.set(m.metric_id, { config: JSON.stringify(m), timer: setInterval(run, every), first });
    }
  }

  private async measure(m: MetricConfig): Promise<void> {
    const sampledAt = this.opts.now?.() ?? new Date();
    let outcome: Pick<ProbeOutcome, 'value' | 'reason'>;
    try {
      outcome = await this.outcomeOf(m);
    } catch (err) {
      this.opts.log?.('error', 'a metric run failed', { metric_id: m.metric_id, error: String(err) });
      outcome = { value: null, reason: 'source_threw' };
    }
    this.buffer.push({
      metric_id: m.metric_id,
      sampled_at: sampledAt.toISOString(),
      value: outcome.value,
      reason: outcome.value === null ? (outcome.reason ?? 'no_data') : null,
    });
    if (this.buffer.length > MAX_BUFFERED) this.buffer.splice(0, this.buffer.length - MAX_BUFFERED);
  }

  private async outcomeOf(m: MetricConfig): Promise<Pick<ProbeOutcome, 'value' | 'reason'>> {
    if (m.source_type === 'otlp') {
      if (!this.opts.otlp) return { value: null, reason: 'otlp_receiver_disabled' };
      const query = OtlpQuerySchema.safeParse(m.source_config);
      return query.success ? this.opts.otlp.value(query.data) : { value: null, reason: 'invalid_config' };
    }
    if (m.source_type === 'custom') {
      const { probe, config, timeout_ms } = m.source_config as {
        probe?: unknown;
        config?: unknown;
        timeout_ms?: number;
      };
      return runCustomProbe(this.opts.customProbes ?? new Map(), String(probe ?? ''), config ?? {}, {
        timeoutMs: timeout_ms,
        env: this.opts.env,
      });
    }
    const env = this.opts.env;
    return runProbe(this.opts.registry, m.source_type, m.source_config, {
      mode: 'agent',
      env: this.refs,
      setting: (n) => env[n],
      defaultTimeoutMs: 10_000,
      deadlineMs: Math.min(30_000, m.interval_seconds * 1000),
    });
  }

  /** Posts what is buffered; on failure the samples wait for the next flush. */
  flush(): Promise<void> {
    this.flushing ??= (async () => {
      while (this.buffer.length) {
        const batch = this.buffer.slice(0, 5_000);
        try {
          const answer = await this.opts.api.postSamples(batch);
          this.buffer.splice(0, batch.length);
          const future = answer.rejected?.filter((r) => r.reason === 'sampled_in_future') ?? [];
          if (future.length)
            this.opts.log?.('warn', "the API refused samples stamped in its future; check this host's clock", {
              rejected: future.length,
            });
        } catch (err) {
          this.opts.log?.('warn', 'posting samples failed; they are kept for the next try', {
            error: String(err),
            buffered: this.buffer.length,
          });
          return;
        }
      }
    })().finally(() => {
      this.flushing = null;
    });
    return this.flushing;
  }

  async stop(): Promise<void> {
    clearInterval(this.flushTimer);
    for (const t of this.timers.values()) {
      clearInterval(t.timer);
      clearTimeout(t.first);
    }
    this.timers.clear();
    await this.flush();
  }
}
