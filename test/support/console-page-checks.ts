/**
 * Checks a console page in a real Chromium (playwright-core) for what issue 27 asks of every page:
 * no serious or critical axe-core violation, no horizontal scroll at 390 px, no control cut off by
 * the viewport or by a clipping ancestor, no console error, and one log line per page with its
 * server time (the console's Server-Timing header) and size.
 *
 * axe-core is injected as a script; the console's CSP forbids scripts, so the context the checks
 * run in is opened with `bypassCSP: true` (only for the check: the page's own markup is unchanged).
 */
import { readFileSync } from 'node:fs';
import type { Page, Response } from 'playwright-core';

declare const window: { axe: { run(context: unknown, options: unknown): Promise<AxeResults> } };
declare const document: { documentElement: { scrollWidth: number; clientWidth: number } };

interface AxeNode {
  target: string[];
  html: string;
  failureSummary?: string;
}
interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: AxeNode[];
}
interface AxeResults {
  violations: AxeViolation[];
}

/** A violation as the report names it: rule, impact, and the elements (selector and markup). */
export interface Violation {
  rule: string;
  impact: string;
  help: string;
  elements: string[];
}

export const NARROW_WIDTH = 390;

let axeSource: string | null = null;
const axeScript = () => (axeSource ??= readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8'));

/**
 * The axe-core rules whose verdict can change with the viewport for the same elements: colours over
 * what is behind them, target sizes and spacing, scrolling regions, links told apart from text, the
 * viewport meta. Every other rule reads the DOM and the accessibility tree of the elements that are
 * rendered, so with the same elements rendered it answers the same at every width.
 */
export const LAYOUT_RULES: readonly string[] = [
  'color-contrast',
  'target-size',
  'scrollable-region-focusable',
  'link-in-text-block',
  'avoid-inline-spacing',
  'css-orientation-lock',
  'meta-viewport',
];

/**
 * The serious and critical axe-core violations of the page as it is now: WCAG 2.x A and AA rules
 * and best practices, or only `rules`.
 */
export async function runAxe(page: Page, rules?: readonly string[]): Promise<Violation[]> {
  const loaded = await page.evaluate('typeof window.axe === "object"');
  if (!loaded) await page.addScriptTag({ content: axeScript() });
  const runOnly = rules
    ? { type: 'rule', values: [...rules] }
    : { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'] };
  const results = await page.evaluate(
    (only) => window.axe.run(document, { resultTypes: ['violations'], runOnly: only }),
    runOnly,
  );
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({
      rule: v.id,
      impact: v.impact!,
      help: v.help,
      elements: v.nodes.map((n) => `${n.target.join(' ')} ${n.html.slice(0, 160)}`),
    }));
}

/** Which elements of the page are not rendered (display none, visibility hidden), by position: equal at two widths, the same elements are there for axe. */
export async function hiddenElements(page: Page): Promise<string> {
  return page.evaluate(
    `[...document.querySelectorAll('body *')].map((el, i) => { const s = getComputedStyle(el); return s.display === 'none' || s.visibility === 'hidden' ? i : -1; }).filter((i) => i >= 0).join(',')`,
  );
}

/** Whether the page scrolls sideways at its current viewport (390 px for the narrow check). */
export async function hasHorizontalScroll(page: Page): Promise<boolean> {
  return page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth + 1);
}

/** Throws, naming the widest elements, when the page scrolls sideways. */
export async function assertNoHorizontalScroll(page: Page): Promise<void> {
  if (!(await hasHorizontalScroll(page))) return;
  const wide = await page.evaluate(`(() => {
    const width = document.documentElement.clientWidth;
    const out = [];
    for (const el of document.querySelectorAll('body *')) {
      const r = el.getBoundingClientRect();
      if (r.right <= width + 1 || [...el.children].some((c) => c.getBoundingClientRect().right > width + 1)) continue;
      out.push(el.tagName.toLowerCase() + (el.className ? '.' + String(el.className).split(' ').join('.') : '') + ' "' + (el.textContent || '').trim().replace(/\\s+/g, ' ').slice(0, 50) + '" reaches ' + Math.round(r.right) + ' px');
    }
    return out.slice(0, 8);
  })()`);
  throw new Error(
    `${page.url()} scrolls sideways at ${page.viewportSize()?.width} px: ${(wide as string[]).join('; ')}`,
  );
}

