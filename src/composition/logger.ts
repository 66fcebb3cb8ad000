import pino, { type Logger } from 'pino';
import { redactText, redactUrl } from '../domain/url-redaction';

interface LoggedRequest {
  method?: string;
  url?: string;
  host?: string;
  ip?: string;
  socket?: { remotePort?: number };
  headers?: Record<string, unknown>;
}

/** Every string of a serialised error (message, stack, a URL a library put on it, its causes) with URLs redacted. */
function redactStrings(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return redactText(value);
  if (depth > 4 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => redactStrings(v, depth + 1));
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redactStrings(v, depth + 1)]));
}

/**
 * Fastify's request fields with the URL's secret parts redacted (src/domain/url-redaction.ts).
 * `url` and `originalUrl` are also what Fastify logs when it rewrites a status page's URL; an
 * error's message and stack may quote a URL too (Fastify's own do, e.g. a URL it cannot decode).
 */
export const logSerializers = {
  req: (req: LoggedRequest) => ({
    method: req.method,
    url: typeof req.url === 'string' ? redactUrl(req.url) : req.url,
    host: req.host,
    remoteAddress: req.ip,
    remotePort: req.socket?.remotePort,
  }),
  url: (url: unknown) => (typeof url === 'string' ? redactUrl(url) : url),
  originalUrl: (url: unknown) => (typeof url === 'string' ? redactUrl(url) : url),
  err: (err: Error) => redactStrings(pino.stdSerializers.err(err)),
};

/** Log messages are free text that may quote a URL (`Route GET:/v1/… not found`): redacted like the fields. */
const hooks: pino.LoggerOptions['hooks'] = {
  logMethod(args, method) {
    method.apply(this, args.map((a) => (typeof a === 'string' ? redactText(a) : a)) as Parameters<typeof method>);
  },
};

export function createLogger(level: string, name: string, destination?: pino.DestinationStream): Logger {
  const options = {
    level,
    name,
    redact: ['req.headers.authorization', 'headers.authorization'],
    serializers: logSerializers,
    hooks,
  };
  return destination ? pino(options, destination) : pino(options);
}
