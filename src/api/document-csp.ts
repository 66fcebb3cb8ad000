import { createHash } from 'node:crypto';

/**
 * A Content-Security-Policy for a self-contained document (an SLA statement, a docs page): no
 * script, no network, and exactly the styles the document carries, by their SHA-256: each
 * <style> element's text, and each style="…" attribute ('unsafe-hashes' allows an attribute only
 * when its hash is listed). Computed from the HTML as sent, so it stays right when the document
 * changes.
 */

const hashOf = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/** The character references esc() writes (&#NN;) and the named ones, as the browser decodes an attribute. */
function decodeAttribute(value: string): string {
  const named: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
  return value.replace(/&(#\d+|#x[0-9a-f]+|[a-z]+);/gi, (m, ref: string) => {
    if (ref[0] !== '#') return named[ref.toLowerCase()] ?? m;
    return String.fromCodePoint(ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : Number(ref.slice(1)));
  });
}

/** The hashes of the document's <style> elements and of its style attributes. */
export function styleHashes(html: string): { elements: string[]; attributes: string[] } {
  const elements = [...html.matchAll(/<style(?:\s[^>]*)?>([\s\S]*?)<\/style>/gi)].map((m) => hashOf(m[1]!));
  const attributes = [...html.matchAll(/\sstyle="([^"]*)"/gi)].map((m) => hashOf(decodeAttribute(m[1]!)));
  return { elements: [...new Set(elements)], attributes: [...new Set(attributes)] };
}

export function documentCsp(html: string): string {
  const { elements, attributes } = styleHashes(html);
  const styles = [...elements, ...(attributes.length ? ["'unsafe-hashes'", ...attributes] : [])];
  return [
    "default-src 'none'",
    `style-src ${styles.length ? styles.join(' ') : "'none'"}`,
    'img-src data:',
    "form-action 'none'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join('; ');
}
