import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { rawRun } from '../raw-sql';

/** A notification send's record, created once per key (a retried activity finds the one it made). */
export async function insertSendOnce(
  em: EntityManager,
  s: {
    organizationId: string;
    channelId: string | null;
    alertId: string | null;
    key: string;
    action: string;
    level: number;
    recipient: string | null;
    now: Date;
  },
): Promise<void> {
  await rawRun(
    em,
    `insert into notification_sends (id, organization_id, channel_id, alert_id, key, action, level, recipient, state, attempt_count, created_at, updated_at)
     values (?, ?, ?, ?, ?, ?, ?, ?, 'pending', 0, ?, ?) on conflict (key) do nothing`,
    [randomUUID(), s.organizationId, s.channelId, s.alertId, s.key, s.action, s.level, s.recipient, s.now, s.now],
  );
}

/** Records a one-click link's use; false when another request used it first. */
export async function claimLinkUse(
  em: EntityManager,
  u: { tokenId: string; alertId: string; action: string; now: Date },
): Promise<boolean> {
  return (
    (await rawRun(
      em,
      `insert into alert_action_uses (token_id, alert_id, action, used_at) values (?, ?, ?, ?) on conflict (token_id) do nothing`,
      [u.tokenId, u.alertId, u.action, u.now],
    )) === 1
  );
}

/** Undoes claimLinkUse when the action could not be done, so the link can be tried again. */
export async function releaseLinkUse(em: EntityManager, tokenId: string): Promise<void> {
  await rawRun(em, `delete from alert_action_uses where token_id = ?`, [tokenId]);
}
