import type { EntityManager } from '@mikro-orm/postgresql';
import { type SlaStatement, SlaStatementSchema } from '../../db/entities';
import { type StatementDocument, statementDocumentSchema } from '../../domain/sla/statement';
import { creditStateOf, type StatementState } from '../../domain/sla/transitions';
import { renderEvidenceCsv } from '../../render/sla/evidence-csv';
import { type StatementRenderInput, renderStatementHtml } from '../../render/sla/statement-html';
import type { PdfPrinter } from './ports';
import { auditOf, revisionsOf } from './reads';
import { auditView } from './view';

export interface DocumentLinks {
  jwksUrl: string;
  verifyDocsUrl: string;
}

export function documentOf(row: SlaStatement): StatementDocument {
  return statementDocumentSchema.parse(JSON.parse(Buffer.from(row.document).toString('utf8')));
}

async function renderInput(em: EntityManager, row: SlaStatement, links: DocumentLinks): Promise<StatementRenderInput> {
  const revisions = await revisionsOf(em, row);
  const audit = await auditOf(em, revisions);
  return {
    document: documentOf(row),
    sha256: row.sha256,
    signature: row.signature,
    signingKeyId: row.signingKeyId,
    state: row.state,
    creditState: creditStateOf(row.state as StatementState, row.creditAmountMinor),
    audit: audit.map(auditView),
    revisions: revisions.map((r) => ({
      id: r.id,
      revision: r.revision,
      state: r.state,
      sha256: r.sha256,
      generated_at: r.generatedAt.toISOString(),
    })),
    jwksUrl: links.jwksUrl,
    verifyDocsUrl: links.verifyDocsUrl,
  };
}

export async function statementHtml(em: EntityManager, row: SlaStatement, links: DocumentLinks): Promise<string> {
  return renderStatementHtml(await renderInput(em, row, links));
}

export function evidenceCsv(row: SlaStatement): string {
  return renderEvidenceCsv(documentOf(row));
}

export async function statementPdf(
  em: EntityManager,
  printer: PdfPrinter,
  row: SlaStatement,
  links: DocumentLinks,
): Promise<Buffer> {
  const html = await statementHtml(em, row, links);
  return printer.render(
    html,
    { statementJson: Buffer.from(row.document), statementJws: row.signature },
    {
      title: `SLA statement ${row.periodLabel} — ${row.customerName} (revision ${row.revision})`,
      subject: `sha256 ${row.sha256}`,
      author: 'Vigil',
      createdAt: row.generatedAt,
    },
  );
}

/** The PDF source delivery uses: a stored statement by id. */
export function pdfSource(printer: PdfPrinter, links: DocumentLinks) {
  return {
    async pdf(em: EntityManager, statementId: string): Promise<Buffer> {
      const row = await em.findOneOrFail(SlaStatementSchema, { id: statementId });
      return statementPdf(em, printer, row, links);
    },
  };
}
