import { CONFIRM_CASES, walkedByPure } from '../support/confirm-step-cases';

/**
 * The pure side of the consecutive-rounds counter (confirmStep): each case's flips and what is
 * left pending. test/db/confirm-step.test.ts runs the same table through `vigil_confirm` too.
 */
describe('confirmStep, pure', () => {
  it.each(CONFIRM_CASES.map((c) => [c.name, c] as const))('%s', (_name, c) =>
    expect(walkedByPure(c)).toEqual({ flips: c.flips, pending: c.pending }),
  );
});
