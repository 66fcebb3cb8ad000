import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ProblemError } from '../domain/error-catalog';

/** Media types that name an HTML page, and those a problem answers to (wildcards included). */
const HTML_TYPES = ['text/html', 'application/xhtml+xml'];
const PROBLEM_TYPES = ['application/problem+json', 'application/json', 'application/*', '*/*'];

/**
 * Whether the client asked for HTML: its Accept header names text/html (or XHTML) at a quality no
 * lower than any range a problem+json answer matches. A browser's does (`text/html,…,*\/*;q=0.8`);
 * curl's and fetch's `*\/*`, a JSON client's and a missing header do not.
 */
export function prefersHtml(accept: string | undefined): boolean {
  if (!accept) return false;
  let html = 0;
  let problem = 0;
  for (const range of accept.split(',')) {
    const [type = '', ...params] = range.split(';').map((p) => p.trim().toLowerCase());
    const q = params.find((p) => /^q\s*=/.test(p));
    const quality = q === undefined ? 1 : Number(q.slice(q.indexOf('=') + 1));
    if (!Number.isFinite(quality)) continue;
    if (HTML_TYPES.includes(type)) html = Math.max(html, quality);
    if (PROBLEM_TYPES.includes(type)) problem = Math.max(problem, quality);
  }
  return html > 0 && html >= problem;
}

/** A page for people, and the problem an error page stands for (null only for a success). */
export interface HumanPage {
  status: number;
  html: string;
  headers?: Record<string, string>;
  problem: ProblemError | null;
}

/**
 * The one rule for pages under /v1 that people open from a message (the one-click alert links):
 * a browser gets the page whatever the outcome; an error to any other client is the problem it
 * stands for, application/problem+json like every other error under /v1 (thrown, so the errors
 * plugin answers it), and scripts, curl and link checkers can branch on its token.
 */
export function sendHumanPage(request: FastifyRequest, reply: FastifyReply, page: HumanPage): FastifyReply {
  reply.header('vary', 'Accept');
  if (page.status >= 400 && !prefersHtml(request.headers.accept)) {
    if (!page.problem) throw new Error(`a human page answered ${page.status} without the problem it stands for`);
    throw page.problem;
  }
  return reply
    .code(page.status)
    .headers(page.headers ?? {})
    .type('text/html; charset=utf-8')
    .send(page.html);
}
