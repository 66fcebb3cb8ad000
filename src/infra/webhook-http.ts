import { type LookupAddress, lookup } from 'node:dns';
import { isIP } from 'node:net';
import { Agent, request } from 'undici';
import { inCidrs, nonPublicReason, parseCidrList } from '../probes/public-address';
import type { PostResult, WebhookPoster } from '../usecases/shared/ports';

export type { PostResult };

/** Why an address may not receive webhooks (`loopback`, `private`…), or null when it may. */
type AddressCheck = (address: string) => string | null;

class RefusedTarget extends Error {
  constructor(readonly reason: string) {
    super(reason);
  }
}

/**
 * One keep-alive pool for a worker's deliveries; redirects are not followed (a 3xx is an answer).
 * Every address a receiver's name resolves to, and every IP literal, passes `check` first, so a
 * webhook can never be pointed at the service's own network (SSRF).
 */
interface WebhookTransport {
  agent: Agent;
  check: AddressCheck;
}

function webhookTransport(check: AddressCheck): WebhookTransport {
  const agent = new Agent({
    keepAliveTimeout: 10_000,
    connections: 64,
    connect: {
      lookup: (hostname, options, callback) => {
        const done = (addresses: LookupAddress[]) => {
          for (const a of addresses) {
            const refused = check(a.address);
            if (refused) return callback(new RefusedTarget(`target_not_public:${refused}`), '', 0);
          }
          if ((options as { all?: boolean }).all)
            return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
          callback(null, addresses[0]!.address, addresses[0]!.family);
        };
        if (isIP(hostname)) return done([{ address: hostname, family: isIP(hostname) }]);
        lookup(hostname, { all: true }, (err, addresses) => (err ? callback(err, '', 0) : done(addresses)));
      },
    },
  });
  return { agent, check };
}

/**
 * The transport for posts to addresses an organization chose (webhook subscriptions, alert
 * channels, Slack's response_url): public addresses only (SSRF), except those `allowCidrs` names
 * (WEBHOOK_ALLOW_CIDRS, for tests and development).
 */
function publicOnlyTransport(allowCidrs?: string): WebhookTransport {
  const allowed = parseCidrList(allowCidrs);
  return webhookTransport((address) => (inCidrs(address, allowed) ? null : nonPublicReason(address)));
}

/**
 * POSTs once; never throws for anything the receiver or the network did. Webhook deliveries keep
 * nothing of the answer; alert channels keep its beginning (`keepResponseChars`), because vendors
 * explain refusals there (Slack's `invalid_blocks`, PagerDuty's `errors[]`).
 */
async function postWebhook(
  transport: WebhookTransport,
  url: string,
  headers: Record<string, string>,
  body: string,
  timeoutMs: number,
  keepResponseChars = 0,
): Promise<PostResult> {
  const { agent } = transport;
  const host = new URL(url).hostname.replace(/^\[(.*)\]$/, '$1');
  // Literal addresses never go through lookup: check them here.
  if (isIP(host)) {
    const refused = transport.check(host);
    if (refused)
      return {
        statusCode: null,
        retryAfter: null,
        latencyMs: 0,
        error: `target_not_public:${refused}`,
        response: null,
      };
  }
  const started = performance.now();
  const latency = () => Math.round(performance.now() - started);
  try {
    const res = await request(url, {
      method: 'POST',
      headers,
      body,
      dispatcher: agent,
      signal: AbortSignal.timeout(timeoutMs),
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
    });
    const latencyMs = latency();
    const response = keepResponseChars > 0 ? await readExcerpt(res.body, keepResponseChars) : null;
    // Otherwise read (a little of) it only to free the connection.
    if (keepResponseChars <= 0) await res.body.dump({ limit: 64 * 1024 }).catch(() => undefined);
    const ra = res.headers['retry-after'];
    return {
      statusCode: res.statusCode,
      retryAfter: typeof ra === 'string' ? ra : null,
      latencyMs,
      error: null,
      response,
    };
  } catch (err) {
    return {
      statusCode: null,
      retryAfter: null,
      latencyMs: latency(),
      error: describeNetworkError(err, timeoutMs),
      response: null,
    };
  }
}

async function readExcerpt(body: AsyncIterable<Buffer> & { destroy(): void }, chars: number): Promise<string | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of body) {
      chunks.push(chunk);
      size += chunk.length;
      if (size >= chars * 4) break;
    }
  } catch {
    // What was read so far is enough.
  } finally {
    body.destroy();
  }
  const text = Buffer.concat(chunks).toString('utf8').slice(0, chars);
  return text.length ? text : null;
}

function describeNetworkError(err: unknown, timeoutMs: number): string {
  const refused = [err, (err as { cause?: unknown })?.cause].find(
    (e): e is RefusedTarget => e instanceof RefusedTarget,
  );
  if (refused) return refused.reason;
  const e = err as { name?: string; code?: string; message?: string; cause?: { code?: string; message?: string } };
  if (e.name === 'TimeoutError' || e.code === 'UND_ERR_HEADERS_TIMEOUT' || e.code === 'UND_ERR_BODY_TIMEOUT')
    return `ETIMEDOUT: no answer within ${timeoutMs} ms`;
  const code = e.code ?? e.cause?.code ?? 'http_error';
  const message = e.cause?.message ?? e.message ?? 'request failed';
  return `${code}: ${message}`.slice(0, 500);
}

/** The WebhookPoster port over a transport: public addresses only unless `allowCidrs` names them. */
export function publicOnlyPoster(allowCidrs?: string): WebhookPoster {
  const transport = publicOnlyTransport(allowCidrs);
  return {
    post: (url, headers, body, timeoutMs, keepResponseChars) =>
      postWebhook(transport, url, headers, body, timeoutMs, keepResponseChars),
  };
}
