import { createHash, randomBytes } from 'node:crypto';
import { type Metric, MetricSchema } from '../../db/entities';
import { notFound } from '../../domain/error-catalog';
import type { OrgContext } from '../shared/context';
import { ingestSamples } from './ingest';

export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** Heartbeat and alert metrics are reached by a secret token in their inbound URL (answered once, stored hashed). */
export function inboundToken(sourceType: string): string | null {
  if (sourceType === 'heartbeat') return `hb_${randomBytes(24).toString('base64url')}`;
  if (sourceType === 'alert') return `al_${randomBytes(24).toString('base64url')}`;
  return null;
}

/** Where a heartbeat or alert metric receives its pings or webhooks (`/v1/<kind>/<token>`): answered once, at creation. */
export interface InboundEndpoint {
  kind: 'heartbeats' | 'inbound-alerts';
  token: string;
}

export const inboundEndpoint = (sourceType: string, token: string): InboundEndpoint => ({
  kind: sourceType === 'heartbeat' ? 'heartbeats' : 'inbound-alerts',
  token,
});

/** The full inbound URL, as shown once to whoever created the metric. */
export const inboundUrl = (publicBaseUrl: string, e: InboundEndpoint): string =>
  `${publicBaseUrl}/v1/${e.kind}/${e.token}`;

/** The metric an inbound heartbeat ping or alert webhook belongs to. */
export async function findByInboundToken(
  ctx: { em: OrgContext['em'] },
  token: string,
  sourceType: 'heartbeat' | 'alert',
): Promise<Metric> {
  const m = await ctx.em.findOne(MetricSchema, { inboundTokenHash: hashToken(token), sourceType, deletedAt: null });
  if (!m) throw notFound(sourceType === 'heartbeat' ? 'Heartbeat' : 'Alert endpoint');
  return m;
}

/** A heartbeat ping: its time is kept (the sweep ages it) and it is a sample of 0 seconds. */
export async function recordHeartbeatPing(em: OrgContext['em'], token: string, now: Date): Promise<Metric> {
  const m = await findByInboundToken({ em }, token, 'heartbeat');
  await em.nativeUpdate(MetricSchema, { id: m.id }, { pushState: { last_ping_at: now.toISOString() } });
  await ingestSamples(em.fork(), m.organization, [{ metricId: m.id, sampledAt: now, value: 0, reason: null }], now);
  return m;
}
