/**
 * One request to a metrics API (Prometheus, Loki, Elasticsearch) that answers JSON: no redirects
 * (credentials never follow one), a fresh connection closed afterwards, at most 10 MB of body.
 * The parsed body stays inside the probe; callers keep only numbers and small facts from it.
 */
import { request } from 'undici';
import { reasonForError } from './errors';
import { readUpTo } from './http-body';

export const API_BODY_MAX_BYTES = 10 * 1024 * 1024;
const PLAIN_TEXT_CHARS = 512;

export interface ApiAnswer {
  status: number;
  /** The parsed body; undefined when it was not JSON or over the limit (`malformed`). */
  json: unknown;
  malformed: boolean;
  /** The start of a body that is not JSON (APIs such as Loki write errors as plain text); else null. */
  plainText: string | null;
}

export interface ApiCall {
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
  /** Aborts the call (probe deadline or the type's own timeout). */
  signal: AbortSignal;
}

export async function callJsonApi(url: URL, call: ApiCall): Promise<ApiAnswer> {
  const response = await request(url, {
    method: call.method,
    headers: { accept: 'application/json', ...call.headers },
    body: call.body,
    signal: call.signal,
    reset: true,
  });
  const { data, over } = await readUpTo(response.body, API_BODY_MAX_BYTES);
  const text = data.toString('utf8');
  if (over) return { status: response.statusCode, json: undefined, malformed: true, plainText: null };
  try {
    return { status: response.statusCode, json: JSON.parse(text) as unknown, malformed: false, plainText: null };
  } catch {
    return {
      status: response.statusCode,
      json: undefined,
      malformed: true,
      plainText: text.slice(0, PLAIN_TEXT_CHARS),
    };
  }
}

/** Header values from the agent's environment may not carry line breaks or control characters. */
export function isHeaderSafe(value: string): boolean {
  return !/[\x00-\x08\x0a-\x1f\x7f]/.test(value);
}

/** Joins an API path onto a base URL that may carry a path prefix (https://host/prometheus). */
export function apiUrl(base: URL, path: string): URL {
  const prefix = base.pathname.endsWith('/') ? base.pathname : `${base.pathname}/`;
  const url = new URL(base.origin);
  url.pathname = `${prefix}${path.replace(/^\//, '')}`;
  return url;
}

/** A string as short metadata (error texts from the API, never bodies). */
export const short = (s: unknown, max = 200): string | null =>
  typeof s === 'string' && s !== '' ? s.slice(0, max) : null;

/** undici's own codes for failures Node reports with system codes elsewhere. */
const UNDICI_CODES: Record<string, string> = {
  UND_ERR_SOCKET: 'ECONNRESET',
  UND_ERR_CONNECT_TIMEOUT: 'ETIMEDOUT',
  UND_ERR_HEADERS_TIMEOUT: 'ETIMEDOUT',
  UND_ERR_BODY_TIMEOUT: 'ETIMEDOUT',
};

/**
 * The §7.3 network code of a failed call (ECONNREFUSED, ENOTFOUND, ECONNRESET…), or null when
 * the error is not a network failure; `name` is a short label for it either way.
 */
export function networkFailure(err: unknown): { code: string | null; name: string } {
  const e = err as { code?: unknown; name?: unknown; cause?: { code?: unknown } } | null;
  const raw = typeof e?.code === 'string' ? e.code : typeof e?.cause?.code === 'string' ? e.cause.code : null;
  const name = raw ?? (typeof e?.name === 'string' ? e.name : 'Error');
  if (raw && UNDICI_CODES[raw]) return { code: UNDICI_CODES[raw], name };
  const reason = reasonForError(err, '');
  return { code: reason === '' ? null : reason, name };
}
