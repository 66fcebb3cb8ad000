import type { Incident, IncidentMessage } from '../../db/entities';
import { type IncidentState, type MessageType, type Severity, incidentState } from '../../domain/incident-state';
import { toIso, toIsoOrNull } from '../../domain/time';
import { timelineView } from '../timeline';

export interface IncidentView {
  id: string;
  title: string;
  severity: Severity;
  state: IncidentState;
  affected_services: string[];
  visible_to_customer_ids: string[];
  published_at: string | null;
  resolved_at: string | null;
  canceled_at: string | null;
  deleted_at: string | null;
  created_at: string;
  updated_at: string;
  messages: { id: string; type: MessageType; body: string; posted_at: string }[];
}

/** The incident as the API returns it, and as events carry it. */
export function incidentView(i: Incident, messages: IncidentMessage[]): IncidentView {
  return {
    id: i.id,
    title: i.title,
    severity: i.severity as Severity,
    state: incidentState(i),
    affected_services: i.affectedServices,
    visible_to_customer_ids: i.visibleToCustomerIds,
    published_at: toIsoOrNull(i.publishedAt),
    resolved_at: toIsoOrNull(i.resolvedAt),
    canceled_at: toIsoOrNull(i.canceledAt),
    deleted_at: toIsoOrNull(i.deletedAt),
    created_at: toIso(i.createdAt),
    updated_at: toIso(i.updatedAt),
    messages: timelineView(messages) as IncidentView['messages'],
  };
}
