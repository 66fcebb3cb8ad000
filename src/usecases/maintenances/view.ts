import type { Maintenance, MaintenanceMessage } from '../../db/entities';
import { type MaintenanceState, maintenanceState } from '../../domain/maintenance-state';
import { toIso, toIsoOrNull } from '../../domain/time';
import { type TimelineEntry, timelineView } from '../shared/timeline';

export type MaintenanceMessageKind = 'system' | 'update' | 'reschedule';

/** A timeline entry with who wrote it and, for updates, whether subscribers were emailed. */
export interface MaintenanceTimelineEntry extends TimelineEntry {
  kind: MaintenanceMessageKind;
  notify_subscribers: boolean | null;
}

export interface MaintenanceView {
  id: string;
  title: string;
  description: string | null;
  state: MaintenanceState;
  affected_services: string[];
  scheduled_start_at: string;
  scheduled_end_at: string;
  actual_start_at: string | null;
  actual_end_at: string | null;
  canceled_at: string | null;
  created_at: string;
  updated_at: string;
  messages: MaintenanceTimelineEntry[];
}

export function maintenanceView(m: Maintenance, messages: MaintenanceMessage[]): MaintenanceView {
  return {
    id: m.id,
    title: m.title,
    description: m.description ?? null,
    state: maintenanceState(m),
    affected_services: m.affectedServices,
    scheduled_start_at: toIso(m.scheduledStartAt),
    scheduled_end_at: toIso(m.scheduledEndAt),
    actual_start_at: toIsoOrNull(m.actualStartAt),
    actual_end_at: toIsoOrNull(m.actualEndAt),
    canceled_at: toIsoOrNull(m.canceledAt),
    created_at: toIso(m.createdAt),
    updated_at: toIso(m.updatedAt),
    messages: maintenanceTimeline(messages),
  };
}

function maintenanceTimeline(messages: MaintenanceMessage[]): MaintenanceTimelineEntry[] {
  const byId = new Map(messages.map((m) => [m.id, m]));
  return timelineView(messages).map((entry) => {
    const m = byId.get(entry.id)!;
    return { ...entry, kind: m.kind as MaintenanceMessageKind, notify_subscribers: m.notifySubscribers ?? null };
  });
}
