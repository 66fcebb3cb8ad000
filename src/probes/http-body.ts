import type { Readable } from 'node:stream';

/** Body match reads the first 4 KB; JSON extraction at most 10 MB (spec §8). */
export const BODY_MATCH_BYTES = 4096;
export const JSON_BODY_MAX_BYTES = 10 * 1024 * 1024;

/**
 * Reads `body` until it ends or more than `limit` bytes came, then stops reading (the caller closes
 * the dispatcher, which drops the rest). `over` says the body is longer than `limit`; `data` then
 * holds at least `limit` bytes. Nothing read leaves the probe: callers inspect it and drop it.
 */
export async function readUpTo(body: Readable, limit: number): Promise<{ data: Buffer; over: boolean }> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
    chunks.push(buf);
    size += buf.length;
    if (size > limit) {
      body.destroy();
      return { data: Buffer.concat(chunks, size), over: true };
    }
  }
  return { data: Buffer.concat(chunks, size), over: false };
}

/** True when the announced Content-Length already exceeds `limit`. */
export function announcedOver(contentLength: string | string[] | undefined, limit: number): boolean {
  const n = typeof contentLength === 'string' ? Number(contentLength) : NaN;
  return Number.isFinite(n) && n > limit;
}

/** Drops a body without reading it; the abort error undici raises for it has a listener, so it goes nowhere. */
export function discard(body: Readable): void {
  body.on('error', () => undefined);
  body.destroy();
}
