import { execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * Stand-ins for the `ping` binary that run the REAL ping under conditions the icmp probe test
 * cannot otherwise create (needs root, util-linux `setpriv`/`unshare` and iproute2 `ip`):
 * - `unprivileged`: a copy of ping (a copy loses its cap_net_raw file capability) run as nobody;
 * - `isolated`: ping in an empty network namespace where 10.9.0.0/24 is routed into lo, so echo
 *   requests to `BLACKHOLE_IP` vanish and every ping times out;
 * - `offline`: ping in an empty network namespace with lo down (network unreachable).
 * `missing` is a path with no binary.
 */
export const BLACKHOLE_IP = '10.9.0.2';

export interface PingWrappers {
  missing: string;
  unprivileged: string;
  isolated: string;
  offline: string;
  cleanup(): void;
}

function which(command: string): string {
  try {
    return execFileSync('sh', ['-c', `command -v ${command}`], { encoding: 'utf8' }).trim();
  } catch {
    throw new Error(`${command} is not installed: the icmp probe test needs it (run scripts/install-test-peers.sh)`);
  }
}

export function makePingWrappers(): PingWrappers {
  if (process.getuid?.() !== 0)
    throw new Error('The icmp probe test runs ping in network namespaces and as another user: run it as root');
  const ping = which('ping');
  for (const tool of ['setpriv', 'unshare', 'ip']) which(tool);
  try {
    execFileSync('unshare', ['-n', 'true'], { stdio: 'pipe' });
  } catch (err) {
    throw new Error(`unshare -n failed (network namespaces unavailable?): ${String(err)}`);
  }
  const dir = mkdtempSync(path.join(os.tmpdir(), 'vigil-ping-'));
  chmodSync(dir, 0o755);
  const script = (name: string, body: string) => {
    const file = path.join(dir, name);
    writeFileSync(file, `#!/bin/sh\n${body}\n`, { mode: 0o755 });
    return file;
  };
  const copy = path.join(dir, 'ping-without-caps');
  copyFileSync(ping, copy);
  chmodSync(copy, 0o755);
  return {
    missing: path.join(dir, 'no-such-ping'),
    unprivileged: script('unprivileged', `exec setpriv --reuid=65534 --regid=65534 --clear-groups '${copy}' "$@"`),
    isolated: script(
      'isolated',
      `exec unshare -n sh -c 'ip link set lo up && ip route add 10.9.0.0/24 dev lo && exec "$0" "$@"' '${ping}' "$@"`,
    ),
    offline: script('offline', `exec unshare -n '${ping}' "$@"`),
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}
