import { randomUUID } from 'node:crypto';
import { NotificationChannelSchema } from '../../db/entities';
import { URL_CHANNEL_TYPES } from '../../domain/alerting/channel-types';
import type { FieldError } from '../../domain/error-catalog';
import { isUuid } from '../../domain/ids';
import type { SecretBox } from '../../crypto/secret-box';
import { newWebhookSecret } from '../../crypto/webhook-signing';
import type { OrgContext } from '../shared/context';
import { findLive, listLive, softDelete } from '../shared/org-resources';
import { inUseByPolicies, policiesTargeting } from './policies';
import { type ChannelSecret, openChannelSecret, sealChannelSecret, secretHint } from './channel-secrets';
import { type ChannelType, type ChannelView, channelView, invalidFields } from './views';

/** What a client sends: the type's own fields at the top level (secrets among them). */
export type ChannelInput = { name: string; enabled?: boolean } & (
  | { type: 'email'; addresses: string[] }
  | { type: 'slack'; url: string; signing_secret?: string }
  | { type: 'teams' | 'discord' | 'webhook'; url: string }
  | { type: 'pagerduty'; routing_key: string; api_url?: string }
  | { type: 'opsgenie'; api_key: string; region?: 'us' | 'eu'; api_url?: string }
);

export interface ChannelPatch {
  name?: string;
  enabled?: boolean;
  addresses?: string[];
  url?: string;
  /** Slack: the app's signing secret (interactive buttons); null removes it. */
  signing_secret?: string | null;
  routing_key?: string;
  api_key?: string;
  region?: 'us' | 'eu';
  /** PagerDuty and Opsgenie: the channel's own endpoint; null: the vendor's default again. */
  api_url?: string | null;
}

/** Which types each type-specific field belongs to (PATCH refuses a field of another type). */
const FIELD_TYPES: Record<
  'addresses' | 'url' | 'signing_secret' | 'routing_key' | 'api_key' | 'region' | 'api_url',
  readonly ChannelType[]
> = {
  addresses: ['email'],
  url: URL_CHANNEL_TYPES,
  signing_secret: ['slack'],
  routing_key: ['pagerduty'],
  api_key: ['opsgenie'],
  region: ['opsgenie'],
  api_url: ['pagerduty', 'opsgenie'],
};

const uniqueAddresses = (list: string[]) => [...new Set(list.map((a) => a.trim()))];

/** What may be shown, and what is sealed, of a channel as sent. */
function split(input: ChannelInput): { settings: Record<string, unknown>; secret: ChannelSecret | null } {
  switch (input.type) {
    case 'email':
      return { settings: { addresses: uniqueAddresses(input.addresses) }, secret: null };
    case 'webhook':
      return { settings: {}, secret: { url: input.url, signing_secret: newWebhookSecret() } };
    case 'slack':
      return input.signing_secret
        ? {
            settings: slackSettings(input.signing_secret),
            secret: { url: input.url, signing_secret: input.signing_secret },
          }
        : { settings: {}, secret: { url: input.url } };
    case 'teams':
    case 'discord':
      return { settings: {}, secret: { url: input.url } };
    case 'pagerduty':
      return { settings: input.api_url ? { api_url: input.api_url } : {}, secret: { routing_key: input.routing_key } };
    case 'opsgenie':
      return {
        settings: { region: input.region ?? 'us', ...(input.api_url ? { api_url: input.api_url } : {}) },
        secret: { api_key: input.api_key },
      };
  }
}

/** A Slack channel shows that it has a signing secret (its buttons are interactive) by the secret's last four characters. */
const slackSettings = (signingSecret: string | undefined): Record<string, unknown> =>
  signingSecret ? { signing_secret_hint: `…${signingSecret.slice(-4)}` } : {};

export async function createChannel(ctx: OrgContext, box: SecretBox, input: ChannelInput): Promise<ChannelView> {
  const { settings, secret } = split(input);
  const c = ctx.em.create(NotificationChannelSchema, {
    id: randomUUID(),
    organization: ctx.org.id,
    name: input.name,
    type: input.type,
    settings,
    sealedSecret: secret ? sealChannelSecret(box, secret) : null,
    secretHint: secret ? secretHint(secret) : null,
    disabledAt: input.enabled === false ? ctx.now : null,
    deletedAt: null,
    createdAt: ctx.now,
    updatedAt: ctx.now,
  });
  await ctx.em.flush();
  return channelView(c);
}

