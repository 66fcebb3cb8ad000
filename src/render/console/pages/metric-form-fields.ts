import { SOURCE_CONFIG_SCHEMAS, isSourceType } from '../../../domain/source-config';

/**
 * The fields of a source type's `source_config`, read from the very schema the API validates with
 * (src/domain/source-config.ts), so the console's form offers each type's fields with the schema's
 * own help text; and the conversions between those fields and a `source_config` object. What a
 * field may hold is never checked here: the API's validator does that, on the object built here.
 */

export type SourceFieldKind = 'text' | 'longtext' | 'integer' | 'boolean' | 'choice' | 'pairs' | 'json' | 'statuses';

export interface SourceField {
  /** The key in source_config; the form field is `source_config.<key>`. */
  key: string;
  kind: SourceFieldKind;
  required: boolean;
  /** The schema's help (its `.describe()`), if any. */
  help: string | null;
  /** For `choice`: the values; for a field with a default, the default. */
  choices: readonly string[];
  defaultValue: string | null;
}

interface Def {
  type: string;
  innerType?: Schemaish;
  defaultValue?: unknown;
  entries?: Record<string, string>;
  valueType?: Schemaish;
}
interface Schemaish {
  def: Def;
  description?: string;
  shape?: Record<string, Schemaish>;
}

const LONG_TEXT = new Set(['body', 'query', 'send']);

function fieldOf(key: string, schema: Schemaish): SourceField {
  let inner = schema;
  let required = true;
  let defaultValue: string | null = null;
  let help = schema.description ?? null;
  while (inner.def.type === 'optional' || inner.def.type === 'default') {
    required = false;
    if (inner.def.type === 'default') defaultValue = String(inner.def.defaultValue);
    inner = inner.def.innerType!;
    help ??= inner.description ?? null;
  }
  const t = inner.def.type;
  let kind: SourceFieldKind = 'text';
  let choices: string[] = [];
  if (t === 'number') kind = 'integer';
  else if (t === 'boolean') kind = 'boolean';
  else if (t === 'enum') {
    kind = 'choice';
    choices = Object.values(inner.def.entries ?? {});
  } else if (t === 'record') kind = inner.def.valueType?.def.type === 'unknown' ? 'json' : 'pairs';
  else if (t === 'union') kind = 'statuses';
  else if (LONG_TEXT.has(key)) kind = 'longtext';
  return { key, kind, required, help, choices, defaultValue };
}

/** The declared fields of a type's source_config, in the schema's order; none for types that take any object. */
export function sourceFields(sourceType: string): SourceField[] {
  if (!isSourceType(sourceType)) return [];
  const schema = SOURCE_CONFIG_SCHEMAS[sourceType] as unknown as Schemaish;
  return Object.entries(schema.shape ?? {}).map(([k, s]) => fieldOf(k, s));
}

/** The form field that holds the keys a type does not declare (or every key of a type that declares none), as JSON. */
export const OTHER_SETTINGS = 'source_config._other';

export const formName = (f: SourceField) => `source_config.${f.key}`;

/** A source_config as the form shows it: one string per field, the rest as JSON. */
export function sourceFormValues(sourceType: string, config: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  const fields = sourceFields(sourceType);
  const known = new Set(fields.map((f) => f.key));
  for (const f of fields) {
    const v = config[f.key];
    if (v === undefined || v === null) continue;
    if (f.kind === 'pairs' && typeof v === 'object')
      out[formName(f)] = Object.entries(v as Record<string, unknown>)
        .map(([k, x]) => `${k}: ${String(x)}`)
        .join('\n');
    else if (f.kind === 'json') out[formName(f)] = JSON.stringify(v, null, 2);
    else if (f.kind === 'statuses') out[formName(f)] = Array.isArray(v) ? v.join(', ') : String(v);
    else out[formName(f)] = String(v);
  }
  const rest = Object.fromEntries(Object.entries(config).filter(([k]) => !known.has(k)));
  if (Object.keys(rest).length) out[OTHER_SETTINGS] = JSON.stringify(rest, null, 2);
  return out;
}

export interface FormFieldError {
  path: string;
  message: string;
}

/**
 * The source_config the form describes: empty fields are left out (the type's default), numbers
 * and booleans read as such when they look like one (else kept as typed, for the validator to name),
 * `Name: value` lines as an object, JSON as JSON. Errors only for what cannot be read at all.
 */
export function sourceConfigFromForm(
  sourceType: string,
  get: (name: string) => string,
): { config: Record<string, unknown>; errors: FormFieldError[] } {
  const errors: FormFieldError[] = [];
  const config: Record<string, unknown> = {};
  const other = get(OTHER_SETTINGS).trim();
  if (other) {
    const parsed = parseJson(other);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) Object.assign(config, parsed);
    else errors.push({ path: OTHER_SETTINGS, message: 'Expected a JSON object, e.g. {"key": "value"}' });
  }
  for (const f of sourceFields(sourceType)) {
    const raw = get(formName(f));
    if (raw.trim() === '') continue;
    const value = readField(f, raw);
    if (value.ok) config[f.key] = value.value;
    else errors.push({ path: formName(f), message: value.message });
  }
  return { config, errors };
}

function parseJson(s: string): unknown {
  try {
    return JSON.parse(s);
  } catch {
    return undefined;
  }
}

function readField(f: SourceField, raw: string): { ok: true; value: unknown } | { ok: false; message: string } {
  const text = raw.trim();
  switch (f.kind) {
    case 'integer':
      return { ok: true, value: /^-?\d+(\.\d+)?$/.test(text) ? Number(text) : text };
    case 'boolean':
      return { ok: true, value: text === 'true' ? true : text === 'false' ? false : text };
    case 'statuses': {
      const parts = text.split(/[\s,]+/).filter(Boolean);
      const nums = parts.map((p) => (/^\d+$/.test(p) ? Number(p) : p));
      return { ok: true, value: nums.length === 1 ? nums[0] : nums };
    }
    case 'json': {
      const parsed = parseJson(text);
      return parsed === undefined
        ? { ok: false, message: 'Expected JSON, e.g. {"query": {"match_all": {}}}' }
        : { ok: true, value: parsed };
    }
    case 'pairs': {
      const out: Record<string, string> = {};
      for (const [i, line] of text.split(/\r?\n/).entries()) {
        if (!line.trim()) continue;
        const colon = line.indexOf(':');
        if (colon <= 0) return { ok: false, message: `Line ${i + 1}: expected "name: value"` };
        out[line.slice(0, colon).trim()] = line.slice(colon + 1).trim();
      }
      return { ok: true, value: out };
    }
    default:
      // Free text keeps its spaces (a body, a query); one-line fields are trimmed.
      return { ok: true, value: f.kind === 'longtext' ? raw : text };
  }
}
