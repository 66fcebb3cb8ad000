import type { Incident, IncidentMessage } from '../../db/entities';
import { type ServiceImpact, serviceImpacts } from '../../domain/incident-impact';
import { type IncidentState, type MessageType, type Severity, incidentState } from '../../domain/incident-state';
import { toIso, toIsoOrNull } from '../../domain/time';
import { timelineView } from '../shared/timeline';

export interface IncidentMessageView {
  id: string;
  type: MessageType;
  body: string;
  posted_at: string;
  /** False when subscribers were not emailed about this message. */
  notify_subscribers: boolean;
  /** Additive: the last edit of the body; null when never edited. */
  edited_at: string | null;
  /** Additive: the bodies edits replaced, oldest first. */
  previous_bodies: { body: string; replaced_at: string }[];
}

export interface IncidentView {
  id: string;
  title: string;
  severity: Severity;
  state: IncidentState;
  affected_services: string[];
  /** One entry per affected service, chosen or derived from the severity. */
  service_impacts: ServiceImpact[];
  visible_to_customer_ids: string[];
  published_at: string | null;
  resolved_at: string | null;
  canceled_at: string | null;
  deleted_at: string | null;
  created_at: string;
  updated_at: string;
  messages: IncidentMessageView[];
  /** Additive: for the organization only (what was measured); no public output reads it. */
  internal_note: string | null;
}

/** The incident as the API returns it, and as events carry it. */
export function incidentView(i: Incident, messages: IncidentMessage[]): IncidentView {
  const byId = new Map(messages.map((m) => [m.id, m]));
  return {
    id: i.id,
    title: i.title,
    severity: i.severity as Severity,
    state: incidentState(i),
    affected_services: i.affectedServices,
    service_impacts: serviceImpacts(i.affectedServices, i.serviceImpacts, i.severity),
    visible_to_customer_ids: i.visibleToCustomerIds,
    published_at: toIsoOrNull(i.publishedAt),
    resolved_at: toIsoOrNull(i.resolvedAt),
    canceled_at: toIsoOrNull(i.canceledAt),
    deleted_at: toIsoOrNull(i.deletedAt),
    created_at: toIso(i.createdAt),
    updated_at: toIso(i.updatedAt),
    messages: timelineView(messages).map((m) => {
      const row = byId.get(m.id);
      return {
        ...(m as Pick<IncidentMessageView, 'id' | 'type' | 'body' | 'posted_at'>),
        notify_subscribers: row?.notifySubscribers !== false,
        edited_at: toIsoOrNull(row?.editedAt ?? null),
        previous_bodies: row?.previousBodies ?? [],
      };
    }),
    internal_note: i.internalNote ?? null,
  };
}
