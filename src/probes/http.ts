import { type Agent, type Dispatcher, request } from 'undici';
import type { SourceConfigOf } from '../domain/source-config';
import { BODY_MATCH_BYTES, JSON_BODY_MAX_BYTES, announcedOver, discard, readUpTo } from './http-body';
import { type ConnectGuard, checkHop, createDispatcher } from './http-dispatcher';
import { type RequestHeaders, requestHeaders } from './http-headers';
import { type Hop, isRedirect, nextHop } from './http-redirect';
import { loadTlsMaterial, tlsFailureReason } from './http-tls';
import { elapsedMs, reasonForError } from './errors';
import { extractJsonNumber } from './json-path';
import { type Probe, type ProbeContext, type ProbeOutcome, ProbeFailure, measured, noValue } from './types';

type HttpConfig = SourceConfigOf<'http'>;

/**
 * HTTP check (spec §4.1). The value is the response time in ms from the first request to the
 * final response's headers, redirects included; with `body_match` it runs until the part of the
 * body the match reads (the first 4 KB, or all of a shorter body) has arrived. With `json_path` the
 * value is the number at that path, not rescaled, in the `unit` the config names (spec: "unit as in
 * the response"; JSON numbers carry none, so the config says it), else a bare number (unit null).
 * `expected_status` defaults to any 2xx. The body is inspected in memory and dropped; it never
 * reaches the outcome. Each run has its own dispatcher, closed at the end.
 */
export const httpProbe: Probe<HttpConfig> = async (config, ctx) => {
  if (ctx.mode === 'cloud' && !ctx.checkAddress) throw new Error('Cloud probes need ctx.checkAddress');
  const timeoutMs = config.timeout_ms ?? ctx.defaultTimeoutMs;
  const signal = AbortSignal.any([ctx.signal, AbortSignal.timeout(timeoutMs)]);
  const guard: ConnectGuard = {};
  let mtls = false;
  let dispatcher: Agent | undefined;
  try {
    const headers = requestHeaders(config, ctx);
    const tls = await loadTlsMaterial(config, ctx);
    mtls = tls.mtls;
    dispatcher = createDispatcher(tls, timeoutMs, ctx, guard);
    return await run(config, ctx, headers, dispatcher, signal, guard);
  } catch (err) {
    if (guard.unexpected !== undefined) throw guard.unexpected;
    return failureOutcome(err, { guard, mtls, signal });
  } finally {
    await dispatcher?.destroy().catch(() => undefined);
  }
};

/** Deprecated alias (spec §9): the same probe, the same config. */
export const mtlsHttpProbe: Probe<SourceConfigOf<'mtls_http'>> = httpProbe;

async function run(
  config: HttpConfig,
  ctx: ProbeContext,
  headers: RequestHeaders,
  dispatcher: Agent,
  signal: AbortSignal,
  guard: ConnectGuard,
): Promise<ProbeOutcome> {
  const started = performance.now();
  let hop: Hop = { url: new URL(config.url), method: config.method ?? 'GET', body: config.body };
  const origin = hop.url.origin;
  for (let hops = 0; ; hops++) {
    checkHop(hop.url, hops > 0, ctx);
    const res = await request(hop.url, {
      dispatcher,
      signal,
      method: hop.method,
      body: hop.body,
      headers: hop.url.origin === origin ? { ...headers.plain, ...headers.secret } : headers.plain,
    });
    guard.answered = true;
    const location = res.headers.location;
    if (config.follow_redirects === false || !isRedirect(res.statusCode) || location === undefined) {
      return await judge(res, config, started);
    }
    await res.body.dump({ limit: 64 * 1024 });
    hop = nextHop(hop, res.statusCode, location, hops);
  }
}

