import { X509Certificate } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { credentials, type ChannelCredentials } from '@grpc/grpc-js';
import { ProbeFailure } from './types';

const MAX_CA_BYTES = 1024 * 1024;

interface TlsConfig {
  tls?: boolean;
  ca_cert_ref?: string;
}

/** Whether the probe speaks TLS: `tls`, else true when a CA is configured, else false. */
export const usesTls = (config: TlsConfig): boolean => config.tls ?? config.ca_cert_ref !== undefined;

/**
 * The CA named by `ca_cert_ref`: the variable holds either the PEM itself (it starts with
 * `-----BEGIN`) or the path of a PEM file on the agent host. Unset, unreadable, or not a PEM
 * certificate → grpc_ca_unreadable (metadata: the variable name and the cause).
 */
async function readCa(ref: string, env: (name: string) => string | undefined): Promise<Buffer> {
  const raw = env(ref)?.trim();
  if (!raw) throw new ProbeFailure('grpc_ca_unreadable', { ca_cert_ref: ref, cause: 'unset' });
  let pem: Buffer;
  if (raw.startsWith('-----BEGIN')) pem = Buffer.from(raw);
  else {
    try {
      const info = await stat(raw);
      if (!info.isFile() || info.size > MAX_CA_BYTES)
        throw new ProbeFailure('grpc_ca_unreadable', { ca_cert_ref: ref, cause: 'not_a_small_file' });
      pem = await readFile(raw);
    } catch (err) {
      if (err instanceof ProbeFailure) throw err;
      const code = (err as { code?: unknown }).code;
      throw new ProbeFailure('grpc_ca_unreadable', {
        ca_cert_ref: ref,
        cause: typeof code === 'string' ? code : 'read_failed',
      });
    }
  }
  try {
    new X509Certificate(pem);
  } catch {
    throw new ProbeFailure('grpc_ca_unreadable', { ca_cert_ref: ref, cause: 'not_a_pem_certificate' });
  }
  return pem;
}

/** Channel credentials: insecure, or TLS verified against the configured CA or the system store. */
export async function grpcCredentials(
  config: TlsConfig,
  env: (name: string) => string | undefined,
): Promise<ChannelCredentials> {
  if (!usesTls(config)) return credentials.createInsecure();
  const ca = config.ca_cert_ref === undefined ? null : await readCa(config.ca_cert_ref, env);
  return credentials.createSsl(ca);
}
