import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { type Agent, AgentSchema } from '../../db/entities';
import { type AgentStatus, agentStatus, canRunProbeTests } from '../../domain/agent-status';
import { pageOf } from '../../domain/cursor';
import { ProblemError, notFound } from '../../domain/error-catalog';
import { isUuid } from '../../domain/ids';
import { toIso, toIsoOrNull } from '../../domain/time';
import { generateToken, hashApiKey } from '../organizations/api-keys';
import type { OrgContext } from '../shared/context';
import { NEWEST_FIRST, afterCursor } from '../shared/keyset';

export type { Agent };

export const AGENT_TOKEN_PREFIX = 'vgl_agt_';
const TOKEN_SHAPE = /^vgl_agt_[0-9A-Za-z]{32,64}$/;

export interface AgentView {
  id: string;
  name: string;
  status: AgentStatus;
  version: string | null;
  can_run_probe_tests: boolean;
  hostname: string | null;
  token_prefix: string;
  last_seen_at: string | null;
  revoked_at: string | null;
  created_at: string;
  updated_at: string;
}

export function agentView(a: Agent, now: Date): AgentView {
  return {
    id: a.id,
    name: a.name,
    status: agentStatus(a, now),
    version: a.version ?? null,
    can_run_probe_tests: canRunProbeTests(a.version),
    hostname: a.hostname ?? null,
    token_prefix: a.tokenPrefix,
    last_seen_at: toIsoOrNull(a.lastSeenAt),
    revoked_at: toIsoOrNull(a.revokedAt),
    created_at: toIso(a.createdAt),
    updated_at: toIso(a.updatedAt),
  };
}

/** Registers an agent; its token (`vgl_agt_…`) is answered once and stored only as a hash. */
export async function registerAgent(
  ctx: OrgContext,
  input: { name: string },
): Promise<{ view: AgentView; token: string }> {
  const token = generateToken(AGENT_TOKEN_PREFIX);
  const a = ctx.em.create(AgentSchema, {
    id: randomUUID(),
    organization: ctx.org.id,
    name: input.name,
    tokenHash: hashApiKey(token),
    tokenPrefix: token.slice(0, 12),
    version: null,
    hostname: null,
    lastSeenAt: null,
    revokedAt: null,
    createdAt: ctx.now,
    updatedAt: ctx.now,
  });
  await ctx.em.flush();
  return { view: agentView(a, ctx.now), token };
}

/** Newest first. Agents are never deleted: a revoked one stays listed with status revoked. */
export async function listAgents(ctx: OrgContext, query: { limit: number; cursor?: string }) {
  const rows = await ctx.em.find(
    AgentSchema,
    { organization: ctx.org.id, ...afterCursor(query.cursor) },
    { orderBy: NEWEST_FIRST, limit: query.limit + 1 },
  );
  const page = pageOf(rows, query.limit);
  return { items: page.items.map((a) => agentView(a, ctx.now)), nextCursor: page.nextCursor };
}

export async function getAgent(ctx: OrgContext, id: string): Promise<Agent> {
  const a = isUuid(id) ? await ctx.em.findOne(AgentSchema, { id, organization: ctx.org.id }) : null;
  if (!a) throw notFound('Agent');
  return a;
}

export async function revokeAgent(ctx: OrgContext, id: string): Promise<AgentView> {
  const a = await getAgent(ctx, id);
  if (a.revokedAt) throw new ProblemError('already_revoked', 'The agent is already revoked.');
  a.revokedAt = ctx.now;
  a.updatedAt = ctx.now;
  await ctx.em.flush();
  return agentView(a, ctx.now);
}

function unauthenticated(detail: string): ProblemError {
  return new ProblemError('unauthenticated', detail, {}, { 'www-authenticate': 'Bearer realm="vigil-agent"' });
}

/** The agent a bearer token belongs to (401 for a missing, malformed, unknown or revoked token). */
export async function authenticateAgent(em: EntityManager, authorization: string | undefined): Promise<Agent> {
  const match = authorization ? /^Bearer\s+(\S+)\s*$/i.exec(authorization) : null;
  if (!match?.[1]) throw unauthenticated('No agent token was sent: add "Authorization: Bearer <agent token>".');
  if (!TOKEN_SHAPE.test(match[1]))
    throw unauthenticated('The agent token is invalid: it is not a Vigil agent token (vgl_agt_…).');
  const a = await em.findOne(AgentSchema, { tokenHash: hashApiKey(match[1]) });
  if (!a) throw unauthenticated('The agent token is invalid: no such agent exists.');
  if (a.revokedAt) throw unauthenticated('The agent has been revoked.');
  return a;
}

/** Every call of an agent counts as a sign of life; a heartbeat also reports its version and host. */
export async function touchAgent(
  em: EntityManager,
  a: Agent,
  now: Date,
  report?: { version: string; hostname?: string | null },
): Promise<void> {
  if (report) {
    a.version = report.version;
    a.hostname = report.hostname ?? a.hostname ?? null;
  }
  if (report || !a.lastSeenAt || now.getTime() - a.lastSeenAt.getTime() > 5_000) {
    a.lastSeenAt = now;
    a.updatedAt = now;
    await em.flush();
  }
}
