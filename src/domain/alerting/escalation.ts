/**
 * Escalation policies (`/v1/escalation-policies`): ordered levels, each notifying its
 * targets and then waiting `delay_minutes` before the next level; after the last level the whole
 * policy runs again `repeat` more times (the last level's delay is the wait before the repeat).
 * The alert workflow walks `escalationSteps` and stops at acknowledgement or resolution.
 */
import { z } from 'zod';
import {
  fieldErrors,
  intBetween,
  nonBlank,
  orRequired,
  requiredMessage,
  type Validated,
} from '../on-call/field-errors';

export type EscalationTarget =
  { type: 'channel'; id: string } | { type: 'schedule'; id: string } | { type: 'user'; email: string };

export interface EscalationLevel {
  /** Wait after this level was notified before the next level (or the next pass). */
  delay_minutes: number;
  targets: EscalationTarget[];
}

export interface EscalationPolicy {
  levels: EscalationLevel[];
  /** 0..10: run the whole policy this many more times. */
  repeat: number;
}

export interface EscalationStep {
  /** 1-based level. */
  level: number;
  /** 0-based repeat pass. */
  pass: number;
  targets: EscalationTarget[];
  /** Wait after notifying before the next step; null after the very last step. */
  wait_after_ms: number | null;
}

export const MAX_LEVELS = 20;
export const MAX_TARGETS_PER_LEVEL = 20;
export const MAX_REPEAT = 10;
export const MAX_DELAY_MINUTES = 1_440;

export function escalationSteps(policy: EscalationPolicy): EscalationStep[] {
  const steps: EscalationStep[] = [];
  for (let pass = 0; pass <= policy.repeat; pass++) {
    policy.levels.forEach((level, i) => {
      steps.push({ level: i + 1, pass, targets: level.targets, wait_after_ms: level.delay_minutes * 60_000 });
    });
  }
  const last = steps[steps.length - 1];
  if (last) last.wait_after_ms = null;
  return steps;
}

const TargetSchema = z.discriminatedUnion(
  'type',
  [
    z.strictObject({ type: z.literal('channel'), id: nonBlank(320) }),
    z.strictObject({ type: z.literal('schedule'), id: nonBlank(320) }),
    z.strictObject({ type: z.literal('user'), email: z.email({ error: orRequired('must be an email address') }) }),
  ],
  { error: orRequired("must be 'channel', 'schedule' or 'user'") },
);

const targetKey = (t: EscalationTarget): string =>
  t.type === 'user' ? `user:${t.email.toLowerCase()}` : `${t.type}:${t.id}`;

const LevelSchema = z
  .strictObject({
    delay_minutes: intBetween(1, MAX_DELAY_MINUTES, `must be a whole number of minutes from 1 to ${MAX_DELAY_MINUTES}`),
    targets: z
      .array(TargetSchema, { error: orRequired('must be a list of targets') })
      .min(1, { error: 'must name at least one target' })
      .max(MAX_TARGETS_PER_LEVEL, { error: `must name at most ${MAX_TARGETS_PER_LEVEL} targets` }),
  })
  .superRefine((level, ctx) => {
    const seen = new Set<string>();
    level.targets.forEach((t, i) => {
      const key = targetKey(t);
      if (seen.has(key))
        ctx.addIssue({ code: 'custom', path: ['targets', i], message: 'names the same target twice in one level' });
      seen.add(key);
    });
  });

export const EscalationPolicySchema = z.strictObject({
  levels: z
    .array(LevelSchema, { error: orRequired('must be a list of levels') })
    .min(1, { error: 'must hold at least one level' })
    .max(MAX_LEVELS, { error: `must hold at most ${MAX_LEVELS} levels` }),
  repeat: intBetween(0, MAX_REPEAT, `must be a whole number from 0 to ${MAX_REPEAT}`).optional(),
});

/** A policy as a client sends it; `repeat` defaults to 0. */
export function validateEscalationPolicy(input: unknown): Validated<EscalationPolicy> {
  const parsed = EscalationPolicySchema.safeParse(input, { error: requiredMessage });
  if (!parsed.success) return { ok: false, errors: fieldErrors(parsed.error) };
  return { ok: true, value: { levels: parsed.data.levels, repeat: parsed.data.repeat ?? 0 } };
}
