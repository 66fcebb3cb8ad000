import semver from 'semver';

export const AGENT_STATUSES = ['online', 'offline', 'never_connected', 'revoked'] as const;
export type AgentStatus = (typeof AGENT_STATUSES)[number];

/** Agents heartbeat every 15 s; three missed beats and a margin make an agent offline. */
export const AGENT_OFFLINE_AFTER_MS = 60_000;

/** Spec §2.2/§9: agents older than this cannot run probe tests (409 agent_unavailable, outdated). */
export const MIN_AGENT_VERSION = '1.7.0';

export function agentStatus(a: { revokedAt?: Date | null; lastSeenAt?: Date | null }, now: Date): AgentStatus {
  if (a.revokedAt) return 'revoked';
  if (!a.lastSeenAt) return 'never_connected';
  return now.getTime() - a.lastSeenAt.getTime() <= AGENT_OFFLINE_AFTER_MS ? 'online' : 'offline';
}

/** True when `version` is a semantic version at or above the minimum; an unreadable version is outdated. */
export function canRunProbeTests(version: string | null | undefined): boolean {
  const v = version ? semver.coerce(version) : null;
  return v !== null && semver.gte(v, MIN_AGENT_VERSION);
}

/** Why an agent cannot take a probe test now (409 agent_unavailable `reason`), or null when it can. */
export function unavailableReason(
  a: { revokedAt?: Date | null; lastSeenAt?: Date | null; version?: string | null },
  now: Date,
): 'revoked' | 'never_connected' | 'offline' | 'outdated' | null {
  const status = agentStatus(a, now);
  if (status !== 'online') return status;
  return canRunProbeTests(a.version) ? null : 'outdated';
}
