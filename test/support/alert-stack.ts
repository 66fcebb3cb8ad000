import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { getFreePort } from '../../src/launchers/free-port';
import { stopChild, waitFor } from './peer-process';

const INSTALL_HINT = 'prometheus / prometheus-alertmanager is missing: run scripts/install-test-peers.sh';
const START_TIMEOUT_MS = 30_000;

/**
 * Alerting rules evaluated every second, each always true: a critical alert, a warning alert and
 * the always-firing heartbeat `Watchdog` (as kube-prometheus ships it).
 */
const RULES = `groups:
  - name: vigil-test
    interval: 1s
    rules:
      - alert: QueueBackedUp
        expr: vector(1) > 0
        labels: { severity: critical }
        annotations: { summary: The queue is backed up }
      - alert: DiskFilling
        expr: vector(1) > 0
        labels: { severity: warning }
      - alert: Watchdog
        expr: vector(1)
        labels: { severity: none }
        annotations:
          summary: 'Always firing: proves the alerting pipeline works'
`;

export interface AlertStack {
  prometheusUrl: string;
  alertmanagerUrl: string;
  /** Stops Alertmanager only (the webhooks stop; Prometheus keeps evaluating). */
  stopAlertmanager(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * A real Prometheus evaluating RULES and sending to a real Alertmanager, whose one route sends
 * every alert to `alertsUrl` and, through a child route, Watchdog also to `heartbeatUrl`
 * (group_wait/group_interval 1 s, repeat_interval 1 m, clustering off). Prometheus resends firing
 * alerts every second (default 1 m: alerts evaluated before it has found Alertmanager would wait a
 * minute). Resolves once both are ready; the first webhooks follow within seconds.
 */
export async function startAlertStack(opts: { alertsUrl: string; heartbeatUrl: string }): Promise<AlertStack> {
  for (const bin of ['prometheus', 'prometheus-alertmanager']) {
    if (spawnSync('sh', ['-c', `command -v ${bin}`]).status !== 0) throw new Error(INSTALL_HINT);
  }
  const dir = mkdtempSync(path.join(tmpdir(), 'vigil-alert-stack-'));
  const [amPort, promPort] = [await getFreePort(), await getFreePort()];
  writeFileSync(
    path.join(dir, 'alertmanager.yml'),
    `route:
  receiver: vigil
  group_by: ['...']
  group_wait: 1s
  group_interval: 1s
  repeat_interval: 1m
  routes:
    - matchers: ['alertname="Watchdog"']
      receiver: heartbeat
      continue: true
    - matchers: ['alertname=~".+"']
      receiver: vigil
receivers:
  - name: vigil
    webhook_configs:
      - url: '${opts.alertsUrl}'
  - name: heartbeat
    webhook_configs:
      - url: '${opts.heartbeatUrl}'
`,
  );
  writeFileSync(path.join(dir, 'rules.yml'), RULES);
  writeFileSync(
    path.join(dir, 'prometheus.yml'),
    `global:
  scrape_interval: 1s
  evaluation_interval: 1s
rule_files: ['${path.join(dir, 'rules.yml')}']
alerting:
  alertmanagers:
    - static_configs:
        - targets: ['127.0.0.1:${amPort}']
`,
  );
  const amLog = path.join(dir, 'alertmanager.log');
  const promLog = path.join(dir, 'prometheus.log');
  const am = spawn(
    'sh',
    [
      '-c',
      `exec prometheus-alertmanager --config.file=${path.join(dir, 'alertmanager.yml')} --storage.path=${path.join(dir, 'am-data')} --web.listen-address=127.0.0.1:${amPort} --cluster.listen-address= > ${amLog} 2>&1`,
    ],
    { stdio: 'ignore' },
  );
  const prom = spawn(
    'sh',
    [
      '-c',
      `exec prometheus --config.file=${path.join(dir, 'prometheus.yml')} --web.listen-address=127.0.0.1:${promPort} --storage.tsdb.path=${path.join(dir, 'data')} --rules.alert.resend-delay=1s > ${promLog} 2>&1`,
    ],
    { stdio: 'ignore' },
  );
  const alertmanagerUrl = `http://127.0.0.1:${amPort}`;
  const prometheusUrl = `http://127.0.0.1:${promPort}`;
  const stopAlertmanager = () => stopChild(am);
  const stop = async () => {
    await Promise.all([stopChild(am), stopChild(prom)]);
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await waitFor(
      'alertmanager',
      am,
      amLog,
      async () => (await fetch(`${alertmanagerUrl}/-/ready`)).ok,
      START_TIMEOUT_MS,
    );
    await waitFor(
      'prometheus',
      prom,
      promLog,
      async () => (await fetch(`${prometheusUrl}/-/ready`)).ok,
      START_TIMEOUT_MS,
    );
  } catch (err) {
    await stop();
    throw err;
  }
  return { prometheusUrl, alertmanagerUrl, stopAlertmanager, stop };
}
