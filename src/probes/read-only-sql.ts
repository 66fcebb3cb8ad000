/**
 * The database probe's query gate: a real SQL parser (node-sql-parser, in the engine's dialect)
 * must read the text as exactly one SELECT (or WITH … SELECT, UNION of SELECTs) that neither
 * writes (no INSERT/UPDATE/DELETE/DDL anywhere, data-modifying CTEs included), nor stores
 * (SELECT … INTO), nor locks (FOR UPDATE / FOR SHARE / LOCK IN SHARE MODE).
 *
 * It fails closed: text the parser cannot read is refused, even when the server would accept it
 * (e.g. PostgreSQL's FOR UPDATE, TABLE t, VALUES). The gate is the first of three layers; the
 * probe also runs the query in a READ ONLY transaction and through a protocol that refuses a
 * second statement (extended protocol on PostgreSQL, multipleStatements off on MySQL), so a
 * difference between this parser and the server's own cannot turn into a write.
 */
import { Parser } from 'node-sql-parser';

export type SqlEngine = 'postgresql' | 'mysql';

/** Why a query was refused (metadata `problem` of db_query_not_allowed). */
export type SqlRefusal =
  | 'unparseable'
  | 'empty'
  | 'multiple_statements'
  | 'not_select'
  | 'writes_data'
  | 'select_into'
  | 'locking_read'
  | 'executable_comment';

/** Dialects tried in order; the first that reads the text decides. MySQL's also covers MariaDB. */
const DIALECTS: Record<SqlEngine, readonly string[]> = {
  postgresql: ['PostgresQL'],
  mysql: ['MySQL', 'MariaDB'],
};

/**
 * node-sql-parser statement kinds (lower case; ORDER BY's 'DESC' is upper case) that are not a
 * SELECT; any of them anywhere in the tree refuses.
 */
const STATEMENT_TYPES = new Set([
  'insert',
  'replace',
  'update',
  'delete',
  'create',
  'drop',
  'alter',
  'truncate',
  'rename',
  'use',
  'set',
  'lock',
  'unlock',
  'grant',
  'revoke',
  'show',
  'explain',
  'call',
  'exec',
  'execute',
  'transaction',
  'load_data',
  'declare',
  'deallocate',
  'comment',
  'analyze',
  'attach',
  'proc',
  'merge',
  'copy',
  'vacuum',
  'do',
  'handler',
  'prepare',
]);

const parser = new Parser();

/** null when the query may run; otherwise why it may not. */
export function refuseUnlessReadOnlySelect(query: string, engine: SqlEngine): SqlRefusal | null {
  // MySQL runs the inside of /*! … */ (and MariaDB of /*M! … */) while any parser skips it as a comment.
  if (engine === 'mysql' && /\/\*M?!/i.test(query)) return 'executable_comment';
  const parsed = parse(query, engine);
  if (!parsed) return 'unparseable';
  const statements = Array.isArray(parsed.ast) ? parsed.ast : [parsed.ast];
  if (statements.length === 0) return 'empty';
  if (statements.length > 1) return 'multiple_statements';
  if ((statements[0] as { type?: unknown }).type !== 'select') return 'not_select';
  if (parsed.tableList.some((entry) => !entry.startsWith('select::'))) return 'writes_data';
  return refusalInTree(statements[0]);
}

function parse(query: string, engine: SqlEngine): { ast: unknown; tableList: string[] } | null {
  for (const database of DIALECTS[engine]) {
    try {
      return parser.parse(query, { database });
    } catch {
      // not readable in this dialect; try the next
    }
  }
  return null;
}

/** Walks every node: nested statements, INTO targets and locking clauses refuse. */
function refusalInTree(root: unknown): SqlRefusal | null {
  const seen = new WeakSet<object>();
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const node = stack.pop();
    if (typeof node !== 'object' || node === null || seen.has(node)) continue;
    seen.add(node);
    const n = node as Record<string, unknown>;
    if (typeof n.type === 'string' && STATEMENT_TYPES.has(n.type) && looksLikeStatement(n)) return 'writes_data';
    if (isObject(n.into) && n.into.position != null) return 'select_into';
    if (n.locking_read != null || n.for_update != null) return 'locking_read';
    for (const value of Object.values(n)) if (typeof value === 'object' && value !== null) stack.push(value);
  }
  return null;
}

/** Expression nodes reuse `type` for their own kinds ('function', 'number'…); statements carry a table, name or keyword. */
function looksLikeStatement(n: Record<string, unknown>): boolean {
  return ['table', 'name', 'keyword', 'set', 'values', 'from', 'where', 'expr', 'returning'].some((k) => k in n);
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
