import { z } from 'zod';
import { DateTime } from './common';

export const LocationSchema = z
  .object({
    id: z
      .string()
      .describe(
        "A cloud location's id (`eu-central`, VIGIL_LOCATION of its prober), or `agent:<agent id>` for an agent.",
      ),
    label: z.string().describe("The cloud location's VIGIL_LOCATION_LABEL, or the agent's name."),
    kind: z.enum(['cloud', 'agent']),
    status: z
      .enum(['online', 'offline'])
      .describe(
        'Cloud locations: online while their last heartbeat is younger than three heartbeats (LOCATION_HEARTBEAT_SECONDS) and they did not stop; agents: heard from in the last minute.',
      ),
    last_seen_at: DateTime.nullable().describe('The last heartbeat; null for an agent that never connected.'),
    version: z.string().nullable(),
    metrics: z
      .int()
      .describe(
        "How many of the organization's live metrics this location measures: those naming it in `locations`, plus the cloud metrics left to the default (every online cloud location) or, for an agent, its own metrics.",
      ),
  })
  .meta({ id: 'Location' });
