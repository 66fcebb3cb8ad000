/**
 * Which fixed credentials a probe may send to a URL. A fixed credential is a setting the probe
 * reads under its own name (PROMETHEUS_BEARER_TOKEN, PROMETHEUS_TENANT_ID, LOKI_TENANT_ID), not a
 * ref the config names: the agent's operator set it for one server, the one in the matching
 * server URL variable (PROMETHEUS_SERVER_URL, LOKI_SERVER_URL). Whoever may write metrics chooses
 * a check's URL, so the credential goes out only when that URL has the server's origin (scheme,
 * host and port); anywhere else, or with the server variable unset or not a URL, it reads as unset
 * and the probe runs without it, as it would on an agent that has none.
 * Refs (`auth_ref`, `header_refs`…) are not covered here: the operator marks which variables may
 * be sent anywhere (src/agent/secret-refs.ts).
 */
import { type ProbeContext, readSetting } from './types';

/** Reads fixed settings for a request to `target`: their values at the server's origin, else nothing. */
export function fixedCredentialsFor(
  ctx: ProbeContext,
  serverUrlVariable: string,
  target: URL,
): (name: string) => string | undefined {
  return mayReceiveFixedCredentials(target, readSetting(ctx, serverUrlVariable))
    ? (name) => readSetting(ctx, name)
    : () => undefined;
}

/** True when `target` has the origin of `serverUrl` (an http(s) URL; unset or invalid: never). */
export function mayReceiveFixedCredentials(target: URL, serverUrl: string | undefined): boolean {
  const own = originOf(serverUrl?.trim());
  return own !== null && own === target.origin;
}

function originOf(raw: string | undefined): string | null {
  if (!raw) return null;
  try {
    const url = new URL(raw);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : null;
  } catch {
    return null;
  }
}
