import { LineCounter, type Document as YamlDocument, isNode, parseDocument } from 'yaml';
import type { z } from 'zod';
import { CONFIG_KEY_PATTERN, CONFIG_KINDS, type ConfigKind, SECTION_OF, formatPath } from '../domain/config/kinds';
import { type FieldError, ProblemError } from '../domain/error-catalog';
import type { ConfigSections, ParsedDocument, Slot } from '../usecases/config/document';
import { UNSTORABLE_MESSAGE, unstorableStringAt } from './plugins/json-body';
import { ENTRY_SCHEMAS, SECTION_MAX } from './schemas/config';

const TOP_LEVEL = new Set(['$schema', 'version', ...CONFIG_KINDS.map((k) => SECTION_OF[k])]);

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function issuesAt(base: (string | number)[], error: z.ZodError): FieldError[] {
  return error.issues.map((issue) => ({
    path: formatPath([...base, ...issue.path.map((p) => (typeof p === 'number' ? p : String(p)))]),
    message: issue.message,
  }));
}

/**
 * Checks a document's shape entry by entry, so one bad entry does not hide the problems of the
 * others: each entry that passes is handed on, each that fails leaves its config_key behind.
 */
export function parseConfigDocument(body: unknown): ParsedDocument {
  const errors: FieldError[] = [];
  const sections: ConfigSections = {};
  if (!isObject(body))
    return {
      sections,
      errors: [{ path: '', message: 'Expected a configuration document (an object with version: 1)' }],
    };
  for (const key of Object.keys(body))
    if (!TOP_LEVEL.has(key))
      errors.push({ path: key, message: `Unknown section; expected ${[...TOP_LEVEL].join(', ')}` });
  if (body.version !== 1)
    errors.push({
      path: 'version',
      message: body.version === undefined ? 'Required: version: 1' : 'Unsupported version; this API reads version 1',
    });
  if (body.$schema !== undefined && typeof body.$schema !== 'string')
    errors.push({ path: '$schema', message: 'Expected a string' });
  for (const kind of CONFIG_KINDS) {
    const section = SECTION_OF[kind];
    const list = body[section];
    if (list === undefined) continue;
    if (!Array.isArray(list)) {
      errors.push({ path: section, message: 'Expected a list' });
      continue;
    }
    if (list.length > SECTION_MAX) {
      errors.push({ path: section, message: `At most ${SECTION_MAX} entries` });
      continue;
    }
    sections[kind] = list.map((entry, index) => parseEntry(kind, entry, [section, index], errors)) as never;
  }
  return { sections, errors };
}

function parseEntry<K extends ConfigKind>(
  kind: K,
  entry: unknown,
  base: (string | number)[],
  errors: FieldError[],
): Slot<K> {
  const parsed = ENTRY_SCHEMAS[kind].safeParse(entry, {
    error: (iss) => (iss.input === undefined ? 'Required' : undefined),
  });
  if (parsed.success) return { ok: true, entry: parsed.data as never };
  errors.push(...issuesAt(base, parsed.error));
  const key =
    isObject(entry) && typeof entry.config_key === 'string' && CONFIG_KEY_PATTERN.test(entry.config_key)
      ? entry.config_key
      : null;
  return { ok: false, config_key: key };
}

/** A YAML request body: its value, and where each path's node starts (for line numbers in errors). */
export class YamlBody {
  constructor(
    readonly value: unknown,
    private readonly doc: YamlDocument,
    private readonly lines: LineCounter,
  ) {}

  /** The 1-based line of a document path (`metrics[3].thresholds`), or null. */
  lineOf(path: string): number | null {
    const segments = [...path.matchAll(/([^.[\]]+)|\[(\d+)\]/g)].map((m) =>
      m[2] !== undefined ? Number(m[2]) : m[1]!,
    );
    for (let n = segments.length; n > 0; n--) {
      const node = this.doc.getIn(segments.slice(0, n), true);
      if (isNode(node) && node.range) return this.lines.linePos(node.range[0]).line;
    }
    return null;
  }
}

export const YAML_MEDIA_TYPES = ['application/yaml', 'application/x-yaml', 'text/yaml'];

/** Parses a YAML body; syntax errors (and duplicate keys) are config_invalid with their line and column. */
export function parseYamlBody(text: string): YamlBody {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, uniqueKeys: true, prettyErrors: true, strict: true });
  if (doc.errors.length) {
    // With prettyErrors each message already says "at line L, column C"; its first line is enough.
    const errors = doc.errors.map((e) => ({ path: '', message: e.message.split('\n')[0]!.replace(/:$/, '') }));
    throw new ProblemError('config_invalid', 'The YAML document does not parse; nothing was written.', {
      errors,
      warnings: [],
    });
  }
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: 100 });
  } catch (err) {
    throw new ProblemError('config_invalid', 'The YAML document cannot be read; nothing was written.', {
      errors: [{ path: '', message: err instanceof Error ? err.message : String(err) }],
      warnings: [],
    });
  }
  // YAML escapes ("\0", "\ud800") write what JSON's do: strings PostgreSQL cannot store.
  const unstorable = unstorableStringAt(value);
  if (unstorable)
    throw new ProblemError(
      'config_invalid',
      'The YAML document holds a string that cannot be stored; nothing was written.',
      { errors: [{ path: formatPath(unstorable), message: UNSTORABLE_MESSAGE }], warnings: [] },
    );
  return new YamlBody(value, doc, lines);
}

/** Adds "(line N)" to each problem a YAML document's author has to find. */
export function withYamlLines(err: unknown, body: unknown): unknown {
  if (!(body instanceof YamlBody) || !(err instanceof ProblemError) || err.token !== 'config_invalid') return err;
  const mark = (list: FieldError[] | undefined) =>
    list?.map((e) => {
      const line = e.path ? body.lineOf(e.path) : null;
      return line ? { ...e, message: `${e.message} (line ${line})` } : e;
    });
  return new ProblemError('config_invalid', err.message, {
    ...err.extras,
    errors: mark(err.extras.errors),
    warnings: mark(err.extras.warnings as FieldError[] | undefined),
  });
}
