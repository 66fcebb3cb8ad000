import { esc } from '../html';

/** A status or state word as a badge; `tone` picks the colour (healthy, degraded, unhealthy, late, or neutral). */
export function stateBadge(text: string, tone: 'healthy' | 'degraded' | 'unhealthy' | 'late' | 'neutral' = 'neutral'): string {
  return `<span class="badge ${tone}">${esc(text)}</span>`;
}

export function toneOfStatus(status: string): 'healthy' | 'degraded' | 'unhealthy' | 'neutral' {
  return status === 'healthy' || status === 'degraded' || status === 'unhealthy' ? status : 'neutral';
}

/** A table whose rows are already HTML cells; an empty list says `empty`. */
export function table(head: readonly string[], rows: readonly string[][], empty: string, caption?: string): string {
  if (!rows.length) return `<p class="muted">${esc(empty)}</p>`;
  const cap = caption ? `<caption class="muted">${esc(caption)}</caption>` : '';
  return `<div class="table-wrap"><table>${cap}<thead><tr>${head.map((h) => `<th scope="col">${esc(h)}</th>`).join('')}</tr></thead><tbody>${rows
    .map((r) => `<tr>${r.map((cell) => `<td>${cell}</td>`).join('')}</tr>`)
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
