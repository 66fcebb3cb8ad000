import { X509Certificate, createPrivateKey, type KeyObject } from 'node:crypto';
import { open } from 'node:fs/promises';
import { rootCertificates } from 'node:tls';
import type { SourceConfigOf } from '../domain/source-config';
import { normalizeReason } from '../domain/reason-codes';
import { type ProbeContext, ProbeFailure } from './types';

type HttpConfig = SourceConfigOf<'http'>;
type RefField = 'ca_cert_ref' | 'client_cert_ref' | 'client_key_ref';

/** TLS options of one HTTP probe run; `mtls` when a client certificate is presented. */
export interface TlsMaterial {
  rejectUnauthorized: boolean;
  ca?: string[];
  cert?: string;
  key?: string;
  mtls: boolean;
}

const MIN_RSA_BITS = 2048;
const MAX_PEM_FILE_BYTES = 1024 * 1024;

/**
 * Resolves `ca_cert_ref` and the client certificate refs. Each variable holds either the PEM
 * itself (any value containing `-----BEGIN`; literal `\n` escapes, as env files often write them,
 * are turned into line breaks) or the path of a PEM file on the agent host. The CA is trusted in
 * addition to the system store. Throws ProbeFailure with an mtls_* code; metadata names the config
 * field and the variable, never the value. The CA uses the same codes as the client material.
 */
export async function loadTlsMaterial(config: HttpConfig, ctx: ProbeContext): Promise<TlsMaterial> {
  const material: TlsMaterial = { rejectUnauthorized: config.tls_verify !== false, mtls: false };
  if (config.ca_cert_ref) {
    const ca = await readPem(ctx, 'ca_cert_ref', config.ca_cert_ref, 'mtls_ref_missing');
    parseCert(ca, 'ca_cert_ref');
    material.ca = [...rootCertificates, ca];
  }
  if (config.client_cert_ref && config.client_key_ref) {
    const certRaw = ctx.env(config.client_cert_ref);
    const keyRaw = ctx.env(config.client_key_ref);
    if (blank(certRaw) && blank(keyRaw)) {
      throw new ProbeFailure('mtls_ref_missing', {
        field: 'client_cert_ref',
        variable: config.client_cert_ref,
        key_variable: config.client_key_ref,
      });
    }
    if (blank(certRaw))
      throw new ProbeFailure('mtls_incomplete', { field: 'client_cert_ref', variable: config.client_cert_ref });
    if (blank(keyRaw))
      throw new ProbeFailure('mtls_incomplete', { field: 'client_key_ref', variable: config.client_key_ref });
    const cert = await readPem(ctx, 'client_cert_ref', config.client_cert_ref, 'mtls_incomplete');
    const key = await readPem(ctx, 'client_key_ref', config.client_key_ref, 'mtls_incomplete');
    checkClientPair(cert, key);
    Object.assign(material, { cert, key, mtls: true });
  }
  return material;
}

const blank = (v: string | undefined): boolean => v === undefined || v.trim() === '';

async function readPem(ctx: ProbeContext, field: RefField, variable: string, missing: string): Promise<string> {
  const raw = ctx.env(variable);
  if (raw === undefined || blank(raw)) throw new ProbeFailure(missing, { field, variable });
  if (raw.includes('-----BEGIN')) return raw.includes('\n') ? raw : raw.replace(/\\n/g, '\n');
  try {
    return await readCapped(raw.trim());
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    throw new ProbeFailure('mtls_file_unreadable', { field, variable, ...(typeof code === 'string' ? { code } : {}) });
  }
}

/** A PEM file, at most 1 MiB (a variable naming /dev/zero or a huge file must not hang the probe). */
async function readCapped(path: string): Promise<string> {
  const file = await open(path, 'r');
  try {
    const buf = Buffer.alloc(MAX_PEM_FILE_BYTES + 1);
    let size = 0;
    for (;;) {
      const { bytesRead } = await file.read(buf, size, buf.length - size, null);
      if (bytesRead === 0 || (size += bytesRead) === buf.length) break;
    }
    return buf.subarray(0, Math.min(size, MAX_PEM_FILE_BYTES)).toString('utf8');
  } finally {
    await file.close();
  }
}

function parseCert(pem: string, field: RefField): X509Certificate {
  try {
    return new X509Certificate(pem);
  } catch {
    throw new ProbeFailure('mtls_cert_parse_failed', { field });
  }
}

