import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { EntityManager } from '@mikro-orm/postgresql';
import { findApiKey } from '../db/repositories/auth-repository';
import { hashApiKey } from '../usecases/organizations/api-keys';
import { createOrganization } from '../usecases/organizations/organizations';
import { issueSignInLink } from '../usecases/console/sign-in';
import { ensureConsoleOwner } from '../usecases/console/users';

export interface DevOrganization {
  organization_id: string;
  api_key: string;
}

/**
 * The development organization `npm start` prints a key for. Its key is kept in
 * `<data dir>/dev-api-key.json` (mode 600) so restarts print the same working key; when the file
 * is missing or its key no longer works (database reset, key revoked), a new one is made.
 */
export async function ensureDevOrganization(
  em: EntityManager,
  dataDir: string,
  now = new Date(),
): Promise<DevOrganization> {
  const file = path.join(dataDir, 'dev-api-key.json');
  try {
    const saved = JSON.parse(await readFile(file, 'utf8')) as DevOrganization;
    const found = await findApiKey(em, hashApiKey(saved.api_key), now);
    if (found && !found.revoked && found.organizationId === saved.organization_id) return saved;
  } catch {
    // No usable saved key: make a new one below.
  }
  const { organization, key } = await createOrganization(em, { name: 'Vigil Dev', plan: 'enterprise' }, now);
  const dev = { organization_id: organization.id, api_key: key.plaintext };
  await mkdir(dataDir, { recursive: true });
  await writeFile(file, `${JSON.stringify(dev, null, 2)}\n`, { mode: 0o600 });
  await chmod(file, 0o600);
  return dev;
}

/** The development organization's console owner, and a fresh one-time sign-in link for the banner. */
export async function devConsoleSignIn(
  em: EntityManager,
  organizationId: string,
  consoleUrl: string,
  now = new Date(),
): Promise<{ email: string; url: string }> {
  const user = await ensureConsoleOwner(em, organizationId, DEV_CONSOLE_OWNER, now);
  const link = await issueSignInLink(em, user, consoleUrl, now, 24 * 3_600_000);
  return { email: user.email, url: link.url };
}

export const DEV_CONSOLE_OWNER = 'owner@vigil.localhost';
