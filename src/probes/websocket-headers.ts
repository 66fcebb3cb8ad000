import { ProbeFailure } from './types';

/** Line breaks and control characters (tab allowed, as in a plain header), or a character Node cannot send in a header. */
const INVALID = /[\x00-\x08\x0a-\x1f\x7f]|[^\x00-\xff]/;

/**
 * Plain headers plus the secret ones: each `header_refs` name with the value of the environment
 * variable it names. Throws header_ref_missing (unset or blank) or header_ref_invalid; the metadata
 * names header and variable, never the value.
 */
export function resolveWebsocketHeaders(
  headers: Record<string, string> | undefined,
  refs: Record<string, string> | undefined,
  env: (name: string) => string | undefined,
): Record<string, string> {
  const out: Record<string, string> = { ...headers };
  for (const [header, ref] of Object.entries(refs ?? {})) {
    const value = env(ref);
    if (value === undefined || value.trim() === '')
      throw new ProbeFailure('header_ref_missing', { header, header_ref: ref });
    if (INVALID.test(value)) throw new ProbeFailure('header_ref_invalid', { header, header_ref: ref });
    out[header] = value;
  }
  return out;
}
