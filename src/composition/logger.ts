import pino, { type Logger } from 'pino';

export function createLogger(level: string, name: string): Logger {
  return pino({ level, name, redact: ['req.headers.authorization', 'headers.authorization'] });
}
