import { z } from 'zod';
import type { ChangeEvent } from '../../db/entities';
import { toIso } from '../../domain/time';
import { CHANGE_KINDS } from '../../usecases/events/change-events';
import { DateTime, InstantInput, ListQuery, Uuid } from './common';

const Kind = z
  .enum(CHANGE_KINDS)
  .describe('What changed: a deploy, a configuration change, a feature flag, a rollback, infrastructure, or other');
const Link = z.strictObject({
  label: z.string().trim().min(1).max(100),
  url: z.url({ protocol: /^https?$/ }).max(2000),
});
const Instant = InstantInput;

export const ChangeEventCreateBody = z
  .strictObject({
    kind: Kind,
    title: z.string().trim().min(1).max(300).describe('What changed, in one line (e.g. "Deploy checkout-api v1.42.0")'),
    description: z.string().max(10_000).nullable().optional(),
    service_ids: z.array(Uuid).max(100).optional().describe('Services the change touched'),
    actor: z.string().trim().min(1).max(200).nullable().optional().describe('Who made the change (person or pipeline)'),
    source: z
      .string()
      .trim()
      .min(1)
      .max(100)
      .nullable()
      .optional()
      .describe('Where it was reported from, e.g. "github-actions"'),
    links: z.array(Link).max(20).optional().describe('Commit, pull request, pipeline run, release notes…'),
    metadata: z
      .record(z.string().max(100), z.string().max(1000))
      .optional()
      .describe('Free-form string pairs (version, commit sha, environment…)'),
    occurred_at: Instant.optional().describe('When the change happened; defaults to the time of the request'),
  })
  .meta({ id: 'ChangeEventCreate' });

export const ChangeEventListQuery = ListQuery.extend({
  service_id: Uuid.optional().describe('Only changes that touched this service'),
  kind: Kind.optional(),
  since: Instant.optional().describe('Only changes with occurred_at at or after this instant'),
  until: Instant.optional().describe('Only changes with occurred_at before this instant'),
});

export const ChangeEventSchema = z
  .object({
    id: Uuid,
    kind: Kind,
    title: z.string(),
    description: z.string().nullable(),
    service_ids: z.array(Uuid),
    actor: z.string().nullable(),
    source: z.string().nullable(),
    links: z.array(z.object({ label: z.string(), url: z.string() })),
    metadata: z.record(z.string(), z.string()),
    occurred_at: DateTime,
    created_at: DateTime,
  })
  .meta({ id: 'ChangeEvent' });

export function presentChangeEvent(e: ChangeEvent): z.output<typeof ChangeEventSchema> {
  return {
    id: e.id,
    kind: e.kind as (typeof CHANGE_KINDS)[number],
    title: e.title,
    description: e.description ?? null,
    service_ids: e.serviceIds,
    actor: e.actor ?? null,
    source: e.source ?? null,
    links: e.links,
    metadata: e.metadata,
    occurred_at: toIso(e.occurredAt),
    created_at: toIso(e.createdAt),
  };
}
