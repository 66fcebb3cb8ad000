import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzip } from 'node:zlib';
import { promisify } from 'node:util';
import type { ProbeOutcome } from '../probes/types';
import { type OtlpQuery, otlpValue } from './otlp-aggregate';
import { decodeMetricsRequest } from './otlp-decode';
import { type OtlpStoreLimits, OtlpStore } from './otlp-store';

/**
 * The agent's OTLP/HTTP metrics receiver: POST /v1/metrics with the JSON encoding only, points
 * kept in memory (OtlpStore) and read back by `value()` for otlp metrics.
 *
 * Environment (the spec's <SERVICE> prefix is VIGIL here):
 * - VIGIL_OTLP_DISABLE=true (or 1): no port is opened and every otlp metric answers
 *   otlp_receiver_disabled.
 * - VIGIL_OTLP_HOST (default 127.0.0.1), VIGIL_OTLP_PORT (default 4318); options override both.
 *
 * Answers: 200 `{}` (or `{ partialSuccess: { rejectedDataPoints, errorMessage } }` when some
 * points could not be read); 415 for any body other than JSON (application/x-protobuf included);
 * 400 otlp_invalid_json for unparseable JSON; 400 otlp_malformed_payload without a resourceMetrics
 * array; 413 over `maxBodyBytes`; 404 other paths; 405 other methods. Error bodies are
 * google.rpc.Status-shaped JSON (`code`, `message`) plus the §7.3 `reason`. gzip bodies are accepted.
 */

export const OTLP_DISABLE_ENV = 'VIGIL_OTLP_DISABLE';
export const OTLP_HOST_ENV = 'VIGIL_OTLP_HOST';
export const OTLP_PORT_ENV = 'VIGIL_OTLP_PORT';
export const OTLP_DEFAULT_HOST = '127.0.0.1';
export const OTLP_DEFAULT_PORT = 4318;
export const OTLP_METRICS_PATH = '/v1/metrics';

export interface OtlpReceiverOptions {
  /** Read for VIGIL_OTLP_DISABLE, VIGIL_OTLP_HOST, VIGIL_OTLP_PORT. Default process.env. */
  env?: NodeJS.ProcessEnv;
  host?: string;
  /** 0 picks a free port (tests). */
  port?: number;
  /** Largest accepted body, after gunzip. Default 4 MiB. */
  maxBodyBytes?: number;
  limits?: Partial<OtlpStoreLimits>;
  /** Receiving clock, for retention and refusal times. Default Date.now. */
  clock?: () => number;
  log?: (level: 'info' | 'warn' | 'error', msg: string, extra?: Record<string, unknown>) => void;
}

export const isOtlpDisabled = (env: NodeJS.ProcessEnv): boolean =>
  ['true', '1'].includes((env[OTLP_DISABLE_ENV] ?? '').trim().toLowerCase());

const gunzipAsync = promisify(gunzip);
const GRPC_INVALID_ARGUMENT = 3;

class HttpFailure extends Error {
  constructor(
    readonly status: number,
    readonly reason: string | null,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

function readBody(req: http.IncomingMessage, max: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > max) {
        req.removeAllListeners('data');
        req.resume();
        reject(new HttpFailure(413, null, `body over ${max} bytes`));
      } else chunks.push(c);
    });
    req.once('end', () => resolve(Buffer.concat(chunks)));
    req.once('error', reject);
  });
}

export class OtlpReceiver {
  readonly disabled: boolean;
  readonly store: OtlpStore | null;
  private server: http.Server | null = null;
  private startError: string | null = null;
  private readonly host: string;
  private readonly port: number;
  private readonly maxBodyBytes: number;
  private readonly clock: () => number;

  constructor(private readonly opts: OtlpReceiverOptions = {}) {
    const env = opts.env ?? process.env;
    this.disabled = isOtlpDisabled(env);
    this.store = this.disabled ? null : new OtlpStore(opts.limits);
    this.host = opts.host ?? env[OTLP_HOST_ENV] ?? OTLP_DEFAULT_HOST;
    this.port = opts.port ?? (env[OTLP_PORT_ENV] ? Number(env[OTLP_PORT_ENV]) : OTLP_DEFAULT_PORT);
    this.maxBodyBytes = opts.maxBodyBytes ?? 4 * 1024 * 1024;
    this.clock = opts.clock ?? Date.now;
  }

