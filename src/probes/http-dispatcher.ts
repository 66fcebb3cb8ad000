import { type LookupAddress, lookup } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { Agent, buildConnector } from 'undici';
import { checkCloudHost } from './cloud-guard';
import { sourceAddressFor } from './source-address';
import type { TlsMaterial } from './http-tls';
import { type ProbeContext, ProbeFailure } from './types';

/**
 * What happened on the run's connections, for naming a failure: a blocked address wins over the
 * socket error it causes; a TLS alert the server sent is kept even when undici reports the
 * connection as merely closed.
 */
export interface ConnectGuard {
  failure?: ProbeFailure;
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
  type Connect = Parameters<typeof connect>;
  const observed = (options: Connect[0], callback: Connect[1]) =>
    connect(options, (err, socket) => {
      if (socket) {
        if (options.protocol === 'https:') guard.tlsEstablished = true;
        socket.on('error', (e) => void (guard.socketError ??= e));
      }
      (callback as (e: Error | null, s: typeof socket) => void)(err, socket);
    });
  return new Agent({
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
    connect: ctx.localAddress ? boundConnect(ctx, guard, observed) : observed,
  });
}

/**
 * A location with a source address (VIGIL_PROBE_SOURCE_ADDRESS): the name is resolved (and, in
 * the cloud, checked) before connecting, so the socket binds to the source address only when it
 * can reach the resolved address (sourceAddressFor). Host and SNI stay the name: undici takes
 * them from `host`, only `hostname` becomes the address.
 */
function boundConnect(
  ctx: ProbeContext,
  guard: ConnectGuard,
  next: (options: Parameters<buildConnector.connector>[0], callback: Parameters<buildConnector.connector>[1]) => void,
): buildConnector.connector {
  const resolve: LookupFunction = ctx.mode === 'cloud' ? checkedLookup(ctx, guard) : lookup;
  return (options, callback) => {
    const bare = options.hostname.replace(/^\[(.*)\]$/, '$1');
    const bind = (address: string) =>
      next(
        { ...options, hostname: address, localAddress: sourceAddressFor(address, ctx.localAddress) ?? null },
        callback,
      );
    if (isIP(bare)) return bind(bare);
    resolve(bare, { family: 0 }, (err, address) => {
      if (err) return (callback as (e: Error, s: null) => void)(err, null);
      bind(address as string);
    });
  };
}

/**
 * Cloud mode, before each request: a redirect target's name passes the same name rules as the
 * configured URL (the runner checks that one: invalid_host, host_not_fqdn, host_internal), and an
 * IP literal, which is never looked up, goes through ctx.checkAddress here.
 */
export function checkHop(url: URL, redirected: boolean, ctx: ProbeContext): void {
  if (ctx.mode !== 'cloud') return;
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (redirected) checkCloudHost(host);
  if (isIP(host)) ctx.checkAddress?.(host, host);
}

/** The system resolver, or the prober's own (ctx.resolveHost), in lookup's callback shape. */
function resolveAll(
  ctx: ProbeContext,
  hostname: string,
  family: number,
  done: (err: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
): void {
  if (!ctx.resolveHost) return lookup(hostname, { all: true, verbatim: true, family }, done);
  ctx.resolveHost(hostname).then(
    (list) =>
      done(
        null,
        list.map((address) => ({ address, family: isIP(address) })),
      ),
    (err: NodeJS.ErrnoException) => done(err, []),
  );
}

function checkedLookup(ctx: ProbeContext, guard: ConnectGuard): LookupFunction {
  return (hostname, options, callback) => {
    const family =
      typeof options.family === 'number'
        ? options.family
        : options.family === 'IPv6'
          ? 6
          : options.family === 'IPv4'
            ? 4
            : 0;
    resolveAll(ctx, hostname, family, (err, addresses: LookupAddress[]) => {
      if (err || addresses.length === 0) {
        // The hosted-check codes of spec §7.3, as the other cloud probes answer them.
        const code = err?.code;
        guard.failure = new ProbeFailure(code === 'ENODATA' || !err ? 'dns_no_answer' : 'dns_failed', {
          host: hostname,
          ...(code ? { code } : {}),
        });
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
