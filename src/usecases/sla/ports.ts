import type { StatementAction } from '../../domain/sla/transitions';
import type { Contract } from '../../db/entities';

/** A statement's workflow: one per contract and period. */
export interface StatementRef {
  organizationId: string;
  contractId: string;
  period: string;
}

/** What the API sends with an action; the workflow's validator and the activity check it. */
export interface ActionInput {
  action: StatementAction;
  /** The revision the caller acts on: refused (stale_revision) once another one is current. */
  statementId?: string;
  /** The API key id of the caller. */
  actor: string;
  actorName: string | null;
  revision?: number;
  sha256?: string;
  note?: string;
  /** submit / approve: go ahead although coverage is below the contract's min_coverage_pct (recorded in the audit trail). */
  acknowledgeGaps?: boolean;
  exclusion?: { starts_at: string; ends_at: string; justification: string };
  /** remove_exclusion: the manual exclusion of this statement's contract and period to remove. */
  exclusionId?: string;
}

/** What the workflow knows of the statement's current revision. */
export interface StatementFactsView {
  statementId: string;
  revision: number;
  state: string;
  sha256: string;
  submittedBy: string | null;
  submittedAt: number | null;
}

/** How SLA use cases reach Temporal (implemented in src/temporal/sla-workflows.ts). */
export interface SlaWorkflows {
  /** Creates, updates or (for a deleted contract) removes the contract's monthly Schedule. */
  contractChanged(contract: Contract): Promise<void>;
  /** Starts the period's workflow unless it runs (or ran) already. */
  startStatement(ref: StatementRef, title: string): Promise<{ workflowId: string; started: boolean }>;
  /** Runs an action as a workflow update; `updateId` makes retries with the same Idempotency-Key run it once. */
  runAction(ref: StatementRef, input: ActionInput, updateId: string | undefined): Promise<StatementFactsView>;
}

/** The signed files a statement PDF carries as attachments. */
export interface StatementPdfAttachments {
  /** The canonical statement bytes, embedded unchanged. */
  statementJson: Uint8Array;
  /** The detached compact JWS over those bytes. */
  statementJws: string;
}

export interface StatementPdfMeta {
  title: string;
  subject: string;
  author: string;
  createdAt: Date;
}

/** Prints a statement's HTML to PDF with its signed files attached (implemented by src/infra/statement-pdf.ts). */
export interface PdfPrinter {
  render(html: string, attachments: StatementPdfAttachments, meta: StatementPdfMeta): Promise<Buffer>;
}
