import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { OrganizationSchema } from './organization';

export const ApiKeySchema = defineEntity({
  name: 'ApiKey',
  tableName: 'api_keys',
  properties: {
    id: p.uuid().primary(),
    organization: p.manyToOne(OrganizationSchema).mapToPk().deleteRule('cascade').index(),
    name: p.string().length(200),
    /** The first characters of the key, safe to show so people can tell keys apart. */
    prefix: p.string().length(16),
    /** SHA-256 of the whole key; the key itself is never stored. */
    keyHash: p.string().length(64).unique(),
    scopes: p.array().columnType('text[]'),
    createdAt: p.datetime(3),
    revokedAt: p.datetime(3).nullable(),
    lastUsedAt: p.datetime(3).nullable(),
    /** Past this instant the key answers 401 (null: never expires). */
    expiresAt: p.datetime(3).nullable(),
  },
});
export type ApiKey = InferEntity<typeof ApiKeySchema>;
