import { randomUUID } from 'node:crypto';
import { WebhookSubscriptionSchema } from '../../db/entities';
import type { SUBSCRIBABLE_EVENT_TYPES } from '../../domain/event-types';
import type { SecretBox } from '../../crypto/secret-box';
import { newWebhookSecret } from '../../crypto/webhook-signing';
import type { OrgContext } from '../shared/context';
import { findLive, listLive, softDelete } from '../shared/org-resources';
import { assertWritable, reserveQuota } from '../shared/plan-limits';
import { type WebhookView, webhookView } from './views';

/** How long the secret before a rotation keeps signing, so receivers can switch without a gap. */
export const ROTATION_OVERLAP_MS = 24 * 3600 * 1000;

export interface WebhookInput {
  url: string;
  description?: string | null;
  event_types: (typeof SUBSCRIBABLE_EVENT_TYPES)[number][];
  enabled?: boolean;
  /** Bring your own `whsec_…` secret; generated when absent. */
  secret?: string;
}

export type WebhookPatch = Partial<Omit<WebhookInput, 'secret'>>;

export async function createWebhook(ctx: OrgContext, box: SecretBox, input: WebhookInput): Promise<WebhookView> {
  return ctx.em.transactional(async (em) => {
    await reserveQuota(ctx, em, 'webhooks');
    const s = em.create(WebhookSubscriptionSchema, {
      id: randomUUID(),
      organization: ctx.org.id,
      url: input.url,
      description: input.description ?? null,
      eventTypes: [...new Set(input.event_types)],
      sealedSecret: box.seal(input.secret ?? newWebhookSecret()),
      sealedPreviousSecret: null,
      previousSecretExpiresAt: null,
      disabledAt: input.enabled === false ? ctx.now : null,
      deletedAt: null,
      createdAt: ctx.now,
      updatedAt: ctx.now,
    });
    await em.flush();
    return webhookView(s, ctx.now);
  });
}

export async function getWebhook(ctx: OrgContext, id: string): Promise<WebhookView> {
  return webhookView(await findLive(ctx, WebhookSubscriptionSchema, id, 'Webhook'), ctx.now);
}

/** The current signing secret, for the create response (also on an idempotent replay) and rotation. */
export async function revealWebhookSecret(ctx: OrgContext, box: SecretBox, id: string): Promise<string> {
  return box.open((await findLive(ctx, WebhookSubscriptionSchema, id, 'Webhook')).sealedSecret);
}

export async function listWebhooks(ctx: OrgContext, query: { limit: number; cursor?: string }) {
  const page = await listLive(ctx, WebhookSubscriptionSchema, query);
  return { items: page.items.map((s) => webhookView(s, ctx.now)), nextCursor: page.nextCursor };
}

export async function updateWebhook(ctx: OrgContext, id: string, patch: WebhookPatch): Promise<WebhookView> {
  const s = await findLive(ctx, WebhookSubscriptionSchema, id, 'Webhook');
  // Disabling only reduces what the item does, so it is allowed beyond the quota too.
  const onlyDisables = Object.keys(patch).every((k) => k === 'enabled') && patch.enabled === false;
  if (!onlyDisables) await assertWritable(ctx, 'webhooks', s);
  if (patch.url !== undefined) s.url = patch.url;
  if (patch.description !== undefined) s.description = patch.description;
  if (patch.event_types !== undefined) s.eventTypes = [...new Set(patch.event_types)];
  if (patch.enabled !== undefined) s.disabledAt = patch.enabled ? null : (s.disabledAt ?? ctx.now);
  s.updatedAt = ctx.now;
  await ctx.em.flush();
  return webhookView(s, ctx.now);
}

/**
 * A new secret signs from now on; the old one keeps signing beside it (two `v1,` entries in
 * `webhook-signature`) for ROTATION_OVERLAP_MS, so receivers can roll over without rejecting.
 */
export async function rotateWebhookSecret(
  ctx: OrgContext,
  box: SecretBox,
  id: string,
): Promise<{ view: WebhookView; secret: string }> {
  const s = await findLive(ctx, WebhookSubscriptionSchema, id, 'Webhook');
  await assertWritable(ctx, 'webhooks', s);
  const secret = newWebhookSecret();
  s.sealedPreviousSecret = s.sealedSecret;
  s.previousSecretExpiresAt = new Date(ctx.now.getTime() + ROTATION_OVERLAP_MS);
  s.sealedSecret = box.seal(secret);
  s.updatedAt = ctx.now;
  await ctx.em.flush();
  return { view: webhookView(s, ctx.now), secret };
}

/** Soft delete (idempotent); deliveries still retrying stop at their next attempt. */
export async function deleteWebhook(ctx: OrgContext, id: string): Promise<WebhookView> {
  return webhookView(await softDelete(ctx, WebhookSubscriptionSchema, id, 'Webhook'), ctx.now);
}
