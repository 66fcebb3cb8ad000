import { Resolver } from 'node:dns/promises';

/**
 * The cloud prober's own resolver (CLOUD_PROBE_RESOLVER, `ip` or `ip:port`): A and AAAA answers
 * of a name, both families asked at once. Rejects with the resolver's error when neither
 * family answers (ENOTFOUND, ESERVFAIL…); an empty list when the name has no address records.
 */
export function cloudResolver(server: string): (host: string) => Promise<string[]> {
  const resolver = new Resolver({ timeout: 3_000, tries: 2 });
  resolver.setServers([server]);
  return async (host) => {
    const [v4, v6] = await Promise.allSettled([resolver.resolve4(host), resolver.resolve6(host)]);
    const answers = [...(v4.status === 'fulfilled' ? v4.value : []), ...(v6.status === 'fulfilled' ? v6.value : [])];
    if (answers.length) return answers;
    const failure = [v4, v6].find(
      (r): r is PromiseRejectedResult => r.status === 'rejected' && (r.reason as { code?: string }).code !== 'ENODATA',
    );
    if (failure) throw failure.reason;
    return [];
  };
}
