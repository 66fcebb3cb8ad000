import { ApplicationFailure, Context } from '@temporalio/activity';
import type { Orm } from '../db/orm';
import {
  type BatchOutcome,
  type EmailDeps,
  completeEmailRun,
  planEmails,
  sendEmailBatch,
} from '../usecases/status-pages/notifications';

export type { EmailDeps } from '../usecases/status-pages/notifications';

/** Emails one activity sends before reporting back (keeps each activity short and the history readable). */
export const EMAIL_BATCH = 50;

export function createSubscriberEmailActivities(deps: { orm: Orm; email?: EmailDeps }) {
  const em = () => deps.orm.em.fork();
  const email = () => {
    if (!deps.email)
      throw ApplicationFailure.nonRetryable('This worker was started without a mailer', 'not_configured');
    return deps.email;
  };
  return {
    /** Writes the event's pending emails, one per subscriber it concerns (idempotent). */
    async planSubscriberEmails(eventId: string): Promise<{ recipients: number }> {
      return planEmails(em(), eventId, new Date());
    },
    /** Sends the next batch of due emails of the event and records each outcome. */
    async sendSubscriberEmails(eventId: string): Promise<BatchOutcome> {
      const context = Context.current();
      context.heartbeat();
      const beat = setInterval(() => context.heartbeat(), 5_000);
      try {
        return await sendEmailBatch(em(), email(), eventId, EMAIL_BATCH, new Date());
      } finally {
        clearInterval(beat);
      }
    },
    async finishSubscriberEmails(eventId: string): Promise<void> {
      await completeEmailRun(em(), eventId, new Date());
    },
  };
}
