import { accessSync, constants } from 'node:fs';
import { type Browser, type BrowserServer, chromium } from 'playwright-core';

const DEFAULT_PATH = '/usr/bin/chromium';
const INSTALL_HINT = 'run scripts/install-test-peers.sh chromium';
/** `*.status.localhost` resolves to loopback so status pages can be fetched by subdomain. */
const LAUNCH_ARGS = ['--no-sandbox', '--host-resolver-rules=MAP *.status.localhost 127.0.0.1'];
/** Where globalSetup publishes the suite's shared Chromium to the test workers. */
const ENDPOINT_ENV = 'VIGIL_TEST_BROWSER_WS_ENDPOINT';
/** globalSetup and globalTeardown run in one process but may load this module twice; the handle lives here. */
const SERVER_KEY = Symbol.for('vigil.test.browser-server');
const CONNECT_TIMEOUT_MS = 30_000;

/** The Chromium executable: CHROMIUM_PATH when set, else Debian's /usr/bin/chromium; null when not executable. */
export function chromiumPath(): string | null {
  const candidate = process.env.CHROMIUM_PATH || DEFAULT_PATH;
  try {
    accessSync(candidate, constants.X_OK);
    return candidate;
  } catch {
    return null;
  }
}

function requireChromium(): string {
  const executablePath = chromiumPath();
  if (!executablePath) {
    throw new Error(
      `Chromium is missing at ${process.env.CHROMIUM_PATH || DEFAULT_PATH}: ${INSTALL_HINT} (or set CHROMIUM_PATH)`,
    );
  }
  return executablePath;
}

/**
 * Headless Chromium for status-page and console tests. A missing browser fails the test, never skips it.
 *
 * Under the suite's globalSetup every file connects to the one Chromium started there (starting one
 * per file cost seconds and hundreds of MB each, several at once on a 2-core machine). A connected
 * client sees only the contexts it made, and its `close()` closes those and disconnects, leaving the
 * shared browser to the other files. Run outside the global setup, a file launches its own.
 */
export async function launchBrowser(): Promise<Browser> {
  const executablePath = requireChromium();
  const endpoint = process.env[ENDPOINT_ENV];
  if (!endpoint) return chromium.launch({ executablePath, args: LAUNCH_ARGS });
  try {
    return await chromium.connect(endpoint, { timeout: CONNECT_TIMEOUT_MS });
  } catch (err) {
    throw new Error(
      `the suite's shared Chromium (started by test/support/global-setup.ts at ${endpoint}) did not answer: ${(err as Error).message}`,
    );
  }
}

/**
 * Starts the suite's shared Chromium and publishes its endpoint to the workers (which inherit the
 * environment). Without a usable Chromium nothing is published, so each browser test launches its
 * own and fails with the same message as before; the rest of the suite still runs.
 */
export async function startSharedBrowser(log: (line: string) => void): Promise<void> {
  const executablePath = chromiumPath();
  if (!executablePath) return;
  let server: BrowserServer;
  try {
    // Loopback only: whoever reaches the endpoint drives the browser.
    server = await chromium.launchServer({ executablePath, args: LAUNCH_ARGS, host: '127.0.0.1' });
  } catch (err) {
    log(`shared Chromium did not start, browser tests launch their own: ${(err as Error).message}`);
    return;
  }
  (globalThis as Record<symbol, unknown>)[SERVER_KEY] = server;
  server.on('close', () => {
    if ((globalThis as Record<symbol, unknown>)[SERVER_KEY] === server)
      log('shared Chromium exited before the suite ended; later browser tests fail to connect');
  });
  process.env[ENDPOINT_ENV] = server.wsEndpoint();
}

/** Closes the shared Chromium started by startSharedBrowser, if any. */
export async function stopSharedBrowser(): Promise<void> {
  const server = (globalThis as Record<symbol, unknown>)[SERVER_KEY] as BrowserServer | undefined;
  if (!server) return;
  delete (globalThis as Record<symbol, unknown>)[SERVER_KEY];
  delete process.env[ENDPOINT_ENV];
  await server.close();
}
