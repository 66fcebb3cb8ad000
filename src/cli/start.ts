import { ConfigError, loadConfig } from '../config';
import { mailOutboxDir } from '../composition/adapters';
import { TEMPORAL_CLI_VERSION } from '../launchers/temporal-dev-server';
import { runApi } from '../composition/api-process';
import { openDatabase } from '../composition/database';
import { devConsoleSignIn, ensureDevOrganization } from '../composition/dev-organization';
import { createLogger } from '../composition/logger';
import { chromiumNotice } from '../composition/pdf-renderer';
import { onShutdown } from '../composition/shutdown';
import { ensureTemporalServer } from '../composition/temporal-server';
import { runWorker } from '../composition/worker-process';
import { startProberChildren } from '../composition/prober-children';
import { DEFAULT_LOCATION_LABEL, parseLocationList } from '../domain/locations';

/** `npm start`: the whole stack in one command — PostgreSQL, Temporal, migrations, worker and API. */
async function main(): Promise<void> {
  const config = loadConfig();
  const log = createLogger(config.LOG_LEVEL, 'vigil');
  const say = (line: string) => process.stdout.write(`${line}\n`);
  const closers: Array<() => Promise<void>> = [];
  onShutdown(closers, say);

  const pdfNotice = chromiumNotice(config.CHROMIUM_PATH);
  if (pdfNotice) say(`Vigil: ${pdfNotice}`);
  say('Vigil: starting PostgreSQL…');
  const db = await openDatabase(config, log, { migrate: true });
  closers.push(() => db.close());
  say(`Vigil: starting Temporal (CLI v${TEMPORAL_CLI_VERSION}; the first run builds it with Go and can take minutes)…`);
  const temporal = await ensureTemporalServer(config, log);
  closers.push(() => temporal.stop());
  const worker = await runWorker(config, db.orm, db.resolved.url, temporal.address, log);
  closers.push(() => worker.shutdown());
  // VIGIL_LOCATIONS: one prober process per location (the worker's built-in location is off then).
  const locationIds = parseLocationList(config.VIGIL_LOCATIONS);
  const probers =
    locationIds.ok && locationIds.ids.length
      ? await startProberChildren({
          ids: locationIds.ids,
          temporalAddress: temporal.address,
          env: {
            ...process.env,
            TEMPORAL_NAMESPACE: config.TEMPORAL_NAMESPACE,
            TEMPORAL_TASK_QUEUE: config.TEMPORAL_TASK_QUEUE,
          },
          onExit: (id, code, signal) =>
            log.error(
              { location: id, code, signal },
              'a prober process exited; its location is offline until Vigil restarts',
            ),
        })
      : null;
  if (probers) closers.push(() => probers.stop());
  const api = await runApi(config, db.orm, db.resolved.url, temporal.address, log, worker, {
    temporalUiUrl: temporal.uiUrl,
  });
  closers.push(() => api.close());

  const port = new URL(config.publicBaseUrl).port;
  const lines = [
    '',
    'Vigil is running.',
    `  API base URL:       ${config.publicBaseUrl}/v1`,
    `  API reference:      ${config.publicBaseUrl}/v1/reference  (OpenAPI: ${config.publicBaseUrl}/v1/openapi.json)`,
    `  Temporal UI:        ${temporal.uiUrl ?? '(external Temporal at ' + temporal.address + ')'}`,
    `  Status pages:       http://<subdomain>.${config.STATUS_HOST}${port ? `:${port}` : ''}/`,
    `  Database:           ${db.resolved.source} PostgreSQL`,
    probers
      ? `  Probe locations:    ${probers.probers.map((p) => `${p.id} (pid ${p.child.pid}, from ${p.sourceAddress})`).join(', ')}`
      : worker.location
        ? `  Probe location:     ${worker.location.id} ("${config.VIGIL_LOCATION_LABEL ?? DEFAULT_LOCATION_LABEL}", inside the worker; VIGIL_LOCATIONS=eu-central,us-east runs probers)`
        : '  Probe locations:    none in this process (VIGIL_WORKER_LOCATION=false); run vigil-prober',
    `  Subscriber email:   ${config.SMTP_URL ? `SMTP ${new URL(config.SMTP_URL).host}` : `written to ${mailOutboxDir(config)} (SMTP_URL unset; confirmation links are logged)`}`,
  ];
  if (config.VIGIL_SEED_DEV) {
    const dev = await ensureDevOrganization(db.orm.em.fork(), config.dataDir);
    const signIn = await devConsoleSignIn(db.orm.em.fork(), dev.organization_id, `${config.publicBaseUrl}/console`);
    lines.push(
      `  Dev organization:   ${dev.organization_id} (enterprise)`,
      `  Dev API key:        ${dev.api_key}`,
      `  Console:            ${config.publicBaseUrl}/console`,
      `  Console sign in:    ${signIn.url}`,
      `                      (${signIn.email}, owner; the link works once, for 24 hours)`,
      '',
      `  Try: curl -H "Authorization: Bearer ${dev.api_key}" ${config.publicBaseUrl}/v1/services`,
    );
  }
  if (pdfNotice) lines.push('', `  Note: ${pdfNotice}`);
  lines.push('', 'Press Ctrl-C to stop.');
  say(lines.join('\n'));
}

main().catch((err) => {
  console.error(err instanceof ConfigError ? err.message : err);
  process.exit(1);
});
