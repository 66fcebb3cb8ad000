import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** Reads a 32-byte key given as 64 hex digits or base64 (standard or url-safe). */
export function parseMasterKey(text: string): Buffer {
  const t = text.trim();
  const key = /^[0-9a-f]{64}$/i.test(t) ? Buffer.from(t, 'hex') : Buffer.from(t, 'base64');
  if (key.length !== 32) throw new Error('VIGIL_MASTER_KEY must be 32 bytes: 64 hex digits or base64');
  return key;
}

/**
 * The key that encrypts secrets at rest. VIGIL_MASTER_KEY when set; otherwise, outside
 * production, a key kept in `<dataDir>/master.key` (created on first use, mode 600) so every
 * process of a local stack shares it. Production refuses to start without VIGIL_MASTER_KEY.
 */
export function resolveMasterKey(opts: { env?: string; nodeEnv: string; dataDir: string }): Buffer {
  if (opts.env) return parseMasterKey(opts.env);
  if (opts.nodeEnv === 'production') throw new Error('VIGIL_MASTER_KEY is required in production');
  const file = path.join(opts.dataDir, 'master.key');
  try {
    return parseMasterKey(readFileSync(file, 'utf8'));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  mkdirSync(opts.dataDir, { recursive: true });
  const key = randomBytes(32);
  try {
    writeFileSync(file, key.toString('hex') + '\n', { mode: 0o600, flag: 'wx' });
  } catch (err) {
    // Another process created it first: use theirs.
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return parseMasterKey(readFileSync(file, 'utf8'));
    throw err;
  }
  chmodSync(file, 0o600);
  return key;
}
