import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createTransport, type SendMailOptions } from 'nodemailer';
import addressparser from 'nodemailer/lib/addressparser';
import { isPermanentMailError } from '../domain/mail-errors';
import type { MailMessage, Mailer } from '../usecases/shared/ports';

export type { MailMessage, Mailer };
export { isPermanentMailError };

/**
 * SMTP (pooled) when `smtpUrl` is set, otherwise a development outbox: each message becomes an
 * RFC 822 `.eml` file in `outboxDir`. A rejected send throws; see `isPermanentMailError`.
 */
export function createMailer(opts: {
  smtpUrl?: string | null;
  from: string;
  outboxDir: string;
  log?: (line: string) => void;
}): Mailer {
  const domain = fromDomain(opts.from);
  const compose = (msg: MailMessage): SendMailOptions => ({
    from: opts.from,
    to: msg.to,
    subject: msg.subject,
    text: msg.text,
    html: msg.html,
    messageId: `<${msg.messageId ? msg.messageId.replace(/[^A-Za-z0-9._+-]/g, '_') : randomUUID()}@${domain}>`,
    ...(msg.attachments?.length
      ? {
          attachments: msg.attachments.map((a) => ({
            filename: a.filename,
            content: a.content,
            contentType: a.contentType,
          })),
        }
      : {}),
    headers: {
      ...msg.headers,
      ...(msg.listUnsubscribe ? { 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' } : {}),
    },
    // The nested array keeps both URIs in one List-Unsubscribe header.
    ...(msg.listUnsubscribe
      ? {
          list: {
            unsubscribe: [
              [msg.listUnsubscribe.url, ...(msg.listUnsubscribe.mailto ? [msg.listUnsubscribe.mailto] : [])],
            ],
          },
        }
      : {}),
  });
  return opts.smtpUrl ? smtpMailer(opts.smtpUrl, compose) : folderMailer(opts.outboxDir, compose, opts.log);
}

function smtpMailer(smtpUrl: string, compose: (msg: MailMessage) => SendMailOptions): Mailer {
  const url = new URL(smtpUrl);
  if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:')
    throw new Error(`mail URL must be smtp:// or smtps://, got ${url.protocol}`);
  const transport = createTransport({
    pool: true,
    host: url.hostname.replace(/^\[(.*)\]$/, '$1'),
    port: url.port ? Number(url.port) : url.protocol === 'smtps:' ? 465 : 587,
    secure: url.protocol === 'smtps:',
    auth: url.username ? { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) } : undefined,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 60_000,
  });
  return {
    kind: 'smtp',
    async send(msg) {
      const options = compose(msg);
      await transport.sendMail(options);
      return { messageId: options.messageId as string };
    },
    async close() {
      transport.close();
    },
  };
}

function folderMailer(
  outboxDir: string,
  compose: (msg: MailMessage) => SendMailOptions,
  log?: (line: string) => void,
): Mailer {
  const transport = createTransport({ streamTransport: true, buffer: true, newline: 'windows' });
  return {
    kind: 'folder',
    async send(msg) {
      const options = compose(msg);
      const messageId = options.messageId as string;
      const info = await transport.sendMail(options);
      if (!Buffer.isBuffer(info.message)) throw new Error('stream transport did not return a buffer');
      await mkdir(outboxDir, { recursive: true });
      const stamp = new Date().toISOString().replace(/[:.]/g, '-');
      const file = path.join(
        outboxDir,
        `${stamp}-${messageId.replace(/^<|>$/g, '').replace(/[^A-Za-z0-9._@-]/g, '_')}.eml`,
      );
      await writeFile(file, info.message);
      log?.(`mail to ${msg.to} written to ${file} (no SMTP server configured)`);
      return { messageId };
    },
    async close() {
      transport.close();
    },
  };
}

function fromDomain(from: string): string {
  const [first] = addressparser(from, { flatten: true });
  const domain = first?.address.split('@').pop();
  return domain && first?.address.includes('@') ? domain.toLowerCase() : 'vigil';
}
