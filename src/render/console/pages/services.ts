import { esc } from '../../html';
import { exportLink, managedMarker, managedNotice } from '../config-as-code';
import { type FormProblem, actionButton, csrfField, inputField, problemBox, textareaField } from '../forms';
import { link, pager, stateBadge, table, toneOfStatus } from '../parts';

/** One service in the list, with what its metrics say. */
export interface ServiceRow {
  id: string;
  name: string;
  description: string | null;
  config_key: string | null;
  status: string;
  metrics: number;
  paused: number;
}

export interface ServiceFormValues {
  name: string;
  description: string;
  config_key: string;
}

export const serviceHref = (id: string) => `/console/services/${encodeURIComponent(id)}`;

/** The status in words: a service whose every metric is paused says so (its last status stays beside it). */
export function serviceStatus(s: Pick<ServiceRow, 'status' | 'metrics' | 'paused'>): string {
  const badge = stateBadge(s.status.replace(/_/g, ' '), toneOfStatus(s.status));
  if (s.metrics > 0 && s.paused === s.metrics)
    return `${stateBadge('paused', 'neutral')} <span class="muted">(last: ${esc(s.status.replace(/_/g, ' '))})</span>`;
  return badge;
}

function metricsCell(s: ServiceRow): string {
  const count = `${s.metrics} metric${s.metrics === 1 ? '' : 's'}`;
  const paused = s.paused ? ` <span class="muted">(${s.paused} paused)</span>` : '';
  return `${link(`/console/metrics?service_id=${encodeURIComponent(s.id)}`, count)}${paused}`;
}

function rowActions(s: ServiceRow, csrf: string, canPause: boolean): string {
  const href = serviceHref(s.id);
  const running = canPause ? s.metrics - s.paused : 0;
  const pause = running > 0 ? actionButton({ action: `${href}/pause`, label: 'Pause', csrf, kind: 'secondary' }) : '';
  const resume =
    canPause && s.paused > 0
      ? actionButton({ action: `${href}/resume`, label: 'Resume', csrf, kind: 'secondary' })
      : '';
  return `<div class="row-actions">${link(`${href}/edit`, 'Edit')} ${pause}${resume} ${link(`${href}/delete`, 'Delete…')}</div>`;
}

/** `canWrite`: write:config (create, edit, delete); `canPause`: also write:metrics (pausing changes the metrics). */
export function serviceListBody(view: {
  services: ServiceRow[];
  nextCursor: string | null;
  canWrite: boolean;
  canPause: boolean;
  csrf: string;
}): string {
  const rows = view.services.map((s) => {
    const cells = [
      `${link(serviceHref(s.id), s.name)}${managedMarker(s.config_key)}${s.description ? `<br><span class="muted">${esc(s.description)}</span>` : ''}`,
      serviceStatus(s),
      metricsCell(s),
    ];
    if (view.canWrite) cells.push(rowActions(s, view.csrf, view.canPause));
    return cells;
  });
  const head = ['Service', 'Status', 'Metrics', ...(view.canWrite ? ['Actions'] : [])];
  const create = view.canWrite ? `<p><a class="button" href="/console/services/new">New service</a></p>` : '';
  return `${create}
${exportLink('service')}
${table(head, rows, 'No services yet.')}
${pager('/console/services', view.nextCursor)}`;
}

const FIELDS = ['name', 'description', 'config_key'];

/** Create (no `id`) or edit a service; a managed one warns that the next apply overwrites the edit. */
export function serviceFormBody(view: {
  id?: string;
  storedConfigKey?: string | null;
  values: ServiceFormValues;
  problem: FormProblem | null;
  csrf: string;
}): string {
  const { values: v, problem } = view;
  const action = view.id ? `${serviceHref(view.id)}/edit` : '/console/services/new';
  return `<p><a href="/console/services">All services</a></p>
${managedNotice(view.storedConfigKey)}
${problemBox(problem, FIELDS)}
<form class="stack" method="post" action="${esc(action)}">${csrfField(view.csrf)}
${inputField({ name: 'name', label: 'Name', value: v.name, problem, required: true, hint: 'Shown on the console and status pages; 1 to 200 characters.' })}
${textareaField({ name: 'description', label: 'Description (optional)', value: v.description, problem, hint: 'What the service is, for whoever reads its page. Up to 5000 characters.' })}
${inputField({ name: 'config_key', label: 'Config key (optional)', value: v.config_key, problem, hint: 'Its handle in configuration documents (lower-case letters, digits, - and _). Set it only if a document manages the service: the next vigil config apply then owns it.' })}
<div class="actions"><button type="submit">${view.id ? 'Save service' : 'Create service'}</button> <a href="/console/services">Cancel</a></div>
</form>`;
}

/** The confirmation step of a delete: what goes with it, and a box to tick. */
export function serviceDeleteBody(view: { service: ServiceRow; problem: FormProblem | null; csrf: string }): string {
  const s = view.service;
  const goes = s.metrics
    ? `Its ${s.metrics} metric${s.metrics === 1 ? '' : 's'} are deleted with it (their history stays for statements already issued).`
    : 'It has no metrics.';
  const error = (view.problem?.errors ?? []).find((e) => e.path === 'confirm');
  return `<p><a href="/console/services">All services</a></p>
${managedNotice(s.config_key)}
${problemBox(view.problem, ['confirm'])}
<p>Delete <strong>${esc(s.name)}</strong>? ${esc(goes)} An SLO or status page that uses it must be changed first.</p>
<form class="stack" method="post" action="${esc(`${serviceHref(s.id)}/delete`)}">${csrfField(view.csrf)}
<div><label><input type="checkbox" name="confirm" value="yes"${error ? ' aria-invalid="true" aria-describedby="f-confirm-error"' : ''}> Yes, delete ${esc(s.name)}${s.metrics ? ' and its metrics' : ''}</label>${error ? `<p class="field-error" id="f-confirm-error">${esc(error.message)}</p>` : ''}</div>
<div class="actions"><button type="submit" class="danger">Delete service</button> <a href="/console/services">Cancel</a></div>
</form>`;
}
