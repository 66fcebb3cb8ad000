import type { AddressInfo } from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface SmtpSink {
  url: string;
  port: number;
  messages: ParsedMail[];
  /** resolves with the first message (already received or arriving later) matching pred, rejects after timeoutMs */
  waitFor(pred: (m: ParsedMail) => boolean, timeoutMs?: number): Promise<ParsedMail>;
  /** makes the server answer RCPT TO for these addresses with 550 */
  rejectRecipients: Set<string>;
  /** answers RCPT TO for an address with 451 (try again later) this many more times */
  deferRecipients: Map<string, number>;
  /** every AUTH the server was offered, in order, with what it answered */
  auths: SmtpAuthAttempt[];
  /** raw headers are available as m.headerLines */
  close(): Promise<void>;
}

export interface SmtpAuthAttempt {
  method: string;
  username: string | undefined;
  password: string | null | undefined;
  accepted: boolean;
}

export interface SmtpSinkOptions {
  /** Require AUTH with exactly these credentials before MAIL FROM: a wrong login gets 535, none gets 530. */
  requireAuth?: { user: string; pass: string };
}

/**
 * A real SMTP server on loopback (no TLS) that keeps every message it accepts, parsed. Without
 * `requireAuth` any or no AUTH is accepted; every AUTH offered is recorded either way.
 */
export async function startSmtpSink(opts: SmtpSinkOptions = {}): Promise<SmtpSink> {
  const messages: ParsedMail[] = [];
  const auths: SmtpAuthAttempt[] = [];
  const required = opts.requireAuth;
  const rejectRecipients = new Set<string>();
  const deferRecipients = new Map<string, number>();
  const waiters = new Set<(m: ParsedMail) => void>();

  const server = new SMTPServer({
    authOptional: !required,
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    disableReverseLookup: true,
    closeTimeout: 1000,
    logger: false,
    onAuth(auth, _session, callback) {
      const accepted = !required || (auth.username === required.user && auth.password === required.pass);
      auths.push({ method: auth.method, username: auth.username, password: auth.password, accepted });
      if (!accepted)
        return callback(Object.assign(new Error('5.7.8 Authentication credentials invalid'), { responseCode: 535 }));
      callback(null, { user: auth.username || 'test' });
    },
    onRcptTo(address, _session, callback) {
      const rcpt = address.address.toLowerCase();
      const deferrals = deferRecipients.get(rcpt) ?? 0;
      if (deferrals > 0) {
        deferRecipients.set(rcpt, deferrals - 1);
        return callback(Object.assign(new Error(`4.7.1 <${address.address}>: Try again later`), { responseCode: 451 }));
      }
      if (![...rejectRecipients].some((a) => a.toLowerCase() === rcpt)) return callback();
      callback(
        Object.assign(new Error(`5.1.1 <${address.address}>: Recipient address rejected`), { responseCode: 550 }),
      );
    },
    onData(stream, _session, callback) {
      simpleParser(stream).then(
        (mail) => {
          messages.push(mail);
          for (const notify of waiters) notify(mail);
          callback();
        },
        (err: Error) => callback(err),
      );
    },
  });
  // A client that hangs up mid-session is not a test failure.
  server.on('error', () => undefined);

  await new Promise<void>((resolve, reject) => {
    server.server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.server.address() as AddressInfo;

  return {
    url: `smtp://127.0.0.1:${port}`,
    port,
    messages,
    rejectRecipients,
    deferRecipients,
    auths,
    waitFor(pred, timeoutMs = 5000) {
      const found = messages.find(pred);
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const done = (m: ParsedMail): void => {
          if (!pred(m)) return;
          clearTimeout(timer);
          waiters.delete(done);
          resolve(m);
        };
        const timer = setTimeout(() => {
          waiters.delete(done);
          reject(new Error(`no matching message within ${timeoutMs} ms (${messages.length} received)`));
        }, timeoutMs);
        waiters.add(done);
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