/**
 * Visible buttons, inputs, selects, textareas and links (in the tab order) whose box reaches past the viewport's left
 * or right edge, or is cut by an ancestor that hides its overflow (an ancestor that scrolls, like a
 * wide table's wrapper, is not clipping: the control can be scrolled to).
 */
export async function findClippedControls(page: Page): Promise<string[]> {
  return page.evaluate(`(() => {
    const width = document.documentElement.clientWidth;
    const out = [];
    const describe = (el) => el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') + ' "' + ((el.textContent || el.value || el.name || '').trim().replace(/\\s+/g, ' ').slice(0, 40)) + '"';
    for (const el of document.querySelectorAll('button, input:not([type=hidden]), select, textarea, a[href]')) {
      const r = el.getBoundingClientRect();
      const style = getComputedStyle(el);
      if (r.width === 0 || r.height === 0 || style.visibility === 'hidden') continue;
      // Out of the tab order and off screen on purpose: a skip link until focused, a form's hidden default button.
      if ((el.classList.contains('skip-link') || el.getAttribute('tabindex') === '-1') && r.right <= 0) continue;
      let scroller = false;
      for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
        const s = getComputedStyle(p);
        if (s.overflowX === 'auto' || s.overflowX === 'scroll') { scroller = true; break; }
        if (s.overflowX === 'hidden' || s.overflowX === 'clip' || s.overflowY === 'hidden' || s.overflowY === 'clip') {
          const b = p.getBoundingClientRect();
          if (r.left < b.left - 1 || r.right > b.right + 1 || r.top < b.top - 1 || r.bottom > b.bottom + 1) { out.push(describe(el) + ' is cut by ' + p.tagName.toLowerCase() + (p.className ? '.' + String(p.className).split(' ').join('.') : '')); }
          break;
        }
      }
      if (!scroller && (r.left < -1 || r.right > width + 1)) out.push(describe(el) + ' spans ' + Math.round(r.left) + '..' + Math.round(r.right) + ' px of ' + width);
    }
    return out.slice(0, 20);
  })()`);
}

/** Starts recording the page's console errors and uncaught errors; the array fills as they happen. */
export function collectConsoleErrors(page: Page, ignore: (text: string) => boolean = () => false): string[] {
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' && !ignore(m.text())) errors.push(`${page.url()}: console: ${m.text()}`);
  });
  page.on('pageerror', (e) => errors.push(`${page.url()}: pageerror: ${e.message}`));
  return errors;
}

/** The server's time for a response, from its Server-Timing header (`app;dur=12.3`), in ms; null without one. */
export function serverTimeOf(response: Response): number | null {
  const header = response.headers()['server-timing'] ?? '';
  const m = /(?:^|,)\s*app;dur=([\d.]+)/.exec(header);
  return m ? Number(m[1]) : null;
}

/** One stderr line for a loaded page: its path, status, server time and size in bytes. */
export async function logPageTiming(
  label: string,
  response: Response,
): Promise<{ serverMs: number | null; bytes: number }> {
  const bytes = (await response.body()).length;
  const serverMs = serverTimeOf(response);
  const path = new URL(response.url()).pathname;
  process.stderr.write(
    `[console-page] ${label} ${response.status()} ${path} server=${serverMs === null ? '?' : `${serverMs.toFixed(1)}ms`} size=${bytes}B\n`,
  );
  return { serverMs, bytes };
}
