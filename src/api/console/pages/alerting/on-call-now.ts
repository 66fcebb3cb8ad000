import { type OnCallNowRow, onCallNowBlock, openAlertsBlock } from '../../../../render/console/alerts';
import { listAlerts } from '../../../../usecases/alerting/alerts';
import { listSchedules, onCallNow } from '../../../../usecases/alerting/schedules';
import type { ConsoleViewer } from '../../context';

/** Schedules the overview shows (the On call page lists them all). */
const SHOWN = 20;
/** Open alerts counted on the overview ("50+" past it). */
const COUNTED = 50;

/** The overview's "Who is on call now" (each schedule's on-call user) with the number of open alerts; '' without read:alerts. */
export async function onCallNowSection(v: ConsoleViewer): Promise<string> {
  if (!v.can('read:alerts')) return '';
  const schedules = await listSchedules(v.ctx, { limit: SHOWN });
  const rows: OnCallNowRow[] = [];
  for (const s of schedules.items) {
    const now = await onCallNow(v.ctx, s.id);
    rows.push({
      scheduleId: s.id,
      scheduleName: s.name,
      email: now.user?.email ?? null,
      source: now.source,
      layerName: now.layer?.name ?? null,
      until: now.shift_end,
    });
  }
  const open = await listAlerts(v.ctx, { limit: COUNTED, state: 'open' });
  return onCallNowBlock(rows, { count: open.items.length, more: open.nextCursor !== null }, v.timeZone);
}

/** Open alerts shown at the top of the overview. */
const LISTED = 10;

/** The overview's open alerts, critical first; '' when none is open or without read:alerts. */
export async function openAlertsSection(v: ConsoleViewer): Promise<string> {
  if (!v.can('read:alerts')) return '';
  const open = await listAlerts(v.ctx, { limit: LISTED, state: 'open' });
  return openAlertsBlock(open.items, open.nextCursor !== null, v.timeZone);
}
