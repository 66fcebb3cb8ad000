import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * Certificates for the HTTP/mTLS probe tests, made with the real `openssl` CLI in a temp dir:
 * a CA, server certificates (valid for 127.0.0.1 and localhost, expired, not yet valid, for
 * another host, self-signed) and client certificates (valid, expired, RSA 1024, self-signed).
 * Leaf dates outside "now" come from `openssl ca -startdate/-enddate`.
 */
export interface PemPair {
  cert: string;
  key: string;
  certPath: string;
  keyPath: string;
}

export interface ProbeCerts {
  dir: string;
  ca: { cert: string; certPath: string };
  server: Record<'valid' | 'expired' | 'notYetValid' | 'wrongHost' | 'selfSigned', PemPair>;
  client: Record<'valid' | 'expired' | 'weak' | 'selfSigned', PemPair>;
  cleanup(): void;
}

const LOCAL_NAMES = 'subjectAltName=IP:127.0.0.1,DNS:localhost';

function openssl(dir: string, args: string[]): void {
  try {
    execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
  } catch (err) {
    const e = err as { code?: string; stderr?: Buffer };
    if (e.code === 'ENOENT') {
      throw new Error(
        'openssl is not installed: the HTTP probe tests need it to make certificates (run scripts/install-test-peers.sh)',
      );
    }
    throw new Error(`openssl ${args[0]} failed: ${e.stderr?.toString() ?? String(err)}`);
  }
}

/** `openssl ca` date, e.g. 20200101000000Z, `days` from now (negative: in the past). */
function caDate(days: number): string {
  return new Date(Date.now() + days * 86_400_000).toISOString().replace(/[-:T]/g, '').slice(0, 14) + 'Z';
}

export function makeProbeCerts(): ProbeCerts {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'vigil-probe-certs-'));
  const file = (name: string) => path.join(dir, name);
  writeFileSync(file('index.txt'), '');
  writeFileSync(file('serial'), '1000\n');
  writeFileSync(
    file('ca.cnf'),
    [
      '[ca]',
      'default_ca = testca',
      '[testca]',
      `dir = ${dir}`,
      'database = $dir/index.txt',
      'serial = $dir/serial',
      'new_certs_dir = $dir',
      'certificate = $dir/ca.crt',
      'private_key = $dir/ca.key',
      'default_md = sha256',
      'policy = anything',
      'unique_subject = no',
      'copy_extensions = none',
      '[anything]',
      'commonName = supplied',
      '[req]',
      'distinguished_name = dn',
      'prompt = no',
      '[dn]',
      'CN = unused',
      '[server_ext]',
      'basicConstraints = CA:FALSE',
      'extendedKeyUsage = serverAuth',
      LOCAL_NAMES.replace('=', ' = '),
      '[other_host_ext]',
      'basicConstraints = CA:FALSE',
      'extendedKeyUsage = serverAuth',
      'subjectAltName = DNS:other.example',
      '[client_ext]',
      'basicConstraints = CA:FALSE',
      'extendedKeyUsage = clientAuth',
      '',
    ].join('\n'),
  );
  const cnf = ['-config', file('ca.cnf')];

  const newKey = (name: string, rsaBits?: number) =>
    openssl(
      dir,
      rsaBits
        ? ['genpkey', '-algorithm', 'RSA', '-pkeyopt', `rsa_keygen_bits:${rsaBits}`, '-out', `${name}.key`]
        : ['genpkey', '-algorithm', 'EC', '-pkeyopt', 'ec_paramgen_curve:P-256', '-out', `${name}.key`],
    );

  const pair = (name: string): PemPair => ({
    cert: readFileSync(file(`${name}.crt`), 'utf8'),
    key: readFileSync(file(`${name}.key`), 'utf8'),
    certPath: file(`${name}.crt`),
    keyPath: file(`${name}.key`),
  });

  /** A leaf signed by the CA, valid from `fromDays` to `toDays` relative to now. */
  const leaf = (name: string, ext: string, fromDays: number, toDays: number, rsaBits?: number): PemPair => {
    newKey(name, rsaBits);
    openssl(dir, ['req', ...cnf, '-new', '-key', `${name}.key`, '-subj', `/CN=${name}`, '-out', `${name}.csr`]);
    openssl(dir, [
      'ca',
      ...cnf,
      '-batch',
      '-notext',
      '-extensions',
      ext,
      '-startdate',
      caDate(fromDays),
      '-enddate',
      caDate(toDays),
      '-in',
      `${name}.csr`,
      '-out',
      `${name}.crt`,
    ]);
    return pair(name);
  };

  /** A self-signed certificate (not issued by the CA). */
  const selfSigned = (name: string, extra: string[]): PemPair => {
    newKey(name);
    openssl(dir, [
      'req',
      ...cnf,
      '-x509',
      '-new',
      '-key',
      `${name}.key`,
      '-subj',
      `/CN=${name}`,
      '-days',
      '30',
      ...extra,
      '-out',
      `${name}.crt`,
    ]);
    return pair(name);
  };

  newKey('ca');
  openssl(dir, [
    'req',
    ...cnf,
    '-x509',
    '-new',
    '-key',
    'ca.key',
    '-subj',
    '/CN=Vigil Probe Test CA',
    '-days',
    '30',
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-addext',
    'keyUsage=critical,keyCertSign,cRLSign',
    '-out',
    'ca.crt',
  ]);

  return {
    dir,
    ca: { cert: readFileSync(file('ca.crt'), 'utf8'), certPath: file('ca.crt') },
    server: {
      valid: leaf('server', 'server_ext', -1, 30),
      expired: leaf('server-expired', 'server_ext', -60, -30),
      notYetValid: leaf('server-future', 'server_ext', 30, 60),
      wrongHost: leaf('server-other-host', 'other_host_ext', -1, 30),
      selfSigned: selfSigned('server-self-signed', ['-addext', LOCAL_NAMES]),
    },
    client: {
      valid: leaf('client', 'client_ext', -1, 30),
      expired: leaf('client-expired', 'client_ext', -60, -30),
      weak: leaf('client-weak', 'client_ext', -1, 30, 1024),
      selfSigned: selfSigned('client-self-signed', ['-addext', 'extendedKeyUsage=clientAuth']),
    },
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}
