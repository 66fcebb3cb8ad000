/**
 * Server-rendered HTML for public status pages: pure string templates, no script, all CSS inline.
 * Every operator-typed string goes through `esc`; operator URLs through `safeHttpUrl`.
 */
import { monthInZone } from './format-time';
import { groupSection } from './components';
import { esc, join, lines, plainText } from './html';
import { htmlDocument, plainHeader, siteHeader } from './layout';
import {
  type RenderContext,
  STATE_CLASS,
  incidentArticle,
  incidentFacts,
  maintenanceArticle,
  maintenanceFacts,
  stateIcon,
  timeline,
} from './parts';
import type { HistoryView, ItemView, PageHeader, PageView } from '../domain/status-page/model';

function section(id: string, heading: string, body: string): string {
  return `<section aria-labelledby="${id}">
<h2 id="${id}">${heading}</h2>
${body}
</section>`;
}

export function renderStatusPage(view: PageView): string {
  const ctx: RenderContext = { tz: view.page.time_zone, signedIn: view.viewer !== null };
  // What the page says comes from one derivation (domain/status-page/page-state.ts), shared with summary.json.
  const { state, text: overall } = view.headline;
  const parts = [
    `<div id="overall-status" class="banner s-${STATE_CLASS[state]}" data-state="${state}">${stateIcon(state)}<p>${overall}</p></div>`,
  ];
  if (view.active_incidents.length) {
    parts.push(
      section(
        'active-incidents',
        'Active incidents',
        join(view.active_incidents, (i) => incidentArticle(i, ctx)),
      ),
    );
  }
  if (view.maintenance_in_progress.length) {
    parts.push(
      section(
        'maintenance-now',
        'Maintenance in progress',
        join(view.maintenance_in_progress, (m) => maintenanceArticle(m, ctx)),
      ),
    );
  }
  if (view.maintenance_upcoming.length) {
    parts.push(
      section(
        'maintenance-upcoming',
        'Scheduled maintenance',
        join(view.maintenance_upcoming, (m) => maintenanceArticle(m, ctx)),
      ),
    );
  }
  parts.push(
    section(
      'components',
      'Components',
      view.groups.length
        ? join(view.groups, (g) => groupSection(g, ctx.tz))
        : '<p class="muted">No components are shown on this page yet.</p>',
    ),
  );
  // "No incidents" is never said while one is active (it is listed above instead).
  const recent = view.recent_incidents.length
    ? join(view.recent_incidents, (i) => incidentArticle(i, ctx))
    : view.quiet
      ? '<p class="muted">No incidents in the last 7 days.</p>'
      : '';
  parts.push(
    section('recent-incidents', 'Recent incidents', lines(recent, '<p><a href="/history">Incident history</a></p>')),
  );

  return htmlDocument({
    title: `${view.page.title}: ${overall}`,
    header: view.page,
    feeds: true,
    headerHtml: siteHeader(view.page, {
      titleIsHeading: true,
      subscribe: true,
      viewerName: view.viewer?.customer_name ?? null,
    }),
    mainHtml: parts.join('\n'),
    generatedAt: view.generated_at,
    live: LIVE_SECONDS,
  });
}

/** How often an open status page checks for news (a conditional GET: 304 while nothing changed). */
export const LIVE_SECONDS = 30;

type HistoryItem = { at: string; html: string };

