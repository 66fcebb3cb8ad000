import { IncidentMessageSchema } from '../../db/entities';
import { ProblemError, notFound } from '../../domain/error-catalog';
import { isUuid } from '../../domain/ids';
import { toIso } from '../../domain/time';
import type { OrgContext } from '../shared/context';
import { change, commit, load, view } from './incidents';
import type { IncidentView } from './view';

export interface MessageEdit {
  body: string;
  /** Email the edited message to subscribers again; default false (a correction is not news). */
  notify_subscribers?: boolean;
}

function invalid(path: string, message: string): ProblemError {
  return new ProblemError('validation_failed', `${path}: ${message}`, { errors: [{ path, message }] });
}

/**
 * Replaces a timeline message's body, of a draft or a published incident, keeping the body it
 * replaces. Event incident.updated (webhooks learn of the change); subscribers are emailed only
 * when asked, and only about the latest message of a published incident, as an update
 * (incident.message_added), since their email always carries the latest message.
 */
export async function editIncidentMessage(
  ctx: OrgContext,
  incidentId: string,
  messageId: string,
  edit: MessageEdit,
): Promise<IncidentView> {
  return change(ctx, async (t) => {
    const incident = await load(t, incidentId, { lock: true });
    const message = isUuid(messageId)
      ? await t.em.findOne(IncidentMessageSchema, { id: messageId, incident: incident.id, organization: t.org.id })
      : null;
    if (!message) throw notFound('Message');
    const renotify = edit.notify_subscribers === true;
    if (renotify) {
      if (!incident.publishedAt)
        throw invalid('notify_subscribers', 'A draft is never emailed: publish it, and its messages go out then');
      const messages = await t.em.find(
        IncidentMessageSchema,
        { incident: incident.id },
        { orderBy: { postedAt: 'desc', id: 'desc' }, limit: 1 },
      );
      if (messages[0]?.id !== message.id)
        throw invalid(
          'notify_subscribers',
          'Only the latest message can be emailed again (subscribers receive the latest message)',
        );
    }
    const changed = edit.body !== message.body;
    if (!changed && !renotify) return view(t, incident);
    if (changed) {
      message.previousBodies = [...(message.previousBodies ?? []), { body: message.body, replaced_at: toIso(t.now) }];
      message.body = edit.body;
      message.editedAt = t.now;
    }
    return commit(t, incident, [
      ...(changed ? ['incident.updated'] : []),
      ...(renotify ? ['incident.message_added'] : []),
    ]);
  });
}
