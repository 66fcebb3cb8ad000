import { NotificationChannelSchema } from '../../db/entities';
import type { OrgContext } from '../shared/context';
import { findLive } from '../shared/org-resources';
import type { ChannelTester } from './alerts';

/** "Send test": one message through the channel's real format, answered with what the receiver said. */
export async function testChannelSend(ctx: OrgContext, tester: ChannelTester, channelId: string) {
  const channel = await findLive(ctx, NotificationChannelSchema, channelId, 'Notification channel');
  const r = await tester.test(ctx.org.id, channel.id);
  return {
    send_id: r.sendId,
    state: r.state as 'succeeded' | 'failed' | 'pending',
    status_code: r.statusCode,
    error: r.error,
    response: r.response,
    latency_ms: r.latencyMs,
  };
}
