import { EventEmitter } from 'node:events';
import { Client } from 'pg';

export interface Change {
  /** Table written. */
  t: string;
  /** Organization the row belongs to. */
  o?: string;
  /** API key hash (api_keys rows). */
  k?: string;
}

/**
 * Listens on the `vigil_changes` channel the tables' triggers notify. While the connection is
 * down `live` is false and a 'reset' is emitted, so caches fall back to reading PostgreSQL until
 * it is back (a notification missed while disconnected can never leave a cache stale).
 */
export class ChangeFeed extends EventEmitter<{ change: [Change]; reset: []; live: [] }> {
  private client: Client | null = null;
  private closed = false;
  private retryMs = 250;
  live = false;

  constructor(
    private readonly url: string,
    /** `vigil_changes` (table writes, for caches) or `vigil_outbox` (events committed, for the relay). */
    private readonly channel = 'vigil_changes',
  ) {
    super();
  }

  /** Resolves once listening (or rejects if the first connection fails). */
  async start(): Promise<void> {
    await this.connect();
  }

  private async connect(): Promise<void> {
    const client = new Client({ connectionString: this.url, application_name: 'vigil-change-feed' });
    client.on('notification', (msg) => {
      if (msg.channel !== this.channel) return;
      if (!msg.payload) {
        this.emit('change', { t: this.channel });
        return;
      }
      try {
        this.emit('change', JSON.parse(msg.payload) as Change);
      } catch {
        this.emit('reset');
      }
    });
    const lost = () => {
      if (this.client !== client) return;
      this.client = null;
      this.live = false;
      this.emit('reset');
      client.end().catch(() => undefined);
      if (!this.closed) this.scheduleReconnect();
    };
    client.on('error', lost);
    client.on('end', lost);
    await client.connect();
    await client.query(`listen ${this.channel}`);
    this.client = client;
    this.retryMs = 250;
    this.live = true;
    this.emit('live');
  }

  private scheduleReconnect(): void {
    const wait = this.retryMs;
    this.retryMs = Math.min(this.retryMs * 2, 10_000);
    setTimeout(() => {
      if (this.closed) return;
      this.connect().catch(() => this.scheduleReconnect());
    }, wait).unref();
  }

  async close(): Promise<void> {
    this.closed = true;
    this.live = false;
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => undefined);
  }
}
