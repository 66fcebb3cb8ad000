import { type LookupAddress, lookup } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { Agent, buildConnector } from 'undici';
import type { TlsMaterial } from './http-tls';
import { type ProbeContext, ProbeFailure } from './types';

/**
 * What happened on the run's connections, for naming a failure: a blocked address wins over the
 * socket error it causes; a TLS alert the server sent is kept even when undici reports the
 * connection as merely closed.
 */
export interface ConnectGuard {
  failure?: ProbeFailure;
  dnsError?: { code: string };
  /** Anything but a ProbeFailure out of ctx.checkAddress is a bug; the probe rethrows it. */
  unexpected?: unknown;
  /** First error a connected socket emitted (e.g. ERR_SSL_TLSV1_ALERT_UNKNOWN_CA). */
  socketError?: unknown;
  /** A TLS handshake completed on some connection of this run. */
  tlsEstablished?: boolean;
  /** Some hop got response headers. */
  answered?: boolean;
}

/**
 * A dispatcher for one probe run (closed by the caller afterwards): its TLS options apply to this
 * run only and no connection or TLS session is shared with another check. In cloud mode every
 * hostname is resolved here (all addresses), every address goes through ctx.checkAddress, and the
 * socket connects to a checked address; Host and SNI stay the hostname, as undici takes them from
 * the URL.
 */
export function createDispatcher(tls: TlsMaterial, timeoutMs: number, ctx: ProbeContext, guard: ConnectGuard): Agent {
  const connect = buildConnector({
    timeout: timeoutMs,
    rejectUnauthorized: tls.rejectUnauthorized,
    ...(tls.ca ? { ca: tls.ca } : {}),
    ...(tls.cert && tls.key ? { cert: tls.cert, key: tls.key } : {}),
    ...(ctx.mode === 'cloud' ? { lookup: checkedLookup(ctx, guard) } : {}),
  });
  return new Agent({
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
    connect: (options, callback) =>
      connect(options, (err, socket) => {
        if (socket) {
          if (options.protocol === 'https:') guard.tlsEstablished = true;
          socket.on('error', (e) => void (guard.socketError ??= e));
        }
        (callback as (e: Error | null, s: typeof socket) => void)(err, socket);
      }),
  });
}

/** Cloud mode: an IP literal in the URL is never looked up, so the hop check goes through here. */
export function checkLiteralHost(url: URL, ctx: ProbeContext): void {
  if (ctx.mode !== 'cloud') return;
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (isIP(host)) ctx.checkAddress?.(host, host);
}

function checkedLookup(ctx: ProbeContext, guard: ConnectGuard): LookupFunction {
  return (hostname, options, callback) => {
    lookup(hostname, { all: true, family: options.family ?? 0 }, (err, addresses: LookupAddress[]) => {
      if (err) {
        guard.dnsError = { code: err.code ?? 'dns_error' };
        return callback(err, '', 0);
      }
      if (addresses.length === 0) {
        guard.failure = new ProbeFailure('dns_no_answer');
        return callback(guard.failure, '', 0);
      }
      try {
        for (const a of addresses) ctx.checkAddress?.(hostname, a.address);
      } catch (e) {
        if (e instanceof ProbeFailure) guard.failure = e;
        else guard.unexpected = e;
        return callback(e as Error, '', 0);
      }
      if (options.all) return (callback as (e: null, a: LookupAddress[]) => void)(null, addresses);
      callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  };
}
