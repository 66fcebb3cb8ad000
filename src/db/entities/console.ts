import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { OrganizationSchema } from './organization';

/** A person who signs in to the console of one organization, with a role (owner, operator, finance, viewer). */
export const ConsoleUserSchema = defineEntity({
  name: 'ConsoleUser',
  tableName: 'console_users',
  properties: {
    id: p.uuid().primary(),
    organization: p.manyToOne(OrganizationSchema).mapToPk().deleteRule('cascade'),
    /** Lower-cased; unique within the organization. */
    email: p.string().length(320),
    role: p.string().length(16),
    createdAt: p.datetime(3),
    lastSignInAt: p.datetime(3).nullable(),
    disabledAt: p.datetime(3).nullable(),
    /** IANA zone the user reads and enters times in; null: the browser's (UTC without script). */
    timeZone: p.string().length(64).nullable(),
  },
  indexes: [
    {
      name: 'console_users_org_email_unique',
      expression: 'create unique index console_users_org_email_unique on console_users (organization_id, email)',
    },
  ],
});
export type ConsoleUser = InferEntity<typeof ConsoleUserSchema>;

/** A one-time sign-in link: only its hash is stored; it works once, until `expiresAt`. */
export const ConsoleSignInTokenSchema = defineEntity({
  name: 'ConsoleSignInToken',
  tableName: 'console_sign_in_tokens',
  properties: {
    id: p.uuid().primary(),
    user: p.manyToOne(ConsoleUserSchema).mapToPk().deleteRule('cascade').index(),
    tokenHash: p.string().length(64).unique(),
    createdAt: p.datetime(3),
    expiresAt: p.datetime(3),
    usedAt: p.datetime(3).nullable(),
  },
});
export type ConsoleSignInToken = InferEntity<typeof ConsoleSignInTokenSchema>;

/** A signed-in browser: the cookie carries a random token, the row its hash and its clocks. */
export const ConsoleSessionSchema = defineEntity({
  name: 'ConsoleSession',
  tableName: 'console_sessions',
  properties: {
    id: p.uuid().primary(),
    user: p.manyToOne(ConsoleUserSchema).mapToPk().deleteRule('cascade').index(),
    tokenHash: p.string().length(64).unique(),
    createdAt: p.datetime(3),
    lastSeenAt: p.datetime(3),
    /** The absolute end; an idle session ends earlier (CONSOLE_SESSION_IDLE_MS after lastSeenAt). */
    expiresAt: p.datetime(3),
    endedAt: p.datetime(3).nullable(),
  },
});
export type ConsoleSession = InferEntity<typeof ConsoleSessionSchema>;
