import type { EntityManager } from '@mikro-orm/postgresql';
import { ChangeFeed } from '../../db/change-feed';
import type { Orm } from '../../db/orm';
import type { OutboxWorkflowStarter } from './ports';
import { relayOutbox } from './relay';

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

  constructor(
    private readonly opts: { orm: Orm; databaseUrl: string; starter: OutboxWorkflowStarter; onError?: (err: unknown) => void },
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
      try {
        await relayOutbox(() => this.opts.orm.em.fork() as EntityManager, this.opts.starter);
      } catch (err) {
        this.opts.onError?.(err);
      }
    } while (this.again && !this.closed);
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.feed.close();
    await this.idle();
  }
}
