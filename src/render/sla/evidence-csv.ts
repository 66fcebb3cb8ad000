/**
 * The evidence behind a statement as RFC 4180 CSV (CRLF line ends, fields quoted when they hold
 * `"`, `,`, CR or LF, quotes doubled), for finance to open in a spreadsheet.
 *
 * Rows: the header, one per covered item (`service` or `slo`, as statement.json says), per exclusion (`maintenance_exclusion`,
 * `manual_exclusion`), per incident (`incident`), then `totals`. Cells that do not apply are empty.
 * `counted` says whether the row's minutes count against the SLA: for an incident, whether its
 * down minutes counted; for an exclusion, `false` when the window was excluded and `true` when its
 * minutes stayed eligible (maintenance announced too late).
 *
 * Text cells starting with `=`, `+`, `-`, `@`, tab or CR get a leading `'` so a spreadsheet shows
 * them instead of evaluating them as formulas (customer names, titles and justifications are
 * typed by people). Numeric cells are written as they are.
 */
import type { StatementDocument } from '../../domain/sla/statement';

export const EVIDENCE_CSV_COLUMNS = [
  'kind',
  'id',
  'name',
  'start',
  'end',
  'total_minutes',
  'excluded_minutes',
  'eligible_minutes',
  'down_minutes',
  'counted',
  'why',
] as const;

type Column = (typeof EVIDENCE_CSV_COLUMNS)[number];
type Cell = string | number | boolean | null;
type Row = Partial<Record<Column, Cell>>;

const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

function cell(value: Cell | undefined): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'number') return String(value);
  const text = typeof value === 'boolean' ? String(value) : FORMULA_START.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

function minutesOf(m: {
  total_minutes: number;
  excluded_minutes: number;
  eligible_minutes: number;
  down_minutes: number;
}): Row {
  return {
    total_minutes: m.total_minutes,
    excluded_minutes: m.excluded_minutes,
    eligible_minutes: m.eligible_minutes,
    down_minutes: m.down_minutes,
  };
}

function evidenceRows(doc: StatementDocument): Row[] {
  return [
    ...doc.services.map((s): Row => ({ kind: s.kind, id: s.id, name: s.name, ...minutesOf(s) })),
    ...doc.exclusions.map((e): Row => ({
      kind: `${e.kind}_exclusion`,
      id: e.id,
      name: e.title,
      start: e.start,
      end: e.end,
      counted: !e.excluded,
      why: e.why,
    })),
    ...doc.incidents.map((i): Row => ({
      kind: 'incident',
      id: i.id,
      name: i.title,
      start: i.start,
      end: i.end,
      down_minutes: i.down_minutes,
      counted: i.counted,
      why: i.why,
    })),
    { kind: 'totals', id: doc.statement_id, name: doc.contract.name, ...minutesOf(doc.totals) },
  ];
}

export function renderEvidenceCsv(document: StatementDocument): string {
  const records = [
    EVIDENCE_CSV_COLUMNS.join(','),
    ...evidenceRows(document).map((row) => EVIDENCE_CSV_COLUMNS.map((c) => cell(row[c])).join(',')),
  ];
  return `${records.join('\r\n')}\r\n`;
}
