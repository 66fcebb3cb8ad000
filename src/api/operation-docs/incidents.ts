import { prose } from './prose';

/** What the operations of src/api/routes/incidents.ts do, as their OpenAPI descriptions say it. */
export const descriptions = {
  listIncidents: prose('Newest first; filters `state` and `since` (created at or after).'),
  createIncident: prose(
    'A draft unless `publish` is true. Events: incident.created (and incident.published, ',
    'incident.message_added). Without `affected_services` it is shown on every status page of the ',
    "organization: the answer's `warnings` says so (`shown_on_every_status_page`). `service_impacts` ",
    'gives a service its impact (and makes it affected); the others follow the severity. Accepts an ',
    '`Idempotency-Key`.',
  ),
  createIncidentFromMetric: prose(
    "Pre-fills, from the metric's latest status flip, a title and first Investigating message in ",
    'words customers understand ("We are investigating problems with Checkout since 23:23 CET.": the ',
    'service, and the time in the zone of the status page showing it, else UTC), severity (unhealthy ',
    'or down → major, otherwise minor) and the affected service. What was measured (value or reason ',
    'code, votes, locations) goes to `internal_note`, which no status page, feed or subscriber email ',
    'shows. The incident is a draft: publish it when ready. Event: incident.created.',
  ),
  createIncidentFromAlert: prose(
    "As from a metric: an alert on a metric is drafted from that metric's latest flip; one on a ",
    'service or an SLO names that service, since the alert triggered (severity critical → major, ',
    'otherwise minor). The alert (title, summary, subject, ids) goes to `internal_note`. An alert ',
    'about an agent, a location or an SLA statement names no service customers see: 400 ',
    '`validation_failed` at `alertId`. Event: incident.created.',
  ),
  updateIncidentMessage: prose(
    'Replaces the body, of a draft or a published incident; the replaced body is kept in ',
    '`previous_bodies` and `edited_at` is set. Event: incident.updated. Subscribers are not emailed ',
    'about an edit unless `notify_subscribers` is true (only for the latest message of a published ',
    'incident: event incident.message_added, emailed as an update). A message of another incident, ',
    'or of another organization, answers 404.',
  ),
  updateIncident: prose(
    'Also `service_impacts` (replaces the chosen impacts). Works on published incidents too. Event: ',
    'incident.updated, only when a field changes value; a PATCH that changes nothing answers the ',
    'incident as it is (same `updated_at`, no event).',
  ),
  deleteIncident: prose('Soft delete; repeating it answers 200. Event: incident.deleted (once).'),
  addIncidentMessage: prose(
    'A `Resolved` message also resolves a published incident. Events: incident.message_added (and ',
    'incident.resolved). With `notify_subscribers: false` no subscriber email goes out for it (nor ',
    'for the resolve it makes); webhooks still receive the events.',
  ),
  publishIncident: prose('Event: incident.published.'),
  resolveIncident: prose('Optionally with a closing message (appended as Resolved). Event: incident.resolved.'),
};
