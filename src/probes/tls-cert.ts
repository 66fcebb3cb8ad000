import { isIP } from 'node:net';
import { type PeerCertificate, connect } from 'node:tls';
import type { SourceConfigOf } from '../domain/source-config';
import { daysUntil, parseCertDate } from './cert-expiry';
import { checkedAddress } from './checked-address';
import { failureOutcome } from './failure-outcome';
import { probeDeadline } from './probe-deadline';
import { sourceAddressFor } from './source-address';
import { type Probe, ProbeFailure, measured } from './types';

/**
 * Days until the server certificate (the leaf) expires: fractional, rounded to 0.01, negative
 * once expired. The certificate is read without verifying it (rejectUnauthorized false), so a
 * self-signed, untrusted or expired certificate is still measured; chain problems are the http
 * probe's business. Failures: no_cert, bad_cert_date, tls_handshake_failed (the TLS library gave
 * up, e.g. the port does not speak TLS), network codes (ECONNREFUSED, ECONNRESET, ETIMEDOUT…),
 * else tls_error. SNI is `servername`, else `host` unless it is an IP address.
 */
export const tlsCertProbe: Probe<SourceConfigOf<'tls_cert'>> = async (config, ctx) => {
  const deadline = probeDeadline(ctx, config.timeout_ms ?? ctx.defaultTimeoutMs);
  try {
    const host = ctx.mode === 'cloud' ? await deadline.race(checkedAddress(config.host, ctx)) : config.host;
    const servername = config.servername ?? (isIP(config.host.replace(/^\[(.*)\]$/, '$1')) ? undefined : config.host);
    const cert = await peerCertificate(
      host,
      config.port,
      servername,
      deadline.signal,
      sourceAddressFor(host, ctx.localAddress),
    );
    if (!cert.valid_to) throw new ProbeFailure('bad_cert_date');
    const notAfter = parseCertDate(cert.valid_to);
    if (notAfter === null) throw new ProbeFailure('bad_cert_date', { valid_to: cert.valid_to.slice(0, 64) });
    return measured(daysUntil(notAfter, Date.now()), 'days', 'Days until the TLS certificate expires');
  } catch (err) {
    return failureOutcome(handshakeFailure(err), 'tls_error');
  } finally {
    deadline.done();
  }
};

/** The leaf certificate the server presents; rejects ProbeFailure('no_cert') when it sends none. */
function peerCertificate(
  host: string,
  port: number,
  servername: string | undefined,
  signal: AbortSignal,
  localAddress: string | undefined,
): Promise<PeerCertificate> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const socket = connect({
      host,
      port,
      ...(servername ? { servername } : {}),
      ...(localAddress ? { localAddress } : {}),
      rejectUnauthorized: false,
    });
    const finish = (settle: () => void) => {
      signal.removeEventListener('abort', onAbort);
      socket.destroy();
      settle();
    };
    const onAbort = () => finish(() => reject(signal.reason));
    signal.addEventListener('abort', onAbort, { once: true });
    socket.once('secureConnect', () => {
      const cert = socket.getPeerCertificate();
      finish(() => (cert && Object.keys(cert).length > 0 ? resolve(cert) : reject(new ProbeFailure('no_cert'))));
    });
    socket.once('error', (err) => finish(() => reject(err)));
  });
}

/**
 * An OpenSSL error during the handshake (it carries `library`, or Node's EPROTO) is
 * tls_handshake_failed; anything else keeps its own code.
 */
function handshakeFailure(err: unknown): unknown {
  const e = err as { code?: unknown; library?: unknown } | null;
  if (e && (typeof e.library === 'string' || e.code === 'EPROTO')) {
    return new ProbeFailure('tls_handshake_failed', typeof e.code === 'string' ? { code: e.code } : undefined);
  }
  return err;
}
