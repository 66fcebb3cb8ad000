import { statfs } from 'node:fs/promises';
import { ProbeFailure } from './types';

/**
 * % used of the filesystem holding `mountpoint`, as df computes it: used / (used + available to
 * unprivileged users), 0..100. Any existing path names the filesystem it lies on. A path that
 * cannot be read, or a filesystem without blocks (proc, sysfs), is host_filesystem_unavailable.
 */
export async function filesystemUsedPercent(mountpoint: string): Promise<number> {
  let fs: Awaited<ReturnType<typeof statfs>>;
  try {
    fs = await statfs(mountpoint);
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    throw new ProbeFailure('host_filesystem_unavailable', {
      mountpoint,
      cause: typeof code === 'string' ? code : 'statfs_failed',
    });
  }
  const used = fs.blocks - fs.bfree;
  const size = used + fs.bavail;
  if (!(size > 0)) throw new ProbeFailure('host_filesystem_unavailable', { mountpoint, cause: 'no_blocks' });
  return Math.min(100, Math.max(0, Math.round((used / size) * 1000) / 10));
}
