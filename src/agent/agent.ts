import { randomUUID } from 'node:crypto';
import os from 'node:os';
import { type ProbeRegistry, runProbe } from '../probes/run-probe';
import { type AgentJob, AgentApiClient, AgentApiError } from './api-client';
import type { CustomProbeRegistry } from './custom-probes';
import { AgentClock } from './clock';
import { secretRefResolver } from './secret-refs';
import { MetricRunner } from './metric-runner';
import type { OtlpReceiver } from './otlp-receiver';
import { AGENT_VERSION } from './version';

export interface AgentOptions {
  apiUrl: string;
  token: string;
  registry: ProbeRegistry;
  /** Where `*_ref` names resolve: this host's environment. */
  env?: NodeJS.ProcessEnv;
  heartbeatMs?: number;
  pollSeconds?: number;
  /** Probes run at once; more jobs wait in the API's queue. */
  concurrency?: number;
  log?: (level: 'info' | 'warn' | 'error', msg: string, extra?: Record<string, unknown>) => void;
  /** Push sources the agent's otlp and custom metrics read. */
  otlp?: OtlpReceiver | null;
  customProbes?: CustomProbeRegistry;
  /** Called when the agent gives up for good (its token was refused). */
  onFatal?: (err: Error) => void;
  /** Server time as this agent sees it (default: corrected by each heartbeat answer's `server_time`). */
  clock?: AgentClock;
}

/**
 * The Vigil agent: heartbeats, long-polls the API for jobs, runs each probe here (with this
 * host's network and environment-variable secrets) and posts the outcome. Secrets never leave
 * this process: results carry a value, a unit and a reason code, nothing else.
 */
export class VigilAgent {
  private readonly api: AgentApiClient;
  private stopped = false;
  private running = 0;
  private heartbeatTimer: NodeJS.Timeout | null = null;
  private configTimer: NodeJS.Timeout | null = null;
  private metrics: MetricRunner | null = null;
  private configVersion: string | null = null;
  private pollLoop: Promise<void> | null = null;
  /** Server time, corrected on every heartbeat: samples and job deadlines use it, never this host's clock alone. */
  readonly clock: AgentClock;
  /**
   * Names this process. The API hands the jobs a previous process took and never answered (it
   * died holding them) to the process with a new session as soon as it heartbeats.
   */
  readonly session = randomUUID();
  private reportedOffsetMs: number | null = null;
  /** Where probe tests' `*_ref` names resolve: only the variables the operator allows. */
  private readonly refs: (name: string) => string | undefined;

  constructor(private readonly opts: AgentOptions) {
    this.api = new AgentApiClient(opts.apiUrl, opts.token);
    this.clock = opts.clock ?? new AgentClock();
    this.refs = secretRefResolver(opts.env ?? process.env, (variable, rule) =>
      this.log('warn', 'a probe test names a variable the agent does not send; it resolves to nothing', {
        variable,
        rule,
      }),
    );
  }

  private log(level: 'info' | 'warn' | 'error', msg: string, extra?: Record<string, unknown>): void {
    this.opts.log?.(level, msg, extra);
  }

  /** Resolves after the first heartbeat was accepted (a bad token fails here). */
  async start(): Promise<{ agentId: string }> {
    const first = await this.heartbeat();
    this.log('info', 'agent connected', {
      agent_id: first.agent_id,
      version: AGENT_VERSION,
      session: this.session,
      clock_offset_ms: this.clock.offsetMs(),
    });
    this.heartbeatTimer = setInterval(() => {
      this.heartbeat().catch((err) => this.log('warn', 'heartbeat failed', { error: String(err) }));
    }, this.opts.heartbeatMs ?? 15_000);
    this.metrics = new MetricRunner({
      api: this.api,
      registry: this.opts.registry,
      env: this.opts.env ?? process.env,
      otlp: this.opts.otlp,
      customProbes: this.opts.customProbes,
      log: this.opts.log,
      now: () => this.clock.nowDate(),
    });
    await this.refreshConfig();
    // Also now and then, in case a change notification was missed.
    this.configTimer = setInterval(() => void this.refreshConfig(), 60_000);
    this.pollLoop = this.poll();
    return { agentId: first.agent_id };
  }