export function renderHistoryPage(view: HistoryView): string {
  const ctx: RenderContext = { tz: view.page.time_zone, signedIn: view.viewer !== null };
  const items: HistoryItem[] = [
    ...view.incidents.map((i) => ({ at: i.published_at, html: incidentArticle(i, ctx) })),
    ...view.maintenances.map((m) => ({
      at: m.actual_start_at ?? m.scheduled_start_at,
      html: maintenanceArticle(m, ctx),
    })),
  ].sort((a, b) => Date.parse(b.at) - Date.parse(a.at));

  const months = new Map<string, string[]>();
  for (const item of items) {
    const month = monthInZone(item.at, ctx.tz);
    const list = months.get(month) ?? [];
    list.push(item.html);
    months.set(month, list);
  }
  const body = items.length
    ? [...months].map(([month, html], n) => section(`month-${n}`, esc(month), html.join('\n'))).join('\n')
    : '<p class="muted">No past incidents or maintenance.</p>';
  const older =
    view.next_cursor === null
      ? ''
      : `<nav class="pager" aria-label="Older history"><a href="?cursor=${esc(encodeURIComponent(view.next_cursor))}" rel="next">Older</a></nav>`;

  return htmlDocument({
    title: `Incident history: ${view.page.title}`,
    header: view.page,
    feeds: true,
    headerHtml: siteHeader(view.page, {
      titleIsHeading: false,
      subscribe: false,
      viewerName: view.viewer?.customer_name ?? null,
    }),
    mainHtml: lines('<h1>Incident history</h1>', '<p><a href="/">Back to current status</a></p>', body, older),
    generatedAt: view.generated_at,
  });
}

/**
 * One incident's (or maintenance's) own page: what a link in an email, a chat or the history
 * leads to. It is about that item alone, with its whole timeline, and refreshes itself while
 * open as the status page does, so a reader kept on it sees each update.
 */
export function renderItemPage(view: ItemView): string {
  const ctx: RenderContext = { tz: view.page.time_zone, signedIn: view.viewer !== null };
  const item = view.kind === 'incident' ? view.incident : view.maintenance;
  const opening =
    view.kind === 'incident'
      ? `<article class="incident-page" data-incident-id="${esc(view.incident.id)}" data-severity="${esc(view.incident.severity)}" data-state="${view.incident.state}">`
      : `<article class="incident-page" data-maintenance-id="${esc(view.maintenance.id)}" data-state="${view.maintenance.state}">`;
  const updates = item.messages.length
    ? timeline(item.messages, ctx.tz)
    : '<p class="muted">No updates posted yet.</p>';
  return htmlDocument({
    title: `${item.title}: ${view.page.title}`,
    header: view.page,
    feeds: true,
    headerHtml: siteHeader(view.page, {
      titleIsHeading: false,
      subscribe: false,
      viewerName: view.viewer?.customer_name ?? null,
    }),
    mainHtml: lines(
      opening,
      `<h1>${esc(item.title)}</h1>`,
      view.kind === 'incident' ? incidentFacts(view.incident, ctx) : maintenanceFacts(view.maintenance, ctx),
      section('updates', 'Updates', updates),
      '</article>',
      '<nav aria-label="More about this page"><p><a href="/">Back to current status</a> · <a href="/history">Incident history</a></p></nav>',
    ),
    generatedAt: view.generated_at,
    live: LIVE_SECONDS,
  });
}

export function renderNotFoundPage(): string {
  return htmlDocument({
    title: 'Status page not found',
    header: null,
    feeds: false,
    headerHtml: plainHeader(),
    mainHtml: `<h1>Status page not found</h1>
<p>There is no status page at this address. Check the link you followed.</p>`,
    generatedAt: null,
  });
}

/** A button that POSTs a token back (so that merely following an emailed link changes nothing). */
export interface MessageAction {
  /** Same-origin path, e.g. "/confirm". */
  path: string;
  token: string;
  label: string;
}

function actionForm(a: MessageAction): string {
  return `<form method="post" action="${esc(a.path)}"><input type="hidden" name="token" value="${esc(a.token)}"><button type="submit">${esc(a.label)}</button></form>`;
}

/** Confirm / unsubscribe / subscribe results; `header` null when the page could not be resolved. */
export function renderMessagePage(
  header: PageHeader | null,
  heading: string,
  body: string,
  action?: MessageAction,
): string {
  return htmlDocument({
    title: header ? `${heading}: ${header.title}` : heading,
    header,
    feeds: false,
    headerHtml: header
      ? siteHeader(header, { titleIsHeading: false, subscribe: false, viewerName: null })
      : plainHeader(),
    mainHtml: lines(
      `<h1>${esc(heading)}</h1>`,
      plainText(body),
      action ? actionForm(action) : '',
      header ? '<p><a href="/">Back to current status</a></p>' : '',
    ),
    generatedAt: null,
  });
}
