import { isIP } from 'node:net';

const isLoopback = (ip: string): boolean =>
  isIP(ip) === 4 ? ip.startsWith('127.') : ip === '::1' || ip.toLowerCase() === '0:0:0:0:0:0:0:1';

/**
 * The local address a connection to `destination` (an IP address) binds to, from the location's
 * VIGIL_PROBE_SOURCE_ADDRESS: only an address of the destination's family, and a loopback source
 * (the `npm start` demo's 127.0.0.11, .12, …) only towards loopback targets, since a loopback
 * source address cannot reach any other network (the kernel refuses the route). Undefined: let
 * the system choose.
 */
export function sourceAddressFor(destination: string, source: string | undefined): string | undefined {
  if (!source) return undefined;
  const family = isIP(destination);
  if (family === 0 || family !== isIP(source)) return undefined;
  if (isLoopback(source) && !isLoopback(destination)) return undefined;
  return source;
}
