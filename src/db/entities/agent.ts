import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { OrganizationSchema } from './organization';

/** A Vigil agent registered by an organization; its token is stored only as a hash. */
export const AgentSchema = defineEntity({
  name: 'Agent',
  tableName: 'agents',
  properties: {
    id: p.uuid().primary(),
    organization: p.manyToOne(OrganizationSchema).mapToPk().deleteRule('cascade'),
    name: p.string().length(200),
    tokenHash: p.string().length(64).unique(),
    tokenPrefix: p.string().length(16),
    /** Reported by the agent's heartbeat. */
    version: p.string().length(32).nullable(),
    hostname: p.string().length(255).nullable(),
    /** The agent process heard from last (its heartbeat's `session`): a new one means the previous process is gone. */
    session: p.string().length(64).nullable(),
    lastSeenAt: p.datetime(3).nullable(),
    revokedAt: p.datetime(3).nullable(),
    createdAt: p.datetime(3),
    updatedAt: p.datetime(3),
  },
  indexes: [{ properties: ['organization', 'createdAt', 'id'] }],
});
export type Agent = InferEntity<typeof AgentSchema>;

/**
 * One probe test (spec §4.1): what to run, where, and what came back. Kept so the poll can answer;
 * nothing of it becomes a metric or a sample. `probe-test:<id>` is its Temporal workflow.
 */
export const ProbeTestJobSchema = defineEntity({
  name: 'ProbeTestJob',
  tableName: 'probe_test_jobs',
  properties: {
    id: p.uuid().primary(),
    organization: p.manyToOne(OrganizationSchema).mapToPk().deleteRule('cascade'),
    agent: p.manyToOne(AgentSchema).mapToPk().deleteRule('cascade').nullable(),
    mode: p.string().length(8),
    sourceType: p.string().length(32),
    sourceConfig: p.json<Record<string, unknown>>(),
    thresholds: p.json<Record<string, unknown>>().nullable(),
    /** pending, running, completed, failed or expired. */
    state: p.string().length(16),
    /** The probe's outcome and duration (never a body, rows or headers). */
    outcome: p.json<Record<string, unknown>>().nullable(),
    failureReason: p.string().length(200).nullable(),
    createdAt: p.datetime(3),
    claimedAt: p.datetime(3).nullable(),
    /** The agent process (its `session`) that took the job; null when it sent none. */
    claimedSession: p.string().length(64).nullable(),
    /** When the job went back to the queue because the process that took it was replaced; a job goes back once at most. */
    requeuedAt: p.datetime(3).nullable(),
    completedAt: p.datetime(3).nullable(),
    expiresAt: p.datetime(3),
  },
  indexes: [{ properties: ['agent', 'state'] }, { properties: ['organization', 'createdAt'] }],
});
export type ProbeTestJob = InferEntity<typeof ProbeTestJobSchema>;
