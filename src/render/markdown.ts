/**
 * A small Markdown-to-HTML renderer for Vigil's own documents (docs/sla-verification.md): headings,
 * paragraphs, fenced code, pipe tables, bullet and numbered lists, and inline code, bold,
 * emphasis and links. Everything is escaped; links keep only http(s), relative and fragment targets.
 * Not a general Markdown implementation: the documents it serves are written for it.
 */
import { esc } from './html';

function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/<[^>]*>/g, '')
    .replace(/[^a-z0-9 -]/g, '')
    .trim()
    .replace(/\s+/g, '-');
}

function safeHref(url: string): string | null {
  if (/^https?:\/\//i.test(url) || /^[#/.]/.test(url) || /^[a-z0-9-]+(\.[a-z0-9]+)?(#.*)?$/i.test(url)) return url;
  return null;
}

/** Inline markup of one line or cell: code spans first (their content is literal), then links, bold, emphasis. */
export function inline(text: string): string {
  const parts = text.split(/(`[^`]+`)/);
  return parts
    .map((part) => {
      if (/^`[^`]+`$/.test(part)) return `<code>${esc(part.slice(1, -1))}</code>`;
      let out = esc(part);
      out = out.replace(/\[([^\]]+)\]\(([^)\s]+)\)/g, (_m, label: string, url: string) => {
        // `url` is already escaped; unescape the entities esc() made to judge the target.
        const raw = url.replace(/&#(\d+);/g, (_x, n: string) => String.fromCharCode(Number(n)));
        const href = safeHref(raw);
        return href ? `<a href="${esc(href)}">${label}</a>` : label;
      });
      out = out.replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>');
      out = out.replace(/(^|[^*\w])\*([^*\s][^*]*)\*(?!\w)/g, '$1<em>$2</em>');
      return out;
    })
    .join('');
}

const cells = (row: string) =>
  row
    .trim()
    .replace(/^\|/, '')
    .replace(/\|$/, '')
    .split('|')
    .map((c) => c.trim());

/** The body HTML of a Markdown document (no <html> wrapper). */
export function markdownToHtml(markdown: string): string {
  const lines = markdown.replace(/\r\n?/g, '\n').split('\n');
  const out: string[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    if (!line.trim()) {
      i++;
      continue;
    }
    const fence = /^```(\S*)\s*$/.exec(line);
    if (fence) {
      const body: string[] = [];
      i++;
      while (i < lines.length && !/^```\s*$/.test(lines[i]!)) body.push(lines[i++]!);
      i++;
      out.push(
        `<pre><code${fence[1] ? ` class="language-${esc(fence[1])}"` : ''}>${esc(body.join('\n'))}</code></pre>`,
      );
      continue;
    }
    const heading = /^(#{1,6})\s+(.*)$/.exec(line);
    if (heading) {
      const level = heading[1]!.length;
      const html = inline(heading[2]!.trim());
      out.push(`<h${level} id="${esc(slug(html))}">${html}</h${level}>`);
      i++;
      continue;
    }
    if (/^\|/.test(line) && /^\|?\s*:?-{3,}/.test(lines[i + 1] ?? '')) {
      const head = cells(line);
      i += 2;
      const rows: string[][] = [];
      while (i < lines.length && /^\|/.test(lines[i]!)) rows.push(cells(lines[i++]!));
      out.push(
        `<table><thead><tr>${head.map((c) => `<th>${inline(c)}</th>`).join('')}</tr></thead><tbody>${rows.map((r) => `<tr>${r.map((c) => `<td>${inline(c)}</td>`).join('')}</tr>`).join('')}</tbody></table>`,
      );
      continue;
    }
    const item = /^(\s*)([-*]|\d+\.)\s+(.*)$/.exec(line);
    if (item) {
      const ordered = /\d/.test(item[2]!);
      const items: string[] = [];
      while (i < lines.length) {
        const m = /^(\s*)([-*]|\d+\.)\s+(.*)$/.exec(lines[i]!);
        if (m) {
          items.push(m[3]!);
          i++;
        } else if (/^\s+\S/.test(lines[i]!) && items.length) {
          items[items.length - 1] += ` ${lines[i]!.trim()}`;
          i++;
        } else break;
      }
      const tag = ordered ? 'ol' : 'ul';
      out.push(`<${tag}>${items.map((x) => `<li>${inline(x)}</li>`).join('')}</${tag}>`);
      continue;
    }
    const para: string[] = [];
    while (i < lines.length && lines[i]!.trim() && !/^(```|#{1,6}\s|\||\s*([-*]|\d+\.)\s)/.test(lines[i]!))
      para.push(lines[i++]!.trim());
    if (!para.length) para.push(lines[i++]!.trim());
    out.push(`<p>${inline(para.join(' '))}</p>`);
  }
  return out.join('\n');
}
