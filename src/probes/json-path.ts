import { JSONPath } from 'jsonpath-plus';

/** The number a JSONPath selects in a JSON body, or the §7.3 reason there is none. */
export type JsonPathResult = { value: number } | { reason: string; metadata?: Record<string, string | number> };

/**
 * Reads one number from `body` (UTF-8 JSON) at `path` (jsonpath-plus syntax, filters evaluated by
 * its safe evaluator). Exactly one match must come back: a finite number as is, a boolean as 1/0;
 * a string is json_path_non_numeric (numeric strings too: the spec casts booleans only), null,
 * arrays and objects json_path_unsupported_type.
 */
export function extractJsonNumber(body: string, path: string): JsonPathResult {
  if (!balanced(path)) return { reason: 'json_path_invalid' };
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return { reason: 'json_parse_failed' };
  }
  let matches: unknown[];
  try {
    matches = JSONPath<unknown[]>({ path, json: json as object, wrap: true, eval: 'safe' });
  } catch {
    return { reason: 'json_path_invalid' };
  }
  if (!Array.isArray(matches) || matches.length === 0) return { reason: 'json_path_no_match' };
  if (matches.length > 1) return { reason: 'json_path_multi_match', metadata: { matches: matches.length } };
  const [v] = matches;
  if (typeof v === 'boolean') return { value: v ? 1 : 0 };
  if (typeof v === 'number') return Number.isFinite(v) ? { value: v } : { reason: 'non_finite_value' };
  if (v === null || typeof v === 'object')
    return {
      reason: 'json_path_unsupported_type',
      metadata: { type: v === null ? 'null' : Array.isArray(v) ? 'array' : 'object' },
    };
  return { reason: 'json_path_non_numeric', metadata: { type: typeof v } };
}

/**
 * jsonpath-plus accepts some broken paths silently (`$[` selects the root): brackets,
 * parentheses and quotes must balance, and the path may not end in a dot.
 */
function balanced(path: string): boolean {
  const open: string[] = [];
  let quote: string | null = null;
  for (let i = 0; i < path.length; i++) {
    const c = path[i]!;
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = null;
    } else if (c === "'" || c === '"') quote = c;
    else if (c === '[' || c === '(') open.push(c === '[' ? ']' : ')');
    else if (c === ']' || c === ')') {
      if (open.pop() !== c) return false;
    }
  }
  return quote === null && open.length === 0 && !path.endsWith('.');
}
