import { accessSync, constants } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';

const DEFAULT_PATH = '/usr/bin/chromium';
const INSTALL_HINT = 'run scripts/install-test-peers.sh chromium';

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

/**
 * Headless Chromium for status-page tests. `*.status.localhost` resolves to loopback so pages
 * can be fetched by subdomain. A missing browser fails the test, never skips it.
 */
export async function launchBrowser(): Promise<Browser> {
  const executablePath = chromiumPath();
  if (!executablePath) {
    throw new Error(
      `Chromium is missing at ${process.env.CHROMIUM_PATH || DEFAULT_PATH}: ${INSTALL_HINT} (or set CHROMIUM_PATH)`,
    );
  }
  return chromium.launch({
    executablePath,
    args: ['--no-sandbox', '--host-resolver-rules=MAP *.status.localhost 127.0.0.1'],
  });
}
