import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Incident, IncidentMessage } from '../entities';
import { pgArray, rawRun } from '../raw-sql';

/**
 * A new incident, its first timeline message if any, and one outbox event per type carrying
 * `payload`, in one statement: atomic on its own, or part of the caller's transaction (an
 * idempotent create). Creating incidents is how most events begin, and each statement costs a
 * round trip on the API's event loop. The CTEs: `new_incident` and `first_message`; the
 * statement's own insert is the events. The rules it encodes are listed in docs/hot-paths.md.
 */
export async function insertIncident(
  em: EntityManager,
  incident: Incident,
  messages: IncidentMessage[],
  eventTypes: string[],
  payload: unknown,
): Promise<void> {
  await rawRun(
    em,
    `with new_incident as (
       insert into incidents (id, organization_id, title, severity, affected_services, visible_to_customer_ids, service_impacts, internal_note,
                              published_at, resolved_at, canceled_at, deleted_at, created_at, updated_at)
       values (?, ?, ?, ?, ?::uuid[], ?::uuid[], ?::jsonb, ?, ?, ?, ?, ?, ?, ?)
       returning id
     ), first_message as (
       insert into incident_messages (id, organization_id, incident_id, type, body, notify_subscribers, posted_at)
       select message.id, message.organization_id, (select id from new_incident), message.type, message.body, message.notify_subscribers, message.posted_at
         from jsonb_to_recordset(?::jsonb) as message(id uuid, organization_id uuid, type text, body text, notify_subscribers boolean, posted_at timestamptz)
     )
     insert into outbox_events (id, organization_id, type, resource_kind, resource_id, payload, created_at, dispatched_at)
     select event.id, ?, event.type, 'incident', (select id from new_incident), ?::jsonb, ?, null
       from jsonb_to_recordset(?::jsonb) as event(id uuid, type text)`,
    [
      incident.id,
      incident.organization,
      incident.title,
      incident.severity,
      pgArray(incident.affectedServices),
      pgArray(incident.visibleToCustomerIds),
      incident.serviceImpacts == null ? null : JSON.stringify(incident.serviceImpacts),
      incident.internalNote ?? null,
      incident.publishedAt,
      incident.resolvedAt,
      incident.canceledAt,
      incident.deletedAt,
      incident.createdAt,
      incident.updatedAt,
      JSON.stringify(
        messages.map((m) => ({
          id: m.id,
          organization_id: m.organization,
          type: m.type,
          body: m.body,
          notify_subscribers: m.notifySubscribers ?? true,
          posted_at: m.postedAt.toISOString(),
        })),
      ),
      incident.organization,
      JSON.stringify(payload),
      incident.createdAt,
      JSON.stringify(eventTypes.map((type) => ({ id: randomUUID(), type }))),
    ],
  );
}
