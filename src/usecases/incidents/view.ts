import type { Incident, IncidentMessage } from '../../db/entities';
import { type ServiceImpact, serviceImpacts } from '../../domain/incident-impact';
import { type IncidentState, type MessageType, type Severity, incidentState } from '../../domain/incident-state';
import { toIso, toIsoOrNull } from '../../domain/time';
import { timelineView } from '../timeline';

export interface IncidentMessageView {
  id: string;
  type: MessageType;
  body: string;
  posted_at: string;
  /** Issue 27 (additive): false when subscribers were not emailed about this message. */
  notify_subscribers: boolean;
}

export interface IncidentView {
  id: string;
  title: string;
  severity: Severity;
  state: IncidentState;
  affected_services: string[];
  /** Issue 27 (additive): one entry per affected service, chosen or derived from the severity. */
  service_impacts: ServiceImpact[];
  visible_to_customer_ids: string[];
  published_at: string | null;
  resolved_at: string | null;
  canceled_at: string | null;
  deleted_at: string | null;
  created_at: string;
  updated_at: string;
  messages: IncidentMessageView[];
}

/** The incident as the API returns it, and as events carry it. */
export function incidentView(i: Incident, messages: IncidentMessage[]): IncidentView {
  const notify = new Map(messages.map((m) => [m.id, m.notifySubscribers !== false]));
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
    messages: timelineView(messages).map((m) => ({ ...(m as Omit<IncidentMessageView, 'notify_subscribers'>), notify_subscribers: notify.get(m.id) ?? true })),
  };
}
