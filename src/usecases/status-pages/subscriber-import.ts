import { randomUUID } from 'node:crypto';
import { parse } from 'csv-parse/sync';
import { z } from 'zod';
import { CustomerSchema, SubscriberSchema } from '../../db/entities';
import { ProblemError } from '../../domain/error-catalog';
import type { OrgContext } from '../shared/context';
import { recordEvent } from '../events/outbox';
import { pageServiceIds } from '../shared/page-coverage';
import { CONFIRMATION_EVENT } from '../../domain/status-page/notify-events';
import { isUuid } from '../../domain/ids';
import { getStatusPage } from './pages';

export const IMPORT_MAX_ROWS = 10_000;

export interface ImportRow {
  email: string;
  components?: string[];
  customer_id?: string | null;
}

export interface ImportResult {
  received: number;
  created: number;
  /** Addresses already on the page (left as they are). */
  existing: number;
  /** Confirmation emails queued (new rows when confirmation is not skipped). */
  confirmations_queued: number;
  errors: { row: number; path: string; message: string }[];
}

const Email = z.email().max(320);

/** Reads CSV with a header row: `email` (required), `components` (service ids separated by `;` or spaces), `customer_id`. */
export function rowsFromCsv(csv: string): ImportRow[] {
  let records: Record<string, string>[];
  try {
    records = parse(csv, {
      columns: (h: string[]) => h.map((x) => x.trim().toLowerCase()),
      skip_empty_lines: true,
      trim: true,
      bom: true,
    });
  } catch (err) {
    throw new ProblemError('validation_failed', 'The CSV could not be read.', {
      errors: [{ path: 'csv', message: (err as Error).message }],
    });
  }
  if (records.length && !('email' in records[0]!)) {
    throw new ProblemError('validation_failed', 'The CSV needs a header row with an "email" column.', {
      errors: [{ path: 'csv', message: 'Missing email column' }],
    });
  }
  return records.map((r) => ({
    email: r.email ?? '',
    components: (r.components ?? '').split(/[;\s]+/).filter(Boolean),
    customer_id: r.customer_id ? r.customer_id : null,
  }));
}

/**
 * Adds subscribers in bulk. Each row is checked on its own; bad rows are reported with their
 * number (1-based, as in the file) and never stop the good ones. With `skipConfirmation` the
 * operator attests the list already consented: rows start confirmed and get no email.
 */
export async function importSubscribers(
  ctx: OrgContext,
  pageId: string,
  rows: ImportRow[],
  skipConfirmation: boolean,
): Promise<ImportResult> {
  if (rows.length > IMPORT_MAX_ROWS) {
    throw new ProblemError('validation_failed', `At most ${IMPORT_MAX_ROWS} rows per import.`, {
      errors: [{ path: 'body', message: `${rows.length} rows` }],
    });
  }
  const page = await getStatusPage(ctx, pageId);
  const shown = new Set(await pageServiceIds(ctx.em, page));
  const customerIds = [...new Set(rows.flatMap((r) => (r.customer_id ? [r.customer_id] : [])))].filter(isUuid);
  const customers = new Set(
    customerIds.length
      ? (
          await ctx.em.find(
            CustomerSchema,
            { id: { $in: customerIds }, organization: ctx.org.id, deletedAt: null },
            { fields: ['id'] },
          )
        ).map((c) => c.id)
      : [],
  );
  const result: ImportResult = { received: rows.length, created: 0, existing: 0, confirmations_queued: 0, errors: [] };
  const valid: (ImportRow & { email: string })[] = [];
  const seen = new Set<string>();
  rows.forEach((r, i) => {
    const row = i + 1;
    const email = String(r.email ?? '')
      .trim()
      .toLowerCase();
    if (!Email.safeParse(email).success)
      return void result.errors.push({ row, path: 'email', message: 'Not a valid email address' });
    const bad = (r.components ?? []).findIndex((c) => !shown.has(c));
    if (bad >= 0)
      return void result.errors.push({ row, path: `components.${bad}`, message: 'Not a service shown on this page' });
    if (r.customer_id && !customers.has(r.customer_id))
      return void result.errors.push({ row, path: 'customer_id', message: 'No such customer' });
    if (seen.has(email)) return void result.errors.push({ row, path: 'email', message: 'Repeats an earlier row' });
    seen.add(email);
    valid.push({ ...r, email });
  });
  await ctx.em.transactional(async (tx) => {
    const present = new Set(
      valid.length
        ? (
            await tx.find(
              SubscriberSchema,
              { page: page.id, email: { $in: valid.map((v) => v.email) } },
              { fields: ['email'] },
            )
          ).map((s) => s.email)
        : [],
    );
    for (const r of valid) {
      if (present.has(r.email)) {
        result.existing++;
        continue;
      }
      const s = tx.create(SubscriberSchema, {
        id: randomUUID(),
        organization: ctx.org.id,
        page: page.id,
        email: r.email,
        components: [...new Set(r.components ?? [])],
        // An empty customer_id is none, in JSON rows as in CSV ones.
        customer: r.customer_id || null,
        state: skipConfirmation ? 'confirmed' : 'pending',
        source: 'import',
        confirmationSentAt: skipConfirmation ? null : ctx.now,
        confirmedAt: skipConfirmation ? ctx.now : null,
        unsubscribedAt: null,
        createdAt: ctx.now,
        updatedAt: ctx.now,
      });
      result.created++;
      if (!skipConfirmation) {
        recordEvent(tx, {
          organizationId: ctx.org.id,
          type: CONFIRMATION_EVENT,
          resourceKind: 'subscriber',
          resourceId: s.id,
          payload: { subscriber_id: s.id, page_id: page.id },
          now: ctx.now,
        });
        result.confirmations_queued++;
      }
    }
    await tx.flush();
  });
  return result;
}