export async function getChannel(ctx: OrgContext, id: string): Promise<ChannelView> {
  return channelView(await findLive(ctx, NotificationChannelSchema, id, 'Notification channel'));
}

/** A webhook channel's signing secret, for its create answer (also on an idempotent replay); null for other types (a Slack app's signing secret is write-only). */
export async function revealSigningSecret(ctx: OrgContext, box: SecretBox, id: string): Promise<string | null> {
  const c = await findLive(ctx, NotificationChannelSchema, id, 'Notification channel');
  if (c.type !== 'webhook') return null;
  return openChannelSecret(box, c.sealedSecret ?? null).signing_secret ?? null;
}

export async function listChannels(ctx: OrgContext, query: { limit: number; cursor?: string }) {
  const page = await listLive(ctx, NotificationChannelSchema, query);
  return { items: page.items.map(channelView), nextCursor: page.nextCursor };
}

/** Changes the fields sent; a secret field sent replaces that secret (a webhook channel keeps its signing secret). */
export async function updateChannel(
  ctx: OrgContext,
  box: SecretBox,
  id: string,
  patch: ChannelPatch,
): Promise<ChannelView> {
  const c = await findLive(ctx, NotificationChannelSchema, id, 'Notification channel');
  const type = c.type as ChannelType;
  const errors: FieldError[] = [];
  for (const [field, types] of Object.entries(FIELD_TYPES)) {
    if (patch[field as keyof ChannelPatch] !== undefined && !types.includes(type))
      errors.push({ path: field, message: `Not a field of a ${type} channel` });
  }
  if (errors.length) throw invalidFields(errors);
  if (patch.name !== undefined) c.name = patch.name;
  if (patch.enabled !== undefined) c.disabledAt = patch.enabled ? null : (c.disabledAt ?? ctx.now);
  if (patch.addresses !== undefined) c.settings = { ...c.settings, addresses: uniqueAddresses(patch.addresses) };
  if (patch.region !== undefined) c.settings = { ...c.settings, region: patch.region };
  if (patch.api_url !== undefined) {
    const { api_url: _, ...rest } = c.settings;
    c.settings = patch.api_url === null ? rest : { ...rest, api_url: patch.api_url };
  }
  const replaced: ChannelSecret = {
    ...(patch.url !== undefined ? { url: patch.url } : {}),
    ...(patch.routing_key !== undefined ? { routing_key: patch.routing_key } : {}),
    ...(patch.api_key !== undefined ? { api_key: patch.api_key } : {}),
  };
  if (patch.signing_secret !== undefined) {
    // Only Slack channels take it (checked above): a webhook channel's own signing secret is never replaced here.
    const { signing_secret_hint: _, ...rest } = c.settings;
    c.settings = { ...rest, ...slackSettings(patch.signing_secret ?? undefined) };
  }
  if (Object.keys(replaced).length || patch.signing_secret !== undefined) {
    const secret: ChannelSecret = { ...openChannelSecret(box, c.sealedSecret ?? null), ...replaced };
    if (patch.signing_secret === null) delete secret.signing_secret;
    else if (patch.signing_secret !== undefined) secret.signing_secret = patch.signing_secret;
    c.sealedSecret = sealChannelSecret(box, secret);
    c.secretHint = secretHint(secret);
  }
  c.updatedAt = ctx.now;
  await ctx.em.flush();
  return channelView(c);
}

/** Soft delete, idempotent; refused (409 in_use) while a live escalation policy targets the channel. */
export async function deleteChannel(ctx: OrgContext, id: string): Promise<ChannelView> {
  const live = isUuid(id)
    ? await ctx.em.findOne(NotificationChannelSchema, { id, organization: ctx.org.id, deletedAt: null })
    : null;
  if (live) {
    const users = await policiesTargeting(ctx, { type: 'channel', id: live.id });
    if (users.length) throw inUseByPolicies('notification channel', users);
  }
  return channelView(await softDelete(ctx, NotificationChannelSchema, id, 'Notification channel'));
}
