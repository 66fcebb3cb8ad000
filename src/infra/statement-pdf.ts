/**
 * SLA statement PDFs: Chromium (the system's, driven by playwright-core, which never downloads a
 * browser) prints the statement's HTML, then pdf-lib sets the document information and attaches
 * the signed `statement.json` (exactly the bytes given) and `statement.jws`, so the PDF carries
 * everything needed to verify it (docs/sla-verification.md).
 *
 * One browser per renderer, launched on first use and shared; each render gets its own context
 * (closed afterwards), so concurrent renders do not see each other. The page gets no JavaScript
 * and no network: the statement HTML is self-contained. `close()` shuts the browser down; renders
 * still running then fail, and later ones are refused.
 */
import { accessSync, constants } from 'node:fs';
import { AFRelationship, PDFDocument } from 'pdf-lib';
import { type Browser, chromium } from 'playwright-core';
import { ProblemError } from '../domain/error-catalog';
import { esc } from '../render/html';
import type { PdfPrinter, StatementPdfAttachments, StatementPdfMeta } from '../usecases/sla/ports';

export type { StatementPdfAttachments, StatementPdfMeta };

/** The SLA use cases' PdfPrinter, and closing the browser it keeps. */
export interface StatementPdfRenderer extends PdfPrinter {
  close(): Promise<void>;
}

export interface StatementPdfOptions {
  /** Default: CHROMIUM_PATH, else Debian's /usr/bin/chromium. */
  executablePath?: string;
  /** Chromium's sandbox cannot start as root (containers); default: off when running as root. */
  noSandbox?: boolean;
  /** Limit for the launch and for each step of a render. Default 30 s. */
  timeoutMs?: number;
}

export const DEFAULT_CHROMIUM_PATH = '/usr/bin/chromium';

/** The Chromium executable renders would use (the same default as createStatementPdfRenderer). */
export function chromiumPathOf(executablePath?: string): string {
  return executablePath ?? (process.env.CHROMIUM_PATH || DEFAULT_CHROMIUM_PATH);
}

/** Whether `path` is an executable file: without one no PDF can be rendered. */
export function chromiumAvailable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** 503 renderer_unavailable: Chromium is missing or does not start; the reason (not the path's contents) goes in the detail. */
export function rendererUnavailable(path: string, why: string): ProblemError {
  return new ProblemError(
    'renderer_unavailable',
    `PDFs need Chromium, and ${why} (CHROMIUM_PATH=${path}). Install Chromium or set CHROMIUM_PATH; statement.html, statement.json and statement.jws are available meanwhile.`,
    { retry_after: 60 },
    { 'retry-after': '60' },
  );
}
const PRODUCER = 'Vigil';
// The same margins as the statement's CSS @page rule; the footer lives in the bottom one.
const MARGIN = { top: '16mm', right: '14mm', bottom: '18mm', left: '14mm' };

function footerTemplate(title: string): string {
  return `<div style="font: 7pt sans-serif; color: #57606a; width: 100%; margin: 0 14mm; display: flex; justify-content: space-between;">
<span>${esc(title)}</span><span>Page <span class="pageNumber"></span> of <span class="totalPages"></span></span></div>`;
}

async function withMetadataAndAttachments(
  pdf: Uint8Array,
  files: StatementPdfAttachments,
  meta: StatementPdfMeta,
): Promise<Buffer> {
  const doc = await PDFDocument.load(pdf, { updateMetadata: false });
  doc.setTitle(meta.title, { showInWindowTitleBar: true });
  doc.setSubject(meta.subject);
  doc.setAuthor(meta.author);
  doc.setCreator(`${PRODUCER} (Chromium)`);
  doc.setProducer(PRODUCER);
  doc.setCreationDate(meta.createdAt);
  doc.setModificationDate(meta.createdAt);
  const dates = { creationDate: meta.createdAt, modificationDate: meta.createdAt };
  await doc.attach(files.statementJson, 'statement.json', {
    mimeType: 'application/json',
    description: 'The signed SLA statement (RFC 8785 canonical JSON); its SHA-256 is printed in the PDF.',
    afRelationship: AFRelationship.Data,
    ...dates,
  });
  // As bytes: pdf-lib would read a string as base64.
  await doc.attach(Buffer.from(files.statementJws, 'utf8'), 'statement.jws', {
    mimeType: 'application/jose',
    description: 'Detached JWS (RFC 7515, unencoded payload RFC 7797) over statement.json.',
    afRelationship: AFRelationship.Supplement,
    ...dates,
  });
  return Buffer.from(await doc.save());
}

export function createStatementPdfRenderer(opts: StatementPdfOptions = {}): StatementPdfRenderer {
  const executablePath = chromiumPathOf(opts.executablePath);
  const noSandbox = opts.noSandbox ?? process.getuid?.() === 0;
  const timeout = opts.timeoutMs ?? 30_000;
  let launched: Promise<Browser> | null = null;
  let closed = false;

  function browser(): Promise<Browser> {
    if (closed) return Promise.reject(new Error('The statement PDF renderer is closed'));
    if (!launched) {
      if (!chromiumAvailable(executablePath))
        return Promise.reject(rendererUnavailable(executablePath, 'no executable is there'));
      // A browser that will not start is unavailable too; the launch error goes to the log, not to the client.
      const launch = chromium
        .launch({ executablePath, args: noSandbox ? ['--no-sandbox'] : [], timeout })
        .catch((err: unknown) => {
          throw Object.assign(rendererUnavailable(executablePath, 'it did not start'), { cause: err });
        });
      launched = launch;
      // A failed launch or a crashed browser is retried by the next render.
      const forget = () => {
        if (launched === launch) launched = null;
      };
      launch.then((b) => b.on('disconnected', forget), forget);
    }
    return launched;
  }

  return {
    async render(html, attachments, meta) {
      const context = await (await browser()).newContext({ javaScriptEnabled: false });
      try {
        context.setDefaultTimeout(timeout);
        await context.route('**/*', (route) => route.abort());
        const page = await context.newPage();
        await page.setContent(html, { waitUntil: 'load' });
        const pdf = await page.pdf({
          format: 'A4',
          printBackground: true,
          // Tagged for screen readers; the outline (bookmarks) follows the page's headings.
          tagged: true,
          outline: true,
          margin: MARGIN,
          displayHeaderFooter: true,
          headerTemplate: '<span></span>',
          footerTemplate: footerTemplate(meta.title),
        });
        return await withMetadataAndAttachments(pdf, attachments, meta);
      } finally {
        await context.close().catch(() => undefined);
      }
    },
    async close() {
      closed = true;
      const launch = launched;
      launched = null;
      const b = launch ? await launch.catch(() => null) : null;
      await b?.close();
    },
  };
}
