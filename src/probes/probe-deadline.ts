import type { ProbeContext } from './types';
import { ProbeFailure } from './types';

/** A probe's own deadline: its timeout or the runner's signal, whichever comes first. */
export interface ProbeDeadline {
  /** Aborted when the deadline passes. */
  signal: AbortSignal;
  /** `work`, or a ProbeFailure(`code`) as soon as the deadline passes. */
  race<T>(work: Promise<T>): Promise<T>;
  /** Releases the timer and the listener on ctx.signal. */
  done(): void;
}

/** Starts the deadline: `timeoutMs` from now, or earlier when ctx.signal aborts. `code` is the reason a timeout gives. */
export function probeDeadline(ctx: ProbeContext, timeoutMs: number, code = 'ETIMEDOUT'): ProbeDeadline {
  const controller = new AbortController();
  const abort = () => controller.abort(new ProbeFailure(code));
  const timer = setTimeout(abort, timeoutMs);
  ctx.signal.addEventListener('abort', abort, { once: true });
  if (ctx.signal.aborted) abort();
  const { signal } = controller;
  return {
    signal,
    race: (work) =>
      new Promise((resolve, reject) => {
        if (signal.aborted) return reject(new ProbeFailure(code));
        const onAbort = () => reject(new ProbeFailure(code));
        signal.addEventListener('abort', onAbort, { once: true });
        work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
      }),
    done: () => {
      clearTimeout(timer);
      ctx.signal.removeEventListener('abort', abort);
    },
  };
}
