import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** A throwaway CA and a server certificate it signed (localhost, 127.0.0.1, ::1), made with the openssl CLI. */
export interface GrpcTestCerts {
  dir: string;
  caPath: string;
  caPem: Buffer;
  certPem: Buffer;
  keyPem: Buffer;
  /** A second CA that signed nothing the server presents. */
  otherCaPem: Buffer;
  remove(): void;
}

function openssl(args: string[], cwd: string): void {
  try {
    execFileSync('openssl', args, { cwd, stdio: ['ignore', 'ignore', 'pipe'] });
  } catch (err) {
    const e = err as NodeJS.ErrnoException & { stderr?: Buffer };
    if (e.code === 'ENOENT') {
      throw new Error(
        'openssl CLI not found: the gRPC TLS tests need it (install it, e.g. scripts/install-test-peers.sh)',
      );
    }
    throw new Error(`openssl ${args[0]} failed: ${e.stderr?.toString() ?? e.message}`);
  }
}

function makeCa(dir: string, name: string): void {
  openssl(['ecparam', '-name', 'prime256v1', '-genkey', '-noout', '-out', `${name}.key`], dir);
  openssl(
    [
      'req',
      '-x509',
      '-new',
      '-key',
      `${name}.key`,
      '-sha256',
      '-days',
      '2',
      '-subj',
      `/CN=${name}`,
      '-out',
      `${name}.pem`,
    ],
    dir,
  );
}

export function makeGrpcTestCerts(): GrpcTestCerts {
  const dir = mkdtempSync(path.join(tmpdir(), 'vigil-grpc-certs-'));
  makeCa(dir, 'ca');
  makeCa(dir, 'other-ca');
  writeFileSync(
    path.join(dir, 'server.ext'),
    'subjectAltName=DNS:localhost,IP:127.0.0.1,IP:::1\nextendedKeyUsage=serverAuth\n',
  );
  openssl(['ecparam', '-name', 'prime256v1', '-genkey', '-noout', '-out', 'server.key'], dir);
  openssl(['req', '-new', '-key', 'server.key', '-subj', '/CN=localhost', '-out', 'server.csr'], dir);
  openssl(
    [
      'x509',
      '-req',
      '-in',
      'server.csr',
      '-CA',
      'ca.pem',
      '-CAkey',
      'ca.key',
      '-CAcreateserial',
      '-days',
      '2',
      '-sha256',
      '-extfile',
      'server.ext',
      '-out',
      'server.pem',
    ],
    dir,
  );
  const read = (f: string) => readFileSync(path.join(dir, f));
  return {
    dir,
    caPath: path.join(dir, 'ca.pem'),
    caPem: read('ca.pem'),
    certPem: read('server.pem'),
    keyPem: read('server.key'),
    otherCaPem: read('other-ca.pem'),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