  /** Listens (unless disabled: then `port` is null). A failure to listen rejects and makes `value()` answer push_source_init_failed. */
  async start(): Promise<{ port: number | null }> {
    if (this.disabled) {
      this.opts.log?.('info', `OTLP receiver disabled by ${OTLP_DISABLE_ENV}`);
      return { port: null };
    }
    if (!Number.isInteger(this.port) || this.port < 0 || this.port > 65_535) {
      this.startError = 'invalid_port';
      throw new Error(`${OTLP_PORT_ENV} must be a port number, got ${this.port}`);
    }
    const server = http.createServer((req, res) => void this.handle(req, res));
    try {
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(this.port, this.host, () => {
          server.off('error', reject);
          resolve();
        });
      });
    } catch (err) {
      this.startError = (err as { code?: string }).code ?? 'listen_failed';
      throw err;
    }
    this.server = server;
    this.startError = null;
    const { port } = server.address() as AddressInfo;
    this.opts.log?.('info', 'OTLP receiver listening', { host: this.host, port, path: OTLP_METRICS_PATH });
    return { port };
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (!server) return;
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  }

  /** The value of an otlp metric (see otlpValue) at `now`. */
  value(query: OtlpQuery, now: Date | number = this.clock()): ProbeOutcome {
    if (!this.disabled && this.startError !== null) {
      return {
        value: null,
        unit: null,
        value_description: null,
        reason: 'push_source_init_failed',
        metadata: { error: this.startError },
      };
    }
    return otlpValue(this.store, query, now);
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    try {
      const path = (req.url ?? '/').split('?')[0];
      if (path !== OTLP_METRICS_PATH) throw new HttpFailure(404, null, `only POST ${OTLP_METRICS_PATH} is served`);
      if (req.method !== 'POST')
        throw new HttpFailure(405, null, `use POST on ${OTLP_METRICS_PATH}`, { Allow: 'POST' });
      const type = (req.headers['content-type'] ?? 'application/json').split(';')[0]!.trim().toLowerCase();
      if (type !== 'application/json') {
        req.resume();
        this.refuse('otlp_invalid_json', `content type ${type} is not supported`);
        throw new HttpFailure(
          415,
          'otlp_invalid_json',
          'this receiver accepts OTLP/HTTP JSON only (Content-Type application/json); configure the exporter with protocol http/json',
        );
      }
      const encoding = (req.headers['content-encoding'] ?? 'identity').trim().toLowerCase();
      if (encoding !== 'identity' && encoding !== 'gzip')
        throw new HttpFailure(415, null, `content encoding ${encoding} is not supported (gzip or none)`);
      let raw = await readBody(req, this.maxBodyBytes);
      if (encoding === 'gzip') {
        raw = await gunzipAsync(raw, { maxOutputLength: this.maxBodyBytes }).catch((err: { code?: string }) => {
          throw err.code === 'ERR_BUFFER_TOO_LARGE'
            ? new HttpFailure(413, null, `body over ${this.maxBodyBytes} bytes`)
            : new HttpFailure(400, null, 'body is not valid gzip');
        });
      }
      let body: unknown;
      try {
        body = JSON.parse(raw.toString('utf8'));
      } catch (err) {
        this.refuse('otlp_invalid_json', `body is not valid JSON: ${(err as Error).message}`);
        throw new HttpFailure(400, 'otlp_invalid_json', 'body is not valid JSON');
      }
      const decoded = decodeMetricsRequest(body);
      if (!decoded.ok) {
        this.refuse(decoded.reason, decoded.message);
        throw new HttpFailure(400, decoded.reason, decoded.message);
      }
      this.store!.add(decoded.points, this.clock());
      const answer =
        decoded.rejected > 0
          ? { partialSuccess: { rejectedDataPoints: String(decoded.rejected), errorMessage: decoded.firstError ?? '' } }
          : {};
      this.send(res, 200, answer);
    } catch (err) {
      if (err instanceof HttpFailure) {
        this.send(
          res,
          err.status,
          { code: GRPC_INVALID_ARGUMENT, message: err.message, ...(err.reason ? { reason: err.reason } : {}) },
          err.headers,
        );
      } else {
        this.opts.log?.('error', 'OTLP receiver failed on a request', { error: String(err) });
        this.send(res, 500, { code: 13, message: 'internal error' });
      }
    }
  }

  private refuse(reason: 'otlp_invalid_json' | 'otlp_malformed_payload', message: string): void {
    this.store?.noteRejection({ reason, atMs: this.clock(), message });
    this.opts.log?.('warn', 'OTLP request refused', { reason, detail: message });
  }

  private send(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
    if (res.headersSent) return;
    res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  }
}
