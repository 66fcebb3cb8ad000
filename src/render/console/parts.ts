import { esc, plainText, timeTag } from '../html';

/** A status or state word as a badge; `tone` picks the colour (healthy, degraded, unhealthy, late, or neutral). */
export function stateBadge(
  text: string,
  tone: 'healthy' | 'degraded' | 'unhealthy' | 'late' | 'neutral' = 'neutral',
): string {
  return `<span class="badge ${tone}">${esc(text)}</span>`;
}

export function toneOfStatus(status: string): 'healthy' | 'degraded' | 'unhealthy' | 'neutral' {
  return status === 'healthy' || status === 'degraded' || status === 'unhealthy' ? status : 'neutral';
}

/**
 * A table whose rows are already HTML cells; an empty list says `empty`. Each cell carries its
 * column's name (`data-label`), which narrow screens show beside it when rows become cards.
 */
export function table(head: readonly string[], rows: readonly string[][], empty: string, caption?: string): string {
  if (!rows.length) return `<p class="muted">${esc(empty)}</p>`;
  const cap = caption ? `<caption class="muted">${esc(caption)}</caption>` : '';
  const labels = head.map((h) => ` data-label="${esc(h)}"`);
  return `<div class="table-wrap"><table>${cap}<thead><tr>${head.map((h) => `<th scope="col">${esc(h)}</th>`).join('')}</tr></thead><tbody>${rows
    .map((r) => `<tr>${r.map((cell, i) => `<td${labels[i] ?? ''}>${cell}</td>`).join('')}</tr>`)
    .join('')}</tbody></table></div>`;
}

/** "Next page" for cursor-paged lists: the same path with `cursor`. */
export function pager(path: string, nextCursor: string | null, query: Record<string, string> = {}): string {
  if (!nextCursor) return '';
  const qs = new URLSearchParams({ ...query, cursor: nextCursor }).toString();
  return `<nav class="pager" aria-label="Pages"><a href="${esc(`${path}?${qs}`)}">Next page →</a></nav>`;
}

export function facts(rows: readonly [string, string][]): string {
  return `<dl class="facts">${rows.map(([k, v]) => `<dt>${esc(k)}</dt><dd>${v}</dd>`).join('')}</dl>`;
}

export function link(href: string, text: string): string {
  return `<a href="${esc(href)}">${esc(text)}</a>`;
}

/** Something a form offers to pick (a service, a customer). */
export interface Choice {
  id: string;
  name: string;
}

/** One step of a timeline: a message or a change of state. */
export interface TimelineItem {
  at: string;
  /** The message type or the step ("Published", "Scheduled"). */
  label: string;
  body: string | null;
}

/**
 * An instant as readable text in the viewer's zone, named ("27 Nov 2026, 14:05 CET"), in a
 * `<time>` element: without a chosen zone (UTC), /console/assets/console.js rewrites it into the
 * browser's zone.
 */
export function zonedTime(iso: string | null, timeZone: string): string {
  return iso ? timeTag(iso, timeZone) : '<span class="muted">—</span>';
}

/**
 * The name of the zone a page's times are in, for a note ("times in Europe/Berlin"). Without a
 * chosen zone it says UTC, and console.js, which rewrites those times into the browser's zone,
 * rewrites this name too, so the note always names the zone the times are shown in.
 */
export function zoneName(timeZone: string): string {
  return `<span data-zone-name>${esc(timeZone)}</span>`;
}

/** A timeline, oldest first: each step's label as text, its time (in `timeZone`) and its body. */
export function timeline(items: readonly TimelineItem[], empty: string, timeZone: string): string {
  if (!items.length) return `<p class="muted">${esc(empty)}</p>`;
  return `<ol class="timeline">${items
    .map(
      (i) =>
        `<li><strong>${esc(i.label)}</strong> · ${zonedTime(i.at, timeZone)}${i.body ? plainText(i.body) : ''}</li>`,
    )
    .join('')}</ol>`;
}

/** Names of the chosen items, in the order given (an id no longer known shows as such). */
export function namesOf(ids: readonly string[], known: readonly Choice[]): string {
  if (!ids.length) return '<span class="muted">none</span>';
  const byId = new Map(known.map((c) => [c.id, c.name]));
  return ids
    .map((id) => (byId.has(id) ? esc(byId.get(id)!) : `<span class="muted">removed (<code>${esc(id)}</code>)</span>`))
    .join(', ');
}

/** The Temporal UI page of a workflow (namespace `default`), or null without a UI. */
export function temporalWorkflowUrl(temporalUiUrl: string | null, workflowId: string): string | null {
  if (!temporalUiUrl) return null;
  return `${temporalUiUrl.replace(/\/+$/, '')}/namespaces/default/workflows/${encodeURIComponent(workflowId)}`;
}
