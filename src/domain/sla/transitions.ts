/**
 * The SLA statement's states and the moves finance makes between them (spec §3.2 lists the
 * states; the transitions are ours). Pure and free of imports so the workflow bundle can use it
 * in its update validators.
 *
 *   draft ──submit──▶ in_review ──approve──▶ approved ──deliver──▶ delivered
 *     ▲  ◀─request_changes─┘                   │                     │
 *     └──── add_exclusion, remove_exclusion     └──────correct────────┴──▶ superseded (+ new draft revision)
 *           (recompute)
 *   draft | in_review | approved ──void──▶ void
 *
 * - approve needs the revision and sha256 the approver saw (`stale_revision` otherwise) and an
 *   approver other than whoever submitted (`approver_is_submitter`).
 * - add_exclusion and remove_exclusion only in draft: a statement under review is sent back first (request_changes).
 * - correct from approved or delivered: the old revision becomes superseded and a new draft
 *   revision is computed from the evidence as it is now (late samples, new exclusions).
 * - void and superseded are final; so is delivered once the correction window has passed.
 */
export const STATEMENT_STATES = ['draft', 'in_review', 'approved', 'delivered', 'superseded', 'void'] as const;
export type StatementState = (typeof STATEMENT_STATES)[number];

export const STATEMENT_ACTIONS = [
  'submit',
  'approve',
  'request_changes',
  'add_exclusion',
  'remove_exclusion',
  'deliver',
  'correct',
  'void',
] as const;
export type StatementAction = (typeof STATEMENT_ACTIONS)[number];

const FROM: Readonly<Record<StatementAction, readonly StatementState[]>> = {
  submit: ['draft'],
  approve: ['in_review'],
  request_changes: ['in_review'],
  add_exclusion: ['draft'],
  remove_exclusion: ['draft'],
  deliver: ['approved'],
  correct: ['approved', 'delivered'],
  void: ['draft', 'in_review', 'approved'],
};

/** The state the action leaves the (current revision of the) statement in. */
const TO: Readonly<Record<StatementAction, StatementState>> = {
  submit: 'in_review',
  approve: 'approved',
  request_changes: 'draft',
  add_exclusion: 'draft',
  remove_exclusion: 'draft',
  deliver: 'delivered',
  correct: 'draft',
  void: 'void',
};

export function isStatementState(value: unknown): value is StatementState {
  return typeof value === 'string' && (STATEMENT_STATES as readonly string[]).includes(value);
}

export function allowedFrom(action: StatementAction): readonly StatementState[] {
  return FROM[action];
}

export function stateAfter(action: StatementAction): StatementState {
  return TO[action];
}

export type TransitionRefusal = {
  token: 'invalid_transition' | 'stale_revision' | 'approver_is_submitter';
  detail: string;
};

export interface StatementFacts {
  state: StatementState;
  revision: number;
  sha256: string;
  submittedBy: string | null;
}

export interface ActionRequest {
  action: StatementAction;
  actor: string;
  /** approve: what the approver saw. */
  revision?: number;
  sha256?: string;
}

/** Null when the action may run on a statement in this state, else why not. */
export function refuseTransition(facts: StatementFacts, request: ActionRequest): TransitionRefusal | null {
  const from = FROM[request.action];
  if (!from.includes(facts.state)) {
    return {
      token: 'invalid_transition',
      detail: `Cannot ${request.action.replace('_', ' ')} a statement that is ${facts.state.replace('_', ' ')} (allowed from: ${from.join(', ')}).`,
    };
  }
  if (request.action === 'approve') {
    if (request.revision !== facts.revision || request.sha256?.toLowerCase() !== facts.sha256) {
      return {
        token: 'stale_revision',
        detail: `The statement is now revision ${facts.revision} with sha256 ${facts.sha256}; you approved revision ${request.revision ?? '?'} with sha256 ${request.sha256 ?? '?'}. Review the current revision and approve again.`,
      };
    }
    if (facts.submittedBy !== null && facts.submittedBy === request.actor) {
      return {
        token: 'approver_is_submitter',
        detail:
          'The statement must be approved by someone other than whoever submitted it (another API key, or another console user).',
      };
    }
  }
  return null;
}

/** What the credit stands at in each state (spec §2.6 `credit_state`): none when nothing is owed. */
export function creditStateOf(
  state: StatementState,
  creditAmountMinor: number,
): 'none' | 'pending' | 'approved' | 'issued' | 'superseded' | 'void' {
  if (state === 'void') return 'void';
  if (state === 'superseded') return 'superseded';
  if (creditAmountMinor === 0) return 'none';
  if (state === 'approved') return 'approved';
  if (state === 'delivered') return 'issued';
  return 'pending';
}
