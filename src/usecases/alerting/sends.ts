import { NotificationAttemptSchema, NotificationChannelSchema, NotificationSendSchema } from '../../db/entities';
import { pageOf } from '../../domain/cursor';
import type { OrgContext } from '../context';
import { NEWEST_FIRST, afterCursor } from '../keyset';
import { findLive } from '../org-resources';
import { type SendView, sendView } from './views';

/** A channel's sends (alert notifications and tests), newest first, each with every attempt. */
export async function listSends(
  ctx: OrgContext,
  channelId: string,
  query: { limit: number; cursor?: string },
): Promise<{ items: SendView[]; nextCursor: string | null }> {
  await findLive(ctx, NotificationChannelSchema, channelId, 'Notification channel');
  const rows = await ctx.em.find(
    NotificationSendSchema,
    { organization: ctx.org.id, channel: channelId, ...afterCursor(query.cursor) },
    { orderBy: NEWEST_FIRST, limit: query.limit + 1 },
  );
  const page = pageOf(rows, query.limit);
  const attempts = page.items.length
    ? await ctx.em.find(NotificationAttemptSchema, { send: { $in: page.items.map((s) => s.id) } })
    : [];
  return { items: page.items.map((s) => sendView(s, attempts)), nextCursor: page.nextCursor };
}
