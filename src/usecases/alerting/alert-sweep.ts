import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import {
  AgentSchema,
  AlertRuleSchema,
  AlertSchema,
  AlertSignalSchema,
  ProbeLocationSchema,
  SlaStatementSchema,
  SloSchema,
  type AlertRule,
} from '../../db/entities';
import { SUBJECT_KIND_OF, type AlertRuleKind } from '../../domain/alerting/rule-kinds';
import type { AlertSignalRef } from '../events/ports';
import { readSubjectState } from './subject-state';

/** Rule kinds no event announces: the minute's sweep reads their subjects (agents, locations, SLO burn, statements in review). */
export const POLLED_RULE_KINDS: readonly AlertRuleKind[] = [
  'agent_offline',
  'location_offline',
  'slo_burn',
  'sla_review_overdue',
];

async function subjectsOf(em: EntityManager, rule: AlertRule): Promise<string[]> {
  if (rule.subjectId) return [rule.subjectId];
  const org = rule.organization;
  switch (rule.kind) {
    case 'agent_offline':
      return (await em.find(AgentSchema, { organization: org, revokedAt: null }, { fields: ['id'] })).map((a) => a.id);
    case 'location_offline':
      return [...new Set((await em.find(ProbeLocationSchema, {}, { fields: ['id'] })).map((l) => l.id))];
    case 'slo_burn':
      return (await em.find(SloSchema, { organization: org, deletedAt: null }, { fields: ['id'] })).map((s) => s.id);
    case 'sla_review_overdue':
      return (await em.find(SlaStatementSchema, { organization: org, state: 'in_review' }, { fields: ['id'] })).map(
        (s) => s.id,
      );
    default:
      return [];
  }
}

/**
 * One pass over the polled rules: a subject that fires with no open alert gets a firing signal
 * (the alert workflow starts); an open alert whose subject no longer fires gets a recovery signal
 * (it resolves when its rule auto-resolves). Signals are stored first (alert_signals), so the
 * outbox sweep resends any this pass could not deliver.
 */
export async function sweepPolledRules(em: EntityManager, now: Date): Promise<AlertSignalRef[]> {
  const rules = await em.find(AlertRuleSchema, {
    kind: { $in: [...POLLED_RULE_KINDS] },
    deletedAt: null,
    disabledAt: null,
  });
  const refs: AlertSignalRef[] = [];
  for (const rule of rules) {
    const open = new Set(
      (await em.find(AlertSchema, { rule: rule.id, state: { $ne: 'resolved' } }, { fields: ['subjectId'] })).map(
        (a) => a.subjectId,
      ),
    );
    for (const subjectId of new Set([...(await subjectsOf(em, rule)), ...open])) {
      const state = await readSubjectState(
        em,
        rule.organization,
        rule.kind,
        subjectId,
        rule.includeDegraded,
        now,
        rule.settings,
      );
      const firing = state.exists && state.firing;
      if (firing === open.has(subjectId)) continue;
      const signal = em.create(AlertSignalSchema, {
        id: randomUUID(),
        organization: rule.organization,
        rule: rule.id,
        subjectKind: SUBJECT_KIND_OF[rule.kind as AlertRuleKind],
        subjectId,
        eventId: null,
        firing,
        createdAt: now,
        signalledAt: null,
      });
      refs.push({ signalId: signal.id, organizationId: rule.organization, ruleId: rule.id, subjectId, firing });
    }
  }
  await em.flush();
  return refs;
}
