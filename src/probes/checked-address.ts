import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import type { ProbeContext } from './types';
import { ProbeFailure } from './types';

/**
 * Cloud mode: resolves `host` (all answers), passes every address through ctx.checkAddress —
 * which throws ProbeFailure('target_not_public:…') for a non-public one — and returns the first,
 * the address the probe then connects to. A lookup failure rejects with its Node error
 * (ENOTFOUND, EAI_AGAIN…).
 */
export async function checkedAddress(host: string, ctx: ProbeContext): Promise<string> {
  if (!ctx.checkAddress) throw new Error('Cloud probes need ctx.checkAddress');
  const bare = host.replace(/^\[(.*)\]$/, '$1');
  const answers = isIP(bare) ? [{ address: bare }] : await lookup(bare, { all: true, verbatim: true });
  const first = answers[0];
  if (!first) throw new ProbeFailure('ENOTFOUND');
  for (const { address } of answers) ctx.checkAddress(host, address);
  return first.address;
}
