import { randomBytes } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { writeWorkflowBundle } from '../../src/composition/workflow-bundle';
import { startSharedBrowser } from './browser';
import { writeCompiledBuild } from './compiled-build';
import { loadConfig } from '../../src/config';
import { createOrm, migrate } from '../../src/db/orm';
import { resolveDatabase, withDatabase } from '../../src/launchers/postgres';
import { startTemporalDevServer } from '../../src/launchers/temporal-dev-server';
import { type SuiteInfra, setSuiteInfra } from './suite-infra';

/**
 * Starts what the whole suite shares: a fresh PostgreSQL database (migrated), a real Temporal
 * dev server (the pinned CLI, built with `go install` on first use) and one headless Chromium the
 * browser tests connect to. Test workers read the addresses from the environment; each test makes
 * its own organizations.
 */
export default async function globalSetup(): Promise<void> {
  // Temporal's own warnings go to its log file; only setup milestones reach the terminal.
  const log = (line: string) => {
    if (!/^time=|^\s*$/.test(line)) process.stderr.write(`[test-setup] ${line}\n`);
  };
  const config = loadConfig();
  const databaseName = `vigil_test_${Date.now()}_${process.pid}`;
  // TEST_DATABASE_URL names a server; the suite always makes (and drops) a database of its own there.
  const server = process.env.TEST_DATABASE_URL;
  const db = await resolveDatabase({
    databaseUrl: server ? withDatabase(server, databaseName) : undefined,
    databaseName,
    dataDir: config.dataDir,
    log,
  });
  const orm = await createOrm({ url: db.url });
  await migrate(orm);
  await orm.close();

  const temporal = process.env.TEMPORAL_ADDRESS
    ? null
    : await startTemporalDevServer({
        cacheDir: config.VIGIL_CACHE_DIR,
        // A file, not the in-memory default: the dev server's in-memory SQLite vanished mid-run
        // once (every table gone at once, "no such table: namespaces"), failing every later
        // Temporal test; a file outlives a dropped connection.
        dbFile: path.join(os.tmpdir(), `vigil-test-temporal-${process.pid}`, 'temporal.db'),
        logFile: path.join(os.tmpdir(), `vigil-test-temporal-${process.pid}.log`),
        log,
      });

  // Chromium starts while the bundle and the build are made; it never rejects (see startSharedBrowser).
  // Not earlier: its endpoint could take a port the dev server's launcher has picked but not yet bound.
  const browser = startSharedBrowser(log);

  // Workers of the suite (in test files and worker processes) load one bundle made here from the
  // sources, rather than each running webpack (seconds of CPU each, on a 2-core machine).
  const workflowBundle = path.join(os.tmpdir(), `vigil-test-workflows-${process.pid}.js`);
  await writeWorkflowBundle(workflowBundle, { quiet: true });
  // Child processes (bins, CLI runs, worker and API processes) run compiled sources, not tsx.
  const compiledBuild = await writeCompiledBuild(`${Date.now()}-${process.pid}`);

  process.env.VIGIL_MASTER_KEY ??= randomBytes(32).toString('hex');
  process.env.VIGIL_TEST_WORKFLOW_BUNDLE = workflowBundle;
  process.env.VIGIL_TEST_BUILD_DIR = compiledBuild;
  process.env.VIGIL_TEST_DATABASE_URL = db.url;
  process.env.VIGIL_TEST_TEMPORAL_ADDRESS = temporal?.address ?? process.env.TEMPORAL_ADDRESS;
  process.env.VIGIL_TEST_TEMPORAL_UI_URL = temporal?.uiUrl ?? '';
  await browser;
  const infra: SuiteInfra = { db, temporal, workflowBundle, compiledBuild };
  setSuiteInfra(infra);
  log(`database ${db.url} (${db.source}); temporal ${process.env.VIGIL_TEST_TEMPORAL_ADDRESS}`);
}
