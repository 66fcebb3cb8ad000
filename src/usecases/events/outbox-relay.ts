import { ChangeFeed } from '../../db/change-feed';
import type { Orm } from '../../db/orm';
import type { OutboxWorkflowStarter } from './ports';
import { relayOutbox, startUnstarted } from './relay';

/** Retries after a failed drain (Temporal or PostgreSQL unreachable): 1 s doubling to 30 s. */
const RETRY_FIRST_MS = 1_000;
const RETRY_MAX_MS = 30_000;

/**
 * Moves committed events from the outbox to webhook delivery workflows the moment they commit:
 * the outbox trigger notifies `vigil_outbox`, and the relay drains (several relays share the work
 * through SKIP LOCKED). Holds no state of its own: whatever it has not done, the outbox still
 * says, and the `vigil-outbox-sweep` schedule finishes if the relay dies.
 */
export class OutboxRelay {
  private readonly feed: ChangeFeed;
  private draining: Promise<void> | null = null;
  private again = false;
  private closed = false;
  /** Set after a failed drain: its deliveries were recorded but maybe not started. */
  private failed = false;
  private retryMs = RETRY_FIRST_MS;
  private retryTimer: NodeJS.Timeout | null = null;

  constructor(
    private readonly opts: {
      orm: Orm;
      databaseUrl: string;
      starter: OutboxWorkflowStarter;
      onError?: (err: unknown) => void;
    },
  ) {
    this.feed = new ChangeFeed(opts.databaseUrl, 'vigil_outbox');
    this.feed.on('change', () => this.kick());
    // Notifications sent while disconnected are lost: drain on every (re)connect.
    this.feed.on('live', () => this.kick());
  }

  async start(): Promise<void> {
    await this.feed.start();
  }

  /** Drains now, or once more right after the drain under way. */
  kick(): void {
    if (this.closed) return;
    if (this.draining) {
      this.again = true;
      return;
    }
    this.draining = this.drain().finally(() => {
      this.draining = null;
    });
  }

  /** Resolves when no drain is under way (tests, benchmarks). */
  async idle(): Promise<void> {
    while (this.draining) await this.draining;
  }

  private async drain(): Promise<void> {
    do {
      this.again = false;
      const fork = () => this.opts.orm.em.fork();
      try {
        const { unstarted } = await relayOutbox(fork, this.opts.starter);
        // Deliveries fanned out by a drain whose starts failed are seen by no later drain: start them now.
        const left = unstarted + (this.failed ? (await startUnstarted(fork, this.opts.starter, 0)).unstarted : 0);
        if (left > 0)
          throw new Error(`${left} webhook or email workflows could not be started (is Temporal reachable?)`);
        this.failed = false;
        this.retryMs = RETRY_FIRST_MS;
      } catch (err) {
        this.opts.onError?.(err);
        this.failed = true;
        this.scheduleRetry();
      }
    } while (this.again && !this.closed);
  }

  /** Without it, what a failed drain left would wait for the next event or the minute's sweep. */
  private scheduleRetry(): void {
    if (this.retryTimer || this.closed) return;
    const wait = this.retryMs;
    this.retryMs = Math.min(this.retryMs * 2, RETRY_MAX_MS);
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      this.kick();
    }, wait);
    this.retryTimer.unref();
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    await this.feed.close();
    await this.idle();
  }
}
