import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { type Maintenance, MaintenanceMessageSchema } from '../../db/entities';
import { ProblemError } from '../../domain/error-catalog';
import { maintenanceState } from '../../domain/maintenance-state';
import type { OrgContext } from '../shared/context';
import { recordEvent } from '../events/outbox';
import { loadMaintenance, viewOf } from './transitions';
import type { MaintenanceView } from './view';

export interface MaintenanceMessageInput {
  body: string;
  /** Default true: the page's subscribers get the update by email. */
  notify_subscribers?: boolean;
}

/** Refuses changes to a maintenance that is over (canceled or completed). */
export function assertOpen(m: Maintenance): void {
  const state = maintenanceState(m);
  if (state === 'canceled') throw new ProblemError('already_canceled', 'The maintenance has already been canceled.');
  if (state === 'completed') throw new ProblemError('already_completed', 'The maintenance has already completed.');
}

/**
 * Appends an operator's update to the timeline (type Update, shown on the public page) and emits
 * maintenance.message_added, whose payload names the message; subscribers are emailed unless
 * `notify_subscribers` is false.
 */
export async function postMaintenanceMessage(
  ctx: OrgContext,
  id: string,
  input: MaintenanceMessageInput,
): Promise<MaintenanceView> {
  return ctx.em.transactional(async (tx) => {
    const em = tx;
    const m = await loadMaintenance(em, { organizationId: ctx.org.id, maintenanceId: id }, true);
    assertOpen(m);
    const messageId = randomUUID();
    const notify = input.notify_subscribers ?? true;
    em.create(MaintenanceMessageSchema, {
      id: messageId,
      organization: ctx.org.id,
      maintenance: m.id,
      type: 'Update',
      kind: 'update',
      body: input.body,
      notifySubscribers: notify,
      postedAt: ctx.now,
    });
    m.updatedAt = ctx.now;
    await em.flush();
    const view = await viewOf(em, m);
    const message = view.messages.find((x) => x.id === messageId)!;
    recordEvent(em, {
      organizationId: ctx.org.id,
      type: 'maintenance.message_added',
      resourceKind: 'maintenance',
      resourceId: m.id,
      payload: { ...view, message },
      now: ctx.now,
    });
    await em.flush();
    return view;
  });
}

/** Records a moved window on the timeline (kind reschedule, type Information). */
export function recordReschedule(
  em: EntityManager,
  organizationId: string,
  m: Maintenance,
  body: string,
  now: Date,
): void {
  em.create(MaintenanceMessageSchema, {
    id: randomUUID(),
    organization: organizationId,
    maintenance: m.id,
    type: 'Information',
    kind: 'reschedule',
    body,
    notifySubscribers: null,
    postedAt: now,
  });
}
