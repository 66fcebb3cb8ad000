import { type ChildProcess, spawn } from 'node:child_process';
import dgram from 'node:dgram';
import { Resolver } from 'node:dns/promises';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * A real dnsmasq on 127.0.0.1 (random free port) for the dns probe test. Zone, all local
 * (--no-resolv, no upstream):
 * - probe.test and every name under it: A 127.0.0.9 (--address); TXT "v=vigil1", MX 10
 *   mail.probe.test, CAA 0 issue "letsencrypt.org", NS ns1.probe.test
 * - www.probe.test A 127.0.0.10, AAAA ::10; alias.probe.test CNAME www.probe.test;
 *   _sip._tcp.probe.test SRV 10 20 5060 sip.probe.test
 * - anything under nx.test: NXDOMAIN; v4.local.test: A only (AAAA is NODATA)
 * - any other name: REFUSED (nothing to forward to)
 */
export interface Dnsmasq {
  port: number;
  /** `127.0.0.1:<port>`, the probe's `resolver`. */
  resolver: string;
  stop(): Promise<void>;
}

/** `ns1.probe.test` in DNS wire format, as hex for --dns-rr. */
const NS_RDATA = Buffer.concat([
  ...['ns1', 'probe', 'test'].map((l) => Buffer.concat([Buffer.from([l.length]), Buffer.from(l)])),
  Buffer.from([0]),
]).toString('hex');

function records(): string[] {
  return [
    '--address=/probe.test/127.0.0.9',
    '--txt-record=probe.test,v=vigil1',
    '--mx-host=probe.test,mail.probe.test,10',
    '--caa-record=probe.test,0,issue,letsencrypt.org',
    `--dns-rr=probe.test,2,${NS_RDATA}`,
    '--host-record=www.probe.test,127.0.0.10,::10',
    '--cname=alias.probe.test,www.probe.test',
    '--srv-host=_sip._tcp.probe.test,sip.probe.test,5060,10,20',
    '--address=/nx.test/',
    '--local=/local.test/',
    '--host-record=v4.local.test,127.0.0.11',
  ];
}

/** A UDP port on 127.0.0.1 that was free a moment ago. */
export async function freeUdpPort(): Promise<number> {
  const socket = dgram.createSocket('udp4');
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const { port } = socket.address();
  await new Promise<void>((resolve) => socket.close(() => resolve()));
  return port;
}

async function answers(port: number): Promise<boolean> {
  const resolver = new Resolver({ timeout: 200, tries: 1 });
  resolver.setServers([`127.0.0.1:${port}`]);
  try {
    await resolver.resolve4('probe.test');
    return true;
  } catch {
    return false;
  }
}

async function startOnce(dir: string, port: number): Promise<Dnsmasq | null> {
  const args = [
    '--no-daemon',
    '--keep-in-foreground',
    `--port=${port}`,
    '--listen-address=127.0.0.1',
    '--bind-interfaces',
    '--no-resolv',
    '--no-hosts',
    '--conf-file=/dev/null',
    `--pid-file=${path.join(dir, `dnsmasq-${port}.pid`)}`,
    ...(process.getuid?.() === 0 ? ['--user=root'] : []),
    ...records(),
  ];
  const child: ChildProcess = spawn('dnsmasq', args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const spawnError = await new Promise<Error | null>((resolve) => {
    child.once('error', resolve);
    child.once('spawn', () => resolve(null));
  });
  if (spawnError) {
    const code = (spawnError as { code?: string }).code;
    throw new Error(
      code === 'ENOENT'
        ? 'dnsmasq is not installed: the dns probe test needs it (run scripts/install-test-peers.sh)'
        : `dnsmasq did not start: ${spawnError.message}`,
    );
  }
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  for (let i = 0; i < 100; i++) {
    if (child.exitCode !== null) {
      if (/address already in use/i.test(stderr)) return null;
      throw new Error(`dnsmasq exited (${child.exitCode}): ${stderr}`);
    }
    if (await answers(port)) return { port, resolver: `127.0.0.1:${port}`, stop };
    await new Promise((r) => setTimeout(r, 50));
  }
  await stop();
  throw new Error(`dnsmasq did not answer on 127.0.0.1:${port} within 5 s: ${stderr}`);
}

export async function startDnsmasq(): Promise<Dnsmasq> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'vigil-dnsmasq-'));
  for (let attempt = 0; attempt < 5; attempt++) {
    const server = await startOnce(dir, await freeUdpPort());
    if (server)
      return {
        ...server,
        stop: async () => {
          await server.stop();
          rmSync(dir, { recursive: true, force: true });
        },
      };
  }
  rmSync(dir, { recursive: true, force: true });
  throw new Error('dnsmasq: no free port after 5 attempts');
}
