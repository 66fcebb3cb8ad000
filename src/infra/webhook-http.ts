import { Agent, request } from 'undici';

export interface PostResult {
  /** HTTP status, or null when no answer came (network error, timeout). */
  statusCode: number | null;
  retryAfter: string | null;
  latencyMs: number;
  /** Why no answer came: `<code>: <message>`; never a response body. */
  error: string | null;
}

/** One keep-alive pool for every delivery of a worker; redirects are not followed (a 3xx is an answer). */
const agent = new Agent({ keepAliveTimeout: 10_000, connections: 64 });

/** POSTs once; never throws for anything the receiver or the network did. */
export async function postWebhook(url: string, headers: Record<string, string>, body: string, timeoutMs: number): Promise<PostResult> {
  const started = performance.now();
  const latency = () => Math.round(performance.now() - started);
  try {
    const res = await request(url, { method: 'POST', headers, body, dispatcher: agent, signal: AbortSignal.timeout(timeoutMs), headersTimeout: timeoutMs, bodyTimeout: timeoutMs });
    const latencyMs = latency();
    // What the receiver says is not kept; read (a little of) it only to free the connection.
    await res.body.dump({ limit: 64 * 1024 }).catch(() => undefined);
    const ra = res.headers['retry-after'];
    return { statusCode: res.statusCode, retryAfter: typeof ra === 'string' ? ra : null, latencyMs, error: null };
  } catch (err) {
    return { statusCode: null, retryAfter: null, latencyMs: latency(), error: describeNetworkError(err, timeoutMs) };
  }
}

function describeNetworkError(err: unknown, timeoutMs: number): string {
  const e = err as { name?: string; code?: string; message?: string; cause?: { code?: string; message?: string } };
  if (e.name === 'TimeoutError' || e.code === 'UND_ERR_HEADERS_TIMEOUT' || e.code === 'UND_ERR_BODY_TIMEOUT') return `ETIMEDOUT: no answer within ${timeoutMs} ms`;
  const code = e.code ?? e.cause?.code ?? 'http_error';
  const message = e.cause?.message ?? e.message ?? 'request failed';
  return `${code}: ${message}`.slice(0, 500);
}
