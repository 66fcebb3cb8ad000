/**
 * What a database query gave, reduced to its shape and first cell (rows are counted while they
 * stream and never kept), and the outcome that shape yields: one row and one column holding a
 * number. Shape checks run in this order: more than one column, no row (or no column), more than
 * one row, then the cell itself.
 */
import { measured, noValue, type ProbeOutcome } from './types';

/** One run of the probe's query on one engine. */
export interface QueryRun {
  dsn: string;
  query: string;
  statementTimeoutMs: number;
  connectTimeoutMs: number;
}

export interface QueryShape {
  columns: number;
  rows: number;
  /** The first column of the first row as the driver decoded it (undefined without rows). */
  first: unknown;
}

const DESCRIPTION = 'Result of the database query';
const DECIMAL = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;
const NON_FINITE = /^[+-]?(nan|inf|infinity)$/i;

export function scalarOutcome(shape: QueryShape): ProbeOutcome {
  if (shape.columns > 1) return noValue('db_multi_column', { columns: shape.columns });
  if (shape.rows === 0 || shape.columns === 0) return noValue('db_empty_result');
  if (shape.rows > 1) return noValue('db_multi_row', { rows: shape.rows });
  const cell = shape.first;
  if (cell === null || cell === undefined) return noValue('db_null_value');
  const value = toNumber(cell);
  if (value === null) return noValue('db_non_numeric', { type: typeName(cell) });
  if (!Number.isFinite(value)) return noValue('non_finite_value');
  return measured(value, null, DESCRIPTION);
}

/**
 * Numbers as they are; booleans 1/0; bigints; decimal text (how drivers hand out bigint, numeric
 * and decimal columns, and numeric text columns) parsed, NaN/Infinity text kept non-finite.
 * Anything else (dates, JSON, binary, arbitrary text) is not numeric.
 */
function toNumber(cell: unknown): number | null {
  if (typeof cell === 'number') return cell;
  if (typeof cell === 'boolean') return cell ? 1 : 0;
  if (typeof cell === 'bigint') return Number(cell);
  if (typeof cell === 'string') {
    const s = cell.trim();
    if (DECIMAL.test(s)) return Number(s);
    if (NON_FINITE.test(s)) return Number.NaN;
  }
  return null;
}

function typeName(cell: unknown): string {
  if (cell instanceof Date) return 'date';
  if (Buffer.isBuffer(cell)) return 'binary';
  if (Array.isArray(cell)) return 'array';
  return typeof cell;
}
