import { esc } from '../../html';
import { actionButton } from '../forms';

/**
 * "Create incident" on a metric's or an alert's page: drafts the incident (in customers' words, the
 * evidence in its internal note) and opens the draft for review; nothing is published.
 */
export function createIncidentButton(o: { from: 'metric' | 'alert'; id: string; csrf: string }): string {
  return `<div class="actions create-incident">${actionButton({ action: `/console/incidents/from-${o.from}/${encodeURIComponent(o.id)}`, label: 'Create incident', csrf: o.csrf, kind: 'secondary' })} <span class="muted">${esc(
    `Drafts an incident about this ${o.from}'s service for you to review before publishing.`,
  )}</span></div>`;
}
