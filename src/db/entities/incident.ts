import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import type { ImpactMap } from '../../domain/incident-impact';
import { OrganizationSchema } from './organization';

/** A body an edit replaced, and when. */
export interface MessageRevision {
  body: string;
  replaced_at: string;
}

export const IncidentSchema = defineEntity({
  name: 'Incident',
  tableName: 'incidents',
  properties: {
    id: p.uuid().primary(),
    organization: p.manyToOne(OrganizationSchema).mapToPk().deleteRule('cascade'),
    title: p.string().length(300),
    severity: p.string().length(16),
    affectedServices: p.array().columnType('uuid[]'),
    /** Empty: public. Otherwise only these customers see it, and it never appears in public output. */
    visibleToCustomerIds: p.array().columnType('uuid[]'),
    /** Impacts the operator chose per affected service (lower-case id → impact); the others follow the severity. Null: none chosen. */
    serviceImpacts: p.json<ImpactMap>().nullable(),
    /** For the organization only (the evidence behind a drafted incident); never on a status page, feed or subscriber email. */
    internalNote: p.text().nullable(),
    publishedAt: p.datetime(3).nullable(),
    resolvedAt: p.datetime(3).nullable(),
    canceledAt: p.datetime(3).nullable(),
    deletedAt: p.datetime(3).nullable(),
    createdAt: p.datetime(3),
    updatedAt: p.datetime(3),
  },
  indexes: [{ properties: ['organization', 'createdAt', 'id'] }],
});
export type Incident = InferEntity<typeof IncidentSchema>;

export const IncidentMessageSchema = defineEntity({
  name: 'IncidentMessage',
  tableName: 'incident_messages',
  properties: {
    id: p.uuid().primary(),
    organization: p.manyToOne(OrganizationSchema).mapToPk().deleteRule('cascade'),
    incident: p.manyToOne(IncidentSchema).mapToPk().deleteRule('cascade').index(),
    type: p.string().length(16),
    body: p.text(),
    /** False when the operator chose not to email subscribers about this update. */
    notifySubscribers: p.boolean().default(true),
    postedAt: p.datetime(3),
    /** The last edit of the body; null: never edited. */
    editedAt: p.datetime(3).nullable(),
    /** The bodies edits replaced, oldest first. */
    previousBodies: p.json<MessageRevision[]>().nullable(),
  },
});
export type IncidentMessage = InferEntity<typeof IncidentMessageSchema>;
