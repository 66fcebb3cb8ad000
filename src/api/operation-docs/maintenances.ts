import { prose } from './prose';

/** What the operations of src/api/routes/maintenances.ts do, as their OpenAPI descriptions say it. */
export const descriptions = {
  listMaintenances: prose('Newest first; filter `state`.'),
  createMaintenance: prose(
    'State scheduled; event maintenance.scheduled. A Temporal workflow `maintenance:<id>` then emits ',
    'maintenance.starting_soon within an hour of the start, starts it at `scheduled_start_at` and ',
    'completes it at `scheduled_end_at`. A window that started in the past and ends in the future ',
    'starts at once. Without `affected_services` it is shown on every status page of the ',
    "organization: the answer's `warnings` says so (`shown_on_every_status_page`). Accepts an ",
    '`Idempotency-Key`.',
  ),
  updateMaintenance: prose(
    'New times reach the running workflow, which re-plans its timers, and are recorded on the ',
    'timeline (kind `reschedule`: "Rescheduled from … to …."). `scheduled_start_at` can move only ',
    'while the maintenance is scheduled (409 `already_started`); a completed or canceled one cannot ',
    'change (409 `already_completed`, `already_canceled`).',
  ),
  addMaintenanceMessage: prose(
    'Appends an update (type `Update`, kind `update`) shown on the status page. Event ',
    'maintenance.message_added; the status page subscribers get it by email unless ',
    '`notify_subscribers` is false. A completed or canceled maintenance takes no more updates (409 ',
    '`already_completed`, `already_canceled`).',
  ),
};
