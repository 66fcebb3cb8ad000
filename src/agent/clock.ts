/**
 * The agent's idea of the server's time. Samples and job deadlines are stamped in server time,
 * whatever this host's clock says: each heartbeat answer carries `server_time`, taken as the
 * server's clock at the midpoint of the exchange (the estimate is off by at most half the round
 * trip). Between heartbeats the time runs on from that anchor on the monotonic clock, so a host
 * whose clock is wrong, or is stepped by NTP while the agent runs, still stamps server time.
 * Before the first heartbeat answer, this host's own clock is all there is.
 */
export class AgentClock {
  private anchor: { serverMs: number; monoMs: number; rttMs: number } | null = null;

  /**
   * @param skewMs Test only (VIGIL_AGENT_CLOCK_OFFSET_MS): pretends this host's wall clock is
   *   that many milliseconds ahead (negative: behind), to test an agent on a host with a wrong clock.
   */
  constructor(
    private readonly skewMs = 0,
    private readonly mono: () => number = () => performance.now(),
    private readonly wall: () => number = () => Date.now(),
  ) {}

  /** This host's wall clock (as skewed in tests). */
  local(): number {
    return this.wall() + this.skewMs;
  }

  /** A monotonic reading to pass to `observe` (taken before sending and after the answer). */
  mark(): number {
    return this.mono();
  }

  /** Server time now, in ms since the epoch: the last heartbeat's anchor, or this host's clock before the first. */
  now(): number {
    if (!this.anchor) return this.local();
    return this.anchor.serverMs + (this.mono() - this.anchor.monoMs);
  }

  nowDate(): Date {
    return new Date(this.now());
  }

  /**
   * One exchange with the server: `sentMono`/`receivedMono` from `mark()`, `serverTime` from the
   * answer. Every heartbeat refreshes the anchor (the newest estimate wins: a stale good one is
   * worse than a fresh rough one when the server's clock was stepped).
   */
  observe(sentMono: number, receivedMono: number, serverTime: string): void {
    const serverMs = Date.parse(serverTime);
    if (!Number.isFinite(serverMs) || receivedMono < sentMono) return;
    const rttMs = receivedMono - sentMono;
    this.anchor = { serverMs, monoMs: sentMono + rttMs / 2, rttMs };
  }

  /** How far this host's clock is from the server's (positive: the host is ahead), or null before the first heartbeat. */
  offsetMs(): number | null {
    return this.anchor ? Math.round(this.local() - this.now()) : null;
  }

  /** The last estimate's uncertainty (half its round trip), or null. */
  uncertaintyMs(): number | null {
    return this.anchor ? Math.round(this.anchor.rttMs / 2) : null;
  }
}
