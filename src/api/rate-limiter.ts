import type { EntityManager } from '@mikro-orm/postgresql';
import { leaseRateLimitTokens } from '../db/repositories/rate-limit-repository';
import { databaseUnavailable } from './plugins/errors';
import { type RateLimitWindows, leaseSize, usableGrant, windowsAt } from '../domain/rate-limit';

interface Bucket {
  start: number;
  /** Leased from the shared counter and not used yet. */
  tokens: number;
  /** The shared counter after our last lease (every instance's leases included). */
  global: number;
  /** The shared counter reached the limit: refuse without asking PostgreSQL again this window. */
  exhausted: boolean;
  /** The limit `exhausted` was judged against; a raised limit (upgrade, override) lifts it. */
  limit: number;
}

interface OrgState {
  minute: Bucket;
  day: Bucket;
  inflight: Promise<void> | null;
}

export interface Limits {
  perMinute: number;
  perDay: number;
}

export interface Take {
  windows: RateLimitWindows;
  /** Requests counted against each window from this instance's view, this one included. */
  minuteCount: number;
  dayCount: number;
  allowed: boolean;
}

/**
 * How long a request waits for its organization's lease round trip. Every request of the
 * organization waits on that one statement, so a stalled database (a lock, a checkpoint, a
 * failover) would otherwise hold them all until the client gives up; past this they answer 503
 * `database_unavailable` instead. The statement itself goes on and is used when it returns.
 */
const LEASE_DEADLINE_MS = 5_000;

function withinDeadline(p: Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    p,
    new Promise<void>((_, reject) => (timer = setTimeout(() => reject(databaseUnavailable()), ms))),
  ]).finally(() => clearTimeout(timer));
}

const fresh = (start: number): Bucket => ({ start, tokens: 0, global: 0, exhausted: false, limit: 0 });

/**
 * Per-organization minute and day limits shared by every API instance through PostgreSQL. Each
 * instance leases small blocks of the budget (see leaseSize) instead of writing once per request;
 * the limit is never exceeded, and at most the unused part of other instances' leases is refused
 * early. Concurrent requests of one organization share one lease round trip.
 */
export class RateLimiter {
  private readonly orgs = new Map<string, OrgState>();

  constructor(private readonly em: () => EntityManager) {}

  async take(organizationId: string, limits: Limits, now: Date): Promise<Take> {
    const windows = windowsAt(now);
    const state = this.stateOf(organizationId, windows);
    if (state.minute.exhausted && limits.perMinute > state.minute.limit) state.minute.exhausted = false;
    if (state.day.exhausted && limits.perDay > state.day.limit) state.day.exhausted = false;
    for (;;) {
      const { minute, day } = state;
      if (minute.tokens > 0 && day.tokens > 0) {
        minute.tokens--;
        day.tokens--;
        return this.result(state, windows, limits, true);
      }
      if ((minute.tokens === 0 && minute.exhausted) || (day.tokens === 0 && day.exhausted)) {
        return this.result(state, windows, limits, false, day.tokens === 0 && day.exhausted ? 'day' : 'minute');
      }
      state.inflight ??= this.lease(organizationId, state, windows, limits).finally(() => {
        state.inflight = null;
      });
      await withinDeadline(state.inflight, LEASE_DEADLINE_MS);
      if (this.stateOf(organizationId, windows) !== state) return this.take(organizationId, limits, now);
    }
  }

  private stateOf(organizationId: string, windows: RateLimitWindows): OrgState {
    const minuteStart = windows.minuteStart.getTime();
    const dayStart = windows.dayStart.getTime();
    let state = this.orgs.get(organizationId);
    if (!state) {
      state = { minute: fresh(minuteStart), day: fresh(dayStart), inflight: null };
      this.orgs.set(organizationId, state);
      if (this.orgs.size > 100_000) this.orgs.delete(this.orgs.keys().next().value!);
    }
    if (state.minute.start !== minuteStart) state.minute = fresh(minuteStart);
    if (state.day.start !== dayStart) state.day = fresh(dayStart);
    return state;
  }

  private async lease(
    organizationId: string,
    state: OrgState,
    windows: RateLimitWindows,
    limits: Limits,
  ): Promise<void> {
    const { minute, day } = state;
    const grant = {
      minute: minute.tokens > 0 || minute.exhausted ? 0 : leaseSize(limits.perMinute, minute.global),
      day: day.tokens > 0 || day.exhausted ? 0 : leaseSize(limits.perDay, day.global),
    };
    const after = await leaseRateLimitTokens(this.em(), organizationId, windows, grant);
    for (const [bucket, g, total, limit] of [
      [minute, grant.minute, after.minute, limits.perMinute],
      [day, grant.day, after.day, limits.perDay],
    ] as const) {
      if (bucket.start !== (bucket === minute ? windows.minuteStart : windows.dayStart).getTime()) continue;
      bucket.global = total;
      bucket.tokens += g === 0 ? 0 : usableGrant(limit, g, total);
      bucket.exhausted = total >= limit;
      bucket.limit = limit;
    }
  }

  /**
   * Counts from this instance's view: our own unused tokens are still ours to spend, so they do
   * not count as used. An allowed request never reads as over the limit; a refused one always does.
   */
  private result(
    state: OrgState,
    windows: RateLimitWindows,
    limits: Limits,
    allowed: boolean,
    refused?: 'minute' | 'day',
  ): Take {
    const count = (b: Bucket, limit: number, window: 'minute' | 'day') => {
      const used = b.global - b.tokens;
      return refused === window ? Math.max(used, limit) + 1 : Math.min(used, limit);
    };
    return {
      windows,
      allowed,
      minuteCount: count(state.minute, limits.perMinute, 'minute'),
      dayCount: count(state.day, limits.perDay, 'day'),
    };
  }
}
