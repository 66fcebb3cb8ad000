import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import type { ProbeContext } from './types';
import { ProbeFailure } from './types';

/**
 * Cloud mode: resolves `host` (all answers), passes every address through ctx.checkAddress —
 * which throws ProbeFailure('target_not_public:…') for a non-public one — and returns the first,
 * the address the probe then connects to. A lookup failure is the prober's `dns_failed` (or
 * `dns_no_answer`), with the resolver's code in the metadata.
 */
export async function checkedAddress(host: string, ctx: ProbeContext): Promise<string> {
  if (!ctx.checkAddress) throw new Error('Cloud probes need ctx.checkAddress');
  const bare = host.replace(/^\[(.*)\]$/, '$1');
  let answers: { address: string }[];
  try {
    if (isIP(bare)) answers = [{ address: bare }];
    else if (ctx.resolveHost) answers = (await ctx.resolveHost(bare)).map((address) => ({ address }));
    else answers = await lookup(bare, { all: true, verbatim: true });
  } catch (err) {
    // The hosted-check codes of spec §7.3: the prober's own lookup failed.
    const code = (err as { code?: string }).code;
    throw new ProbeFailure(code === 'ENODATA' ? 'dns_no_answer' : 'dns_failed', { host, ...(code ? { code } : {}) });
  }
  const first = answers[0];
  if (!first) throw new ProbeFailure('dns_no_answer', { host });
  for (const { address } of answers) ctx.checkAddress(host, address);
  return first.address;
}