async function judge(res: Dispatcher.ResponseData, config: HttpConfig, started: number): Promise<ProbeOutcome> {
  const headersMs = elapsedMs(started);
  const { statusCode: status } = res;
  if (!accepted(status, config.expected_status)) {
    discard(res.body);
    return noValue(`unexpected_status:${status}`, { status });
  }
  if (config.body_match === undefined && config.json_path === undefined) {
    discard(res.body);
    return measured(headersMs, 'ms', 'HTTP response time');
  }
  if (config.json_path !== undefined && announcedOver(res.headers['content-length'], JSON_BODY_MAX_BYTES)) {
    discard(res.body);
    return noValue('json_body_too_large', { max_bytes: JSON_BODY_MAX_BYTES });
  }
  const { data, over } = await readUpTo(
    res.body,
    config.json_path === undefined ? BODY_MATCH_BYTES : JSON_BODY_MAX_BYTES,
  );
  const bodyMs = elapsedMs(started);
  if (
    config.body_match !== undefined &&
    !new TextDecoder().decode(data.subarray(0, BODY_MATCH_BYTES)).includes(config.body_match)
  ) {
    return noValue('body_mismatch', { bytes_read: Math.min(data.length, BODY_MATCH_BYTES) });
  }
  if (config.json_path === undefined) return measured(bodyMs, 'ms', 'HTTP response time');
  if (over) return noValue('json_body_too_large', { max_bytes: JSON_BODY_MAX_BYTES });
  const found = extractJsonNumber(data.toString('utf8').replace(/^\uFEFF/, ''), config.json_path);
  return 'value' in found
    ? measured(found.value, config.unit ?? null, `Number at ${config.json_path}`)
    : noValue(found.reason, found.metadata);
}

function accepted(status: number, expected: HttpConfig['expected_status']): boolean {
  if (expected === undefined) return status >= 200 && status <= 299;
  return Array.isArray(expected) ? expected.includes(status) : status === expected;
}

/** undici's own error codes, in §7.3 terms. */
const UNDICI_REASONS: Readonly<Record<string, string>> = {
  UND_ERR_CONNECT_TIMEOUT: 'ETIMEDOUT',
  UND_ERR_HEADERS_TIMEOUT: 'ETIMEDOUT',
  UND_ERR_BODY_TIMEOUT: 'ETIMEDOUT',
  UND_ERR_ABORTED: 'ETIMEDOUT',
  UND_ERR_SOCKET: 'ECONNRESET',
  UND_ERR_CLOSED: 'ECONNRESET',
};

interface FailureContext {
  guard: ConnectGuard;
  mtls: boolean;
  signal: AbortSignal;
}

function failureOutcome(err: unknown, { guard, mtls, signal }: FailureContext): ProbeOutcome {
  const failure = guard.failure ?? (err instanceof ProbeFailure ? err : undefined);
  if (failure) return noValue(failure.reason, failure.metadata);
  const tls = tlsFailureReason(err, mtls) ?? tlsFailureReason(guard.socketError, mtls);
  if (tls) return noValue(tls.reason, tls.metadata);
  if (signal.aborted) return noValue('ETIMEDOUT');
  // A server that refuses a client certificate under TLS 1.3 may just close the connection after
  // the handshake (Node's https server does, without an alert): with a certificate presented and
  // no answer at all, that is the likely reading; metadata.cause marks it as inferred.
  if (mtls && guard.tlsEstablished && !guard.answered && closedByPeer(err)) {
    return noValue('mtls_client_cert_rejected', { cause: 'closed_after_handshake' });
  }
  const { code, name } = (err ?? {}) as { code?: unknown; name?: unknown };
  if (typeof code === 'string' && UNDICI_REASONS[code]) return noValue(UNDICI_REASONS[code]);
  const reason = reasonForError(err, 'http_error');
  if (reason !== 'http_error') return noValue(reason);
  // The error's code or class name only: undici's messages and `data` may quote the response.
  const label = typeof code === 'string' ? code : typeof name === 'string' ? name : 'unknown';
  return noValue(reason, { code: label.slice(0, 64) });
}

function closedByPeer(err: unknown): boolean {
  const e = err as { code?: unknown; cause?: { code?: unknown } } | null;
  return [e?.code, e?.cause?.code].some((c) => c === 'UND_ERR_SOCKET' || c === 'ECONNRESET' || c === 'EPIPE');
}
