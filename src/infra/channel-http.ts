import { isIP } from 'node:net';
import { request } from 'undici';
import type { WebhookTransport } from './webhook-http';

export interface ChannelPostResult {
  /** HTTP status, or null when no answer came (network error, timeout, refused address). */
  statusCode: number | null;
  latencyMs: number;
  /** Why no answer came (`target_not_public:<why>`, `ECONNREFUSED: …`, `ETIMEDOUT: …`); null when one came. */
  error: string | null;
  /** The first 1,000 characters of what the receiver answered, to show in the send's record and the "send test" result. */
  response: string | null;
}

const EXCERPT = 1_000;

/**
 * One POST to a notification channel's receiver through the webhooks' SSRF-guarded transport.
 * Unlike a webhook delivery, the answer's beginning is kept: vendors explain refusals in the body
 * (Slack's `invalid_blocks`, PagerDuty's `errors[]`), and "send test" shows it to the operator.
 */
export async function postToChannel(transport: WebhookTransport, url: string, headers: Record<string, string>, body: string, timeoutMs: number): Promise<ChannelPostResult> {
  const host = new URL(url).hostname.replace(/^\[(.*)\]$/, '$1');
  if (isIP(host)) {
    const refused = transport.check(host);
    if (refused) return { statusCode: null, latencyMs: 0, error: `target_not_public:${refused}`, response: null };
  }
  const started = performance.now();
  const latency = () => Math.round(performance.now() - started);
  try {
    const res = await request(url, { method: 'POST', headers, body, dispatcher: transport.agent, signal: AbortSignal.timeout(timeoutMs), headersTimeout: timeoutMs, bodyTimeout: timeoutMs });
    const latencyMs = latency();
    const text = await readExcerpt(res.body);
    return { statusCode: res.statusCode, latencyMs, error: null, response: text };
  } catch (err) {
    return { statusCode: null, latencyMs: latency(), error: describe(err, timeoutMs), response: null };
  }
}

async function readExcerpt(body: AsyncIterable<Buffer> & { destroy(): void }): Promise<string | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of body) {
      chunks.push(chunk);
      size += chunk.length;
      if (size >= EXCERPT * 4) break;
    }
  } catch {
    // What was read so far is enough.
  } finally {
    body.destroy();
  }
  const text = Buffer.concat(chunks).toString('utf8').slice(0, EXCERPT);
  return text.length ? text : null;
}

function describe(err: unknown, timeoutMs: number): string {
  const e = err as { name?: string; code?: string; message?: string; reason?: string; cause?: { code?: string; message?: string; reason?: string } };
  const refused = [e.reason, e.cause?.reason].find((r) => typeof r === 'string' && r.startsWith('target_not_public:'));
  if (refused) return refused;
  if (e.name === 'TimeoutError' || e.code === 'UND_ERR_HEADERS_TIMEOUT' || e.code === 'UND_ERR_BODY_TIMEOUT') return `ETIMEDOUT: no answer within ${timeoutMs} ms`;
  const code = e.code ?? e.cause?.code ?? 'http_error';
  return `${code}: ${e.cause?.message ?? e.message ?? 'request failed'}`.slice(0, 500);
}
