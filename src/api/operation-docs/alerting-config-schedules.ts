import { prose } from './prose';

/** What the operations of src/api/routes/alerting-config/schedules.ts do, as their OpenAPI descriptions say it. */
export const descriptions = {
  createOnCallSchedule: prose(
    'Rotations in an IANA `timezone`. Each layer has a `rotation`: `kind` `daily`, `weekly` (on ',
    '`handoff_weekday`, 1 = Monday, default 1) or `hourly` (`shift_hours`, 1 to 168, counted in ',
    'elapsed time), a local `handoff_time` (`HH:MM`), the local date of the first handoff ',
    '`starts_on`, and ordered `participants` (console users by email; the first is on call from the ',
    'first handoff).\n',
    '\n',
    'Handoffs keep their local time across daylight-saving changes: a weekly 09:00 Europe/Berlin ',
    'handoff stays at 09:00. The highest layer (last in the list) with someone on call wins; ',
    '`overrides` (`user`, `start_at`, `end_at`) win over every layer, the later one among ',
    'overlapping overrides. Emails are stored lower-cased, override instants in UTC. Accepts an ',
    '`Idempotency-Key`.',
  ),
  updateOnCallSchedule: prose(
    'Changes only the fields sent; `layers` and `overrides` are replaced whole (to add an override, ',
    'send the list with it).',
  ),
  deleteOnCallSchedule: prose(
    'Soft delete; repeating it answers 200 with the same schedule. Refused with 409 `in_use` while ',
    'an escalation policy targets it (`referenced_by.escalation_policies`).',
  ),
  getOnCallNow: prose(
    'Who is on call at `at` (default now): the user, whether an override or a layer put them there, ',
    'and the bounds of that shift (cut where an override or a higher layer takes over). Nobody on ',
    'call answers `user: null`.',
  ),
  listOnCallShifts: prose(
    'Who is on call over `[from, to)` (default: now to 14 days on), after layers and overrides: ',
    'contiguous shifts, oldest first, clipped to the window; the same person continuing from the ',
    'same layer is one shift; a gap is time nobody covers. A bounded window, not a cursor page: at ',
    "most 93 days and 1,000 shifts (`truncated: true` then: ask again from the last shift's `end`).",
  ),
};
