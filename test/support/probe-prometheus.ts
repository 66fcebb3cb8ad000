import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { getFreePort } from '../../src/launchers/free-port';
import { stopChild, waitFor } from './peer-process';

const INSTALL_HINT = 'prometheus is missing: run scripts/install-test-peers.sh';
const START_TIMEOUT_MS = 30_000;

/**
 * What the scrape target exposes (Prometheus text format): one series of `probe_single` and two of
 * `probe_pair`, so `probe_pair` is a multi-series query. Every path answers it with 200.
 */
const METRICS = [
  '# TYPE probe_single gauge',
  'probe_single 5',
  '# TYPE probe_pair gauge',
  'probe_pair{side="left"} 1',
  'probe_pair{side="right"} 2',
  '',
].join('\n');

export interface ProbePrometheus {
  /** http://127.0.0.1:<port> of the real Prometheus server. */
  url: string;
  /** http://127.0.0.1:<port> of the scrape target (a plain-text /metrics endpoint, not a Prometheus API). */
  targetUrl: string;
  stop(): Promise<void>;
}

/**
 * A real Prometheus (the `prometheus` binary) scraping a tiny node /metrics target every second,
 * with a temp TSDB; resolves once /-/ready answers and the first scrape is queryable.
 */
export async function startProbePrometheus(): Promise<ProbePrometheus> {
  if (spawnSync('sh', ['-c', 'command -v prometheus']).status !== 0) {
    throw new Error(`${INSTALL_HINT}${process.env.CI === 'true' ? ' in CI before the tests' : ''}`);
  }
  const target = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain; version=0.0.4' });
    res.end(METRICS);
  });
  await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
  const targetPort = (target.address() as AddressInfo).port;

  const dir = mkdtempSync(path.join(tmpdir(), 'vigil-probe-prometheus-'));
  const configFile = path.join(dir, 'prometheus.yml');
  writeFileSync(
    configFile,
    [
      'global:',
      '  scrape_interval: 1s',
      'scrape_configs:',
      '  - job_name: probe_target',
      '    static_configs:',
      `      - targets: ['127.0.0.1:${targetPort}']`,
      '',
    ].join('\n'),
  );
  const port = await getFreePort();
  const logFile = path.join(dir, 'prometheus.log');
  const child = spawn(
    'sh',
    [
      '-c',
      `exec prometheus --config.file=${configFile} --web.listen-address=127.0.0.1:${port} --storage.tsdb.path=${path.join(dir, 'data')} > ${logFile} 2>&1`,
    ],
    { stdio: 'ignore' },
  );
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    await stopChild(child);
    await new Promise<void>((resolve) => target.close(() => resolve()));
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await waitFor('prometheus', child, logFile, async () => (await fetch(`${url}/-/ready`)).ok, START_TIMEOUT_MS);
    await waitFor(
      'prometheus',
      child,
      logFile,
      async () => {
        const answer = (await (await fetch(`${url}/api/v1/query?query=probe_single`)).json()) as {
          data?: { result?: unknown[] };
        };
        return (answer.data?.result?.length ?? 0) > 0;
      },
      START_TIMEOUT_MS,
    );
  } catch (err) {
    await stop();
    throw err;
  }
  return { url, targetUrl: `http://127.0.0.1:${targetPort}`, stop };
}

/**
 * A reverse proxy in front of `upstream` that answers 401 unless the request carries
 * `Authorization: Bearer <token>` and `X-Scope-OrgID: <tenant>` (as a Mimir/Cortex gateway
 * would), else forwards it; an unreachable upstream gives 502, as nginx would.
 */
export async function startAuthProxy(
  upstream: string,
  token: string,
  tenant: string,
): Promise<{ url: string; close(): Promise<void> }> {
  const up = new URL(upstream);
  const server = http.createServer((req, res) => {
    if (req.headers.authorization !== `Bearer ${token}` || req.headers['x-scope-orgid'] !== tenant) {
      res.writeHead(401, { 'content-type': 'text/plain' });
      res.end('unauthorized\n');
      return;
    }
    const forward = http.request(
      {
        host: up.hostname,
        port: up.port,
        path: req.url,
        method: req.method,
        headers: { accept: req.headers.accept ?? '*/*' },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forward.on('error', () => {
      res.writeHead(502, { 'content-type': 'text/html' });
      res.end('<html><body><h1>502 Bad Gateway</h1></body></html>\n');
    });
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
