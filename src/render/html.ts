import { formatInZone } from './format-time';

/** Escapes text for element content and double-quoted attribute values alike. */
export function esc(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The URL when it is absolute http(s) (or https only), else null: operator links must never run script. */
export function safeHttpUrl(url: string, protocols: readonly string[] = ['http:', 'https:']): string | null {
  try {
    const u = new URL(url.trim());
    return protocols.includes(u.protocol) ? u.href : null;
  } catch {
    return null;
  }
}

export function timeTag(iso: string, timeZone: string): string {
  return `<time datetime="${esc(iso)}">${esc(formatInZone(iso, timeZone))}</time>`;
}

/** Operator-typed plain text whose line breaks are kept by `white-space: pre-line` (class "text"). */
export function plainText(body: string, tag: 'p' | 'div' = 'p'): string {
  return `<${tag} class="text">${esc(body.replace(/\r\n?/g, '\n').trim())}</${tag}>`;
}

export function join<T>(items: readonly T[], render: (item: T) => string): string {
  return items.map(render).join('\n');
}

/** Joins the non-empty parts with newlines (optional parts leave no blank lines). */
export function lines(...parts: string[]): string {
  return parts.filter(Boolean).join('\n');
}
