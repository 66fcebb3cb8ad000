import pino, { type Logger } from 'pino';
import { redactUrl } from '../domain/url-redaction';

interface LoggedRequest {
  method?: string;
  url?: string;
  host?: string;
  ip?: string;
  socket?: { remotePort?: number };
  headers?: Record<string, unknown>;
}

/**
 * Fastify's request fields with the URL's secret parts redacted (src/domain/url-redaction.ts).
 * `url` and `originalUrl` are also what Fastify logs when it rewrites a status page's URL.
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
};

export function createLogger(level: string, name: string, destination?: pino.DestinationStream): Logger {
  const options = { level, name, redact: ['req.headers.authorization', 'headers.authorization'], serializers: logSerializers };
  return destination ? pino(options, destination) : pino(options);
}
