/** Incident lifecycle, derived from timestamps only (spec §3.1): the row owns the truth. */
export const INCIDENT_STATES = ['draft', 'published', 'resolved', 'canceled', 'deleted'] as const;
export type IncidentState = (typeof INCIDENT_STATES)[number];

export interface IncidentTimestamps {
  publishedAt?: Date | null;
  resolvedAt?: Date | null;
  canceledAt?: Date | null;
  deletedAt?: Date | null;
}

export function incidentState(t: IncidentTimestamps): IncidentState {
  if (t.deletedAt) return 'deleted';
  if (t.canceledAt) return 'canceled';
  if (t.resolvedAt) return 'resolved';
  if (t.publishedAt) return 'published';
  return 'draft';
}

export const SEVERITIES = ['minor', 'major', 'critical'] as const;
export type Severity = (typeof SEVERITIES)[number];

/** Timeline message types: Information and Resolved from the spec, the rest a status vendor's usual steps. */
export const MESSAGE_TYPES = [
  'Investigating',
  'Identified',
  'Monitoring',
  'Update',
  'Information',
  'Resolved',
] as const;
export type MessageType = (typeof MESSAGE_TYPES)[number];
