import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * Server certificates for the tls_cert probe test, made with the real `openssl` CLI in a temp
 * dir: `valid` (30 days, signed by a test CA), `expired` (ended 10 days ago, same CA) and
 * `selfSigned` (90 days). Dates in the past come from `openssl ca -startdate/-enddate`.
 */
export interface TlsCertPair {
  cert: string;
  key: string;
}

export interface ProbeTlsCerts {
  valid: TlsCertPair;
  expired: TlsCertPair;
  selfSigned: TlsCertPair;
  cleanup(): void;
}

const SAN = 'subjectAltName=DNS:localhost,IP:127.0.0.1';
const EC_KEY = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];

function openssl(dir: string, args: string[]): void {
  try {
    execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
  } catch (err) {
    const e = err as { code?: string; stderr?: Buffer };
    if (e.code === 'ENOENT')
      throw new Error('openssl is not installed: the tls_cert probe test needs it (run scripts/install-test-peers.sh)');
    throw new Error(`openssl ${args.join(' ')} failed: ${e.stderr?.toString() ?? String(err)}`);
  }
}

/** `openssl ca` date (YYYYMMDDHHMMSSZ), `days` from now. */
const caDate = (days: number) =>
  new Date(Date.now() + days * 86_400_000).toISOString().replace(/[-:T]/g, '').slice(0, 14) + 'Z';

export function makeProbeTlsCerts(): ProbeTlsCerts {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'vigil-tls-cert-probe-'));
  const file = (name: string) => path.join(dir, name);
  const pair = (name: string): TlsCertPair => ({
    cert: readFileSync(file(`${name}.pem`), 'utf8'),
    key: readFileSync(file(`${name}.key`), 'utf8'),
  });
  writeFileSync(file('index.txt'), '');
  writeFileSync(file('serial'), '1000\n');
  writeFileSync(
    file('ca.cnf'),
    [
      '[ca]',
      'default_ca = test_ca',
      '[test_ca]',
      `dir = ${dir}`,
      'database = $dir/index.txt',
      'new_certs_dir = $dir',
      'serial = $dir/serial',
      'default_md = sha256',
      'policy = any_name',
      'copy_extensions = copy',
      'unique_subject = no',
      '[any_name]',
      'commonName = supplied',
    ].join('\n'),
  );
  openssl(dir, [
    'req',
    '-x509',
    ...EC_KEY,
    '-days',
    '365',
    '-subj',
    '/CN=Vigil tls_cert test CA',
    '-keyout',
    'ca.key',
    '-out',
    'ca.pem',
  ]);
  const signed = (name: string, dates: string[]) => {
    openssl(dir, [
      'req',
      '-new',
      ...EC_KEY,
      '-subj',
      `/CN=${name}`,
      '-addext',
      SAN,
      '-keyout',
      `${name}.key`,
      '-out',
      `${name}.csr`,
    ]);
    openssl(dir, [
      'ca',
      '-batch',
      '-notext',
      '-config',
      'ca.cnf',
      '-cert',
      'ca.pem',
      '-keyfile',
      'ca.key',
      ...dates,
      '-in',
      `${name}.csr`,
      '-out',
      `${name}.pem`,
    ]);
    return pair(name);
  };
  const valid = signed('valid', ['-days', '30']);
  const expired = signed('expired', ['-startdate', caDate(-40), '-enddate', caDate(-10)]);
  openssl(dir, [
    'req',
    '-x509',
    ...EC_KEY,
    '-days',
    '90',
    '-subj',
    '/CN=selfsigned.test',
    '-addext',
    SAN,
    '-keyout',
    'selfSigned.key',
    '-out',
    'selfSigned.pem',
  ]);
  return {
    valid,
    expired,
    selfSigned: pair('selfSigned'),
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}
