import { Metadata } from '@grpc/grpc-js';
import { ProbeFailure } from './types';

/** ASCII metadata values: printable characters only (no line break, control or non-ASCII). */
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * Metadata sent with the health call: each `metadata_refs` key (lowercased) with the value of the
 * environment variable it names. A `-bin` key takes its variable as base64. Throws
 * metadata_ref_missing (unset or blank) or metadata_ref_invalid; the metadata names key and
 * variable, never the value.
 */
export function resolveGrpcMetadata(
  refs: Record<string, string> | undefined,
  env: (name: string) => string | undefined,
): Metadata {
  const metadata = new Metadata();
  for (const [key, ref] of Object.entries(refs ?? {})) {
    const facts = { metadata_key: key.toLowerCase(), metadata_ref: ref };
    const value = env(ref);
    if (value === undefined || value.trim() === '') throw new ProbeFailure('metadata_ref_missing', facts);
    if (!PRINTABLE_ASCII.test(value)) throw new ProbeFailure('metadata_ref_invalid', facts);
    if (facts.metadata_key.endsWith('-bin')) {
      if (!BASE64.test(value.trim())) throw new ProbeFailure('metadata_ref_invalid', facts);
      metadata.set(facts.metadata_key, Buffer.from(value.trim(), 'base64'));
    } else {
      metadata.set(facts.metadata_key, value);
    }
  }
  return metadata;
}
