/**
 * Statement PDFs printed by a real Chromium (Debian's, via playwright-core): the document
 * information, the two attachments read back byte for byte, the outline made from the page's
 * headings, and concurrent renders on one browser. A missing Chromium fails every test here,
 * naming the install command; it never skips.
 */
import { PDFDict, type PDFDocument as PdfDoc, PDFDocument, PDFHexString, PDFName, PDFString } from 'pdf-lib';
import { canonicalStatement, sha256Hex } from '../../src/crypto/statement-signing';
import { type StatementPdfRenderer, createStatementPdfRenderer } from '../../src/infra/statement-pdf';
import { renderStatementHtml } from '../../src/render/sla/statement-html';
import { chromiumPath } from '../support/browser';
import { readPdfAttachments } from '../support/pdf-attachments';
import { renderInputFixture, statementFixture } from '../support/sla-statement-fixture';

const CREATED_AT = new Date('2025-04-02T09:30:00.000Z');

function requireChromium(): string {
  const found = chromiumPath();
  if (!found)
    throw new Error(
      `Chromium is missing at ${process.env.CHROMIUM_PATH || '/usr/bin/chromium'}: run scripts/install-test-peers.sh chromium (or set CHROMIUM_PATH)`,
    );
  return found;
}

/** The titles of the PDF's outline (bookmarks), depth first. */
function outlineTitles(pdf: PdfDoc): string[] {
  const titles: string[] = [];
  const walk = (item: PDFDict | undefined) => {
    for (let node = item; node; node = node.lookupMaybe(PDFName.of('Next'), PDFDict)) {
      const title = node.lookupMaybe(PDFName.of('Title'), PDFString, PDFHexString);
      if (title) titles.push(title.decodeText());
      walk(node.lookupMaybe(PDFName.of('First'), PDFDict));
    }
  };
  walk(pdf.catalog.lookupMaybe(PDFName.of('Outlines'), PDFDict)?.lookupMaybe(PDFName.of('First'), PDFDict));
  return titles;
}

function statementCase(customerName: string, state: string) {
  const document = statementFixture({ customerName });
  const input = renderInputFixture(document, { state });
  const json = canonicalStatement(document).bytes;
  return {
    input,
    html: renderStatementHtml(input),
    attachments: { statementJson: new Uint8Array(json), statementJws: input.signature },
    meta: {
      title: `SLA statement 2025-03: ${customerName}`,
      subject: 'Enterprise SLA 2025, 2025-03',
      author: 'Vigil Hosting GmbH',
      createdAt: CREATED_AT,
    },
  };
}

describe('statement PDF (real Chromium)', () => {
  let renderer: StatementPdfRenderer;

  beforeAll(() => {
    renderer = createStatementPdfRenderer({ executablePath: requireChromium() });
  });
  afterAll(async () => {
    await renderer?.close();
  });

  it('prints the statement with its document information and both files attached byte for byte', async () => {
    const c = statementCase('Acme Corp', 'draft');
    const pdf = await renderer.render(c.html, c.attachments, c.meta);
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');

    // updateMetadata: false, or pdf-lib would overwrite the producer and dates it reads.
    const doc = await PDFDocument.load(pdf, { updateMetadata: false });
    expect(doc.getPageCount()).toBeGreaterThanOrEqual(2);
    expect(doc.getTitle()).toBe(c.meta.title);
    expect(doc.getSubject()).toBe(c.meta.subject);
    expect(doc.getAuthor()).toBe(c.meta.author);
    expect(doc.getProducer()).toBe('Vigil');
    expect(doc.getCreationDate()?.toISOString()).toBe(CREATED_AT.toISOString());

    const files = readPdfAttachments(doc);
    expect(files.map((f) => [f.name, f.mimeType])).toEqual([
      ['statement.json', 'application/json'],
      ['statement.jws', 'application/jose'],
    ]);
    const [json, jws] = files;
    expect(Buffer.compare(Buffer.from(json?.bytes ?? []), Buffer.from(c.attachments.statementJson))).toBe(0);
    expect(sha256Hex(json?.bytes ?? new Uint8Array())).toBe(c.input.sha256);
    expect(Buffer.from(jws?.bytes ?? []).toString('utf8')).toBe(c.attachments.statementJws);
    for (const f of files) expect(f.description).toMatch(/\S/);
  });

  it('carries the page headings as its outline', async () => {
    const c = statementCase('Outline Check Ltd', 'approved');
    const doc = await PDFDocument.load(await renderer.render(c.html, c.attachments, c.meta), { updateMetadata: false });
    expect(outlineTitles(doc)).toEqual(
      expect.arrayContaining([
        'SLA statement: March 2025',
        'Summary',
        'Covered services',
        'Exclusions',
        'Incident ledger',
        'How the credit was calculated',
        'Approvals',
        'Revision history',
        'Verifying this statement',
      ]),
    );
  });

  it('renders concurrently on one browser, each PDF with its own files', async () => {
    const cases = [statementCase('First Customer', 'approved'), statementCase('Second Customer', 'void')];
    const pdfs = await Promise.all(cases.map((c) => renderer.render(c.html, c.attachments, c.meta)));
    for (const [i, pdf] of pdfs.entries()) {
      const doc = await PDFDocument.load(pdf, { updateMetadata: false });
      expect(doc.getTitle()).toBe(cases[i]?.meta.title);
      const json = readPdfAttachments(doc).find((f) => f.name === 'statement.json');
      expect(Buffer.from(json?.bytes ?? []).equals(Buffer.from(cases[i]?.attachments.statementJson ?? []))).toBe(true);
    }
  });

  it('refuses to render once closed', async () => {
    const own = createStatementPdfRenderer({ executablePath: requireChromium() });
    const c = statementCase('Closed Inc', 'approved');
    await own.close();
    await expect(own.render(c.html, c.attachments, c.meta)).rejects.toThrow('closed');
  });
});

it('fails a render, without hanging, when the Chromium executable does not exist', async () => {
  const broken = createStatementPdfRenderer({ executablePath: '/nonexistent/chromium', timeoutMs: 10_000 });
  const c = statementCase('Nobody', 'draft');
  await expect(broken.render(c.html, c.attachments, c.meta)).rejects.toThrow();
  await broken.close();
});