function parseKey(pem: string): KeyObject {
  try {
    return createPrivateKey({ key: pem, format: 'pem' });
  } catch {
    throw new ProbeFailure('mtls_key_parse_failed', { field: 'client_key_ref' });
  }
}

function checkClientPair(certPem: string, keyPem: string): void {
  const cert = parseCert(certPem, 'client_cert_ref');
  const key = parseKey(keyPem);
  const bits = key.asymmetricKeyDetails?.modulusLength;
  if (
    (key.asymmetricKeyType === 'rsa' || key.asymmetricKeyType === 'rsa-pss') &&
    bits !== undefined &&
    bits < MIN_RSA_BITS
  ) {
    throw new ProbeFailure('mtls_weak_key', { bits, min_bits: MIN_RSA_BITS });
  }
  const notAfter = Date.parse(cert.validTo);
  if (Number.isFinite(notAfter) && notAfter < Date.now()) {
    throw new ProbeFailure('mtls_cert_expired', { not_after: new Date(notAfter).toISOString() });
  }
  if (!cert.checkPrivateKey(key))
    throw new ProbeFailure('mtls_handshake_failed', { cause: 'key_does_not_match_certificate' });
}

/** OpenSSL verification results Node reports as `err.code` when the server certificate fails. */
const VERIFY_CODES = new Set([
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_CRL',
  'UNABLE_TO_DECRYPT_CERT_SIGNATURE',
  'UNABLE_TO_DECRYPT_CRL_SIGNATURE',
  'UNABLE_TO_DECODE_ISSUER_PUBLIC_KEY',
  'CERT_SIGNATURE_FAILURE',
  'CRL_SIGNATURE_FAILURE',
  'CERT_NOT_YET_VALID',
  'CERT_HAS_EXPIRED',
  'CRL_NOT_YET_VALID',
  'CRL_HAS_EXPIRED',
  'ERROR_IN_CERT_NOT_BEFORE_FIELD',
  'ERROR_IN_CERT_NOT_AFTER_FIELD',
  'ERROR_IN_CRL_LAST_UPDATE_FIELD',
  'ERROR_IN_CRL_NEXT_UPDATE_FIELD',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'CERT_CHAIN_TOO_LONG',
  'CERT_REVOKED',
  'INVALID_CA',
  'PATH_LENGTH_EXCEEDED',
  'INVALID_PURPOSE',
  'CERT_UNTRUSTED',
  'CERT_REJECTED',
  'HOSTNAME_MISMATCH',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

/** TLS alerts a server sends when it refuses the client certificate it asked for. */
const CLIENT_CERT_ALERT =
  /^ERR_SSL_(?:SSLV3|TLSV1|TLSV13)_ALERT_(?:BAD_CERTIFICATE|UNKNOWN_CA|CERTIFICATE_(?:REQUIRED|EXPIRED|REVOKED|UNKNOWN)|UNSUPPORTED_CERTIFICATE|ACCESS_DENIED)$/;

/**
 * The §7.3 code for a TLS failure, or null when `err` is not one. Without a client certificate
 * the server's verification result stands as is (unknown verification results: tls_error;
 * ERR_SSL_ and ERR_TLS_ handshake errors: tls_handshake_failed); with one, the mtls_* codes.
 */
export function tlsFailureReason(
  err: unknown,
  mtls: boolean,
): { reason: string; metadata?: Record<string, string> } | null {
  const code = errorCode(err);
  if (code === undefined) return null;
  if (VERIFY_CODES.has(code)) {
    if (!mtls) {
      const known = normalizeReason(code);
      return known === 'unknown' ? { reason: 'tls_error', metadata: { tls_code: code } } : { reason: known };
    }
    return code === 'CERT_HAS_EXPIRED'
      ? { reason: 'mtls_server_cert_expired' }
      : { reason: 'mtls_server_verify_failed', metadata: { tls_code: code } };
  }
  if (!/^ERR_(?:SSL|TLS)_/.test(code)) return null;
  if (!mtls) return { reason: 'tls_handshake_failed', metadata: { tls_code: code } };
  return {
    reason: CLIENT_CERT_ALERT.test(code) ? 'mtls_client_cert_rejected' : 'mtls_handshake_failed',
    metadata: { tls_code: code },
  };
}

function errorCode(err: unknown): string | undefined {
  const e = err as { code?: unknown; cause?: { code?: unknown } } | null;
  for (const code of [e?.code, e?.cause?.code])
    if (typeof code === 'string' && !code.startsWith('UND_ERR')) return code;
  return undefined;
}