  /** A heartbeat that also refreshes the clock's estimate of server time (RTT/2). */
  private async heartbeat(): Promise<{ agent_id: string }> {
    const sent = this.clock.mark();
    const answer = await this.api.heartbeat(AGENT_VERSION, os.hostname(), this.session);
    this.clock.observe(sent, this.clock.mark(), answer.server_time);
    const offset = this.clock.offsetMs();
    // Said once, and again when it moves by more than a second: a host clock that is off is worth knowing about.
    if (
      offset !== null &&
      Math.abs(offset) >= 1_000 &&
      (this.reportedOffsetMs === null || Math.abs(offset - this.reportedOffsetMs) >= 1_000)
    ) {
      this.log('warn', "this host's clock is off from the server's; samples and job deadlines use server time", {
        clock_offset_ms: offset,
        uncertainty_ms: this.clock.uncertaintyMs(),
      });
      this.reportedOffsetMs = offset;
    }
    return answer;
  }

  private async refreshConfig(): Promise<void> {
    try {
      const { metrics, version } = await this.api.config();
      this.metrics?.apply(metrics);
      this.configVersion = version;
    } catch (err) {
      this.log('warn', 'fetching the metric configuration failed', { error: String(err) });
    }
  }

  private async poll(): Promise<void> {
    let backoffMs = 500;
    while (!this.stopped) {
      try {
        const room = (this.opts.concurrency ?? 4) - this.running;
        if (room <= 0) {
          await new Promise((r) => setTimeout(r, 50));
          continue;
        }
        const { jobs, config_changed } = await this.api.poll(
          this.opts.pollSeconds ?? 25,
          this.configVersion ?? undefined,
          this.session,
        );
        backoffMs = 500;
        for (const job of jobs) void this.run(job);
        if (config_changed) await this.refreshConfig();
      } catch (err) {
        if (this.stopped) return;
        if (err instanceof AgentApiError && err.status === 401) {
          this.log('error', 'the API refused the agent token (revoked or unknown); stopping', { title: err.title });
          await this.halt();
          this.opts.onFatal?.(err);
          return;
        }
        this.log('warn', 'polling for jobs failed; retrying', { error: String(err), retry_ms: backoffMs });
        await new Promise((r) => setTimeout(r, backoffMs));
        backoffMs = Math.min(backoffMs * 2, 30_000);
      }
    }
  }

  private async run(job: AgentJob): Promise<void> {
    this.running++;
    try {
      const env = this.opts.env ?? process.env;
      // expires_at is server time: measured against the corrected clock, not this host's.
      const deadlineMs = Math.max(1_000, Math.min(30_000, Date.parse(job.expires_at) - this.clock.now()));
      const o = await runProbe(this.opts.registry, job.source_type, job.source_config, {
        mode: 'agent',
        env: this.refs,
        setting: (name) => env[name],
        defaultTimeoutMs: 10_000,
        deadlineMs,
      });
      await this.api.postResult(job.job_id, {
        outcome: {
          value: o.value,
          unit: o.unit,
          value_description: o.value_description,
          reason: o.reason,
          duration_ms: o.duration_ms,
        },
      });
    } catch (err) {
      this.log('error', 'running a job failed', { job_id: job.job_id, error: String(err) });
      await this.api.postResult(job.job_id, { error: { reason: 'agent_error' } }).catch(() => undefined);
    } finally {
      this.running--;
    }
  }

  /** Stops heartbeats and closes the connection; the poll loop ends at its next turn. */
  private async halt(): Promise<void> {
    this.stopped = true;
    if (this.heartbeatTimer) clearInterval(this.heartbeatTimer);
    if (this.configTimer) clearInterval(this.configTimer);
    await this.metrics?.stop().catch(() => undefined);
    await this.api.close();
  }

  async stop(): Promise<void> {
    await this.halt();
    await this.pollLoop?.catch(() => undefined);
  }
}
