import { randomUUID } from 'node:crypto';
import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { type Maintenance, MaintenanceMessageSchema, MaintenanceSchema } from '../../db/entities';
import { ProblemError, notFound } from '../../domain/error-catalog';
import { isUuid } from '../../domain/ids';
import { maintenanceState } from '../../domain/maintenance-state';
import { recordEvent } from '../events/outbox';
import { type MaintenanceView, maintenanceView } from './view';

export type MaintenanceTransition = 'start' | 'complete' | 'cancel' | 'starting_soon';

interface Target {
  organizationId: string;
  maintenanceId: string;
}

export async function loadMaintenance(em: EntityManager, t: Target, lock = false): Promise<Maintenance> {
  const m = isUuid(t.maintenanceId)
    ? await em.findOne(
        MaintenanceSchema,
        { id: t.maintenanceId, organization: t.organizationId, deletedAt: null },
        lock ? { lockMode: LockMode.PESSIMISTIC_WRITE } : {},
      )
    : null;
  if (!m) throw notFound('Maintenance');
  return m;
}

export async function viewOf(em: EntityManager, m: Maintenance): Promise<MaintenanceView> {
  return maintenanceView(m, await em.find(MaintenanceMessageSchema, { maintenance: m.id }));
}

/** Why a transition cannot apply now, or null when it can. */
function refusal(m: Maintenance, transition: MaintenanceTransition): ProblemError | null {
  const state = maintenanceState(m);
  if (state === 'canceled') return new ProblemError('already_canceled', 'The maintenance has already been canceled.');
  // Spec §3.1: cancel applies from every state but canceled, a completed maintenance included.
  if (transition === 'cancel') return null;
  if (state === 'completed') return new ProblemError('already_completed', 'The maintenance has already completed.');
  if (transition === 'start' && state === 'in_progress')
    return new ProblemError('already_started', 'The maintenance has already started.');
  if (transition === 'complete' && state === 'scheduled')
    return new ProblemError('not_started', 'Only a maintenance in progress can be completed; start it first.');
  if (transition === 'starting_soon' && (state !== 'scheduled' || m.startingSoonAt))
    return new ProblemError('already_started', 'Starting-soon was already announced.');
  return null;
}

function isDue(m: Maintenance, transition: MaintenanceTransition, now: Date): boolean {
  if (transition === 'start') return m.scheduledStartAt.getTime() <= now.getTime();
  if (transition === 'complete') return m.scheduledEndAt.getTime() <= now.getTime();
  return true;
}

const SYSTEM_MESSAGES: Record<Exclude<MaintenanceTransition, 'starting_soon'>, { type: string; body: string }> = {
  start: { type: 'Information', body: 'Maintenance started.' },
  complete: { type: 'Resolved', body: 'Maintenance completed.' },
  cancel: { type: 'Information', body: 'Maintenance canceled.' },
};

const EVENTS: Record<MaintenanceTransition, string> = {
  start: 'maintenance.started',
  complete: 'maintenance.completed',
  cancel: 'maintenance.canceled',
  starting_soon: 'maintenance.starting_soon',
};

/**
 * The one implementation of every maintenance transition, whether the API or the workflow's timer
 * triggers it: timestamp, system message and event in one transaction. `strict` (the API) answers
 * 409 for a transition that cannot apply; otherwise (the timer, retried by Temporal) it is a no-op.
 */
export async function applyMaintenanceTransition(
  em: EntityManager,
  target: Target,
  transition: MaintenanceTransition,
  now: Date,
  opts: { strict: boolean; onlyWhenDue?: boolean },
): Promise<{ view: MaintenanceView; applied: boolean }> {
  return em.transactional(async (tx) => {
    const m = await loadMaintenance(tx, target, true);
    const refused = refusal(m, transition);
    // A timer that fires for times a PATCH has since moved later applies nothing; the workflow re-plans.
    if (opts.onlyWhenDue && !refused && !isDue(m, transition, now))
      return { view: await viewOf(tx, m), applied: false };
    if (refused) {
      if (opts.strict) throw refused;
      return { view: await viewOf(tx, m), applied: false };
    }
    if (transition === 'start') m.actualStartAt = now;
    if (transition === 'complete') m.actualEndAt = now;
    if (transition === 'cancel') m.canceledAt = now;
    if (transition === 'starting_soon') m.startingSoonAt = now;
    m.updatedAt = now;
    if (transition !== 'starting_soon') {
      const msg = SYSTEM_MESSAGES[transition];
      tx.create(MaintenanceMessageSchema, {
        id: randomUUID(),
        organization: target.organizationId,
        maintenance: m.id,
        type: msg.type,
        kind: 'system',
        body: msg.body,
        notifySubscribers: null,
        postedAt: now,
      });
    }
    await tx.flush();
    const view = await viewOf(tx, m);
    recordEvent(tx, {
      organizationId: target.organizationId,
      type: EVENTS[transition],
      resourceKind: 'maintenance',
      resourceId: m.id,
      payload: view,
      now,
    });
    await tx.flush();
    return { view, applied: true };
  });
}
