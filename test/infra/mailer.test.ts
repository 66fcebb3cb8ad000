import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { type ParsedMail, simpleParser } from 'mailparser';
import { getFreePort } from '../../src/launchers/free-port';
import { type MailMessage, createMailer, isPermanentMailError } from '../../src/infra/mailer';
import { emailDeps, mailOutboxDir } from '../../src/composition/adapters';
import { ConfigError, loadConfig } from '../../src/config';
import { type SmtpSink, startSmtpSink } from '../support/smtp-sink';

const FROM = 'Acme Status <status@acme.test>';
// As long as a real signed link, so the header gets folded on the wire.
const UNSUBSCRIBE_URL = `https://status.acme.test/subscriptions/unsubscribe?token=${'a'.repeat(120)}.${'b'.repeat(43)}`;

function message(to: string, over: Partial<MailMessage> = {}): MailMessage {
  return {
    to,
    subject: '[Acme Status] Investigating: Database latency',
    text: 'We are looking into it.',
    html: '<p>We are looking into it.</p>',
    listUnsubscribe: { url: UNSUBSCRIBE_URL, mailto: 'unsubscribe@acme.test' },
    ...over,
  };
}

/** The raw header line for `key`, unfolded (CRLF before whitespace removed, RFC 5322 §2.2.3). */
function rawHeader(m: ParsedMail, key: string): string[] {
  return m.headerLines.filter((h) => h.key === key).map((h) => h.line.replace(/\r?\n(?=[ \t])/g, ''));
}

async function sendError(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (err) {
    return err;
  }
  throw new Error('expected the send to fail');
}

describe('mailer over SMTP', () => {
  let sink: SmtpSink;
  beforeAll(async () => {
    sink = await startSmtpSink();
  });
  afterAll(async () => {
    await sink.close();
  });

  it('delivers a multipart message with our Message-ID and the one-click unsubscribe headers', async () => {
    const mailer = createMailer({ smtpUrl: sink.url, from: FROM, outboxDir: '/nonexistent' });
    try {
      expect(mailer.kind).toBe('smtp');
      const { messageId } = await mailer.send(
        message('alice@example.test', { headers: { 'X-Vigil-Subscriber': 'sub_1' } }),
      );
      expect(messageId).toMatch(/^<[0-9a-f-]{36}@acme\.test>$/);

      const m = await sink.waitFor((x) => x.messageId === messageId);
      expect(m.from?.value).toEqual([{ name: 'Acme Status', address: 'status@acme.test' }]);
      expect(m.to).toMatchObject({ value: [{ address: 'alice@example.test' }] });
      expect(m.subject).toBe('[Acme Status] Investigating: Database latency');
      expect(m.text?.trim()).toBe('We are looking into it.');
      expect(m.html).toBe('<p>We are looking into it.</p>');
      expect(rawHeader(m, 'list-unsubscribe')).toEqual([
        `List-Unsubscribe: <${UNSUBSCRIBE_URL}>, <mailto:unsubscribe@acme.test>`,
      ]);
      expect(rawHeader(m, 'list-unsubscribe-post')).toEqual(['List-Unsubscribe-Post: List-Unsubscribe=One-Click']);
      expect(rawHeader(m, 'x-vigil-subscriber')).toEqual(['X-Vigil-Subscriber: sub_1']);
    } finally {
      await mailer.close();
    }
  });

  it('sends only the https unsubscribe URI when no mailto is given, and no List-* headers without listUnsubscribe', async () => {
    const mailer = createMailer({ smtpUrl: sink.url, from: FROM, outboxDir: '/nonexistent' });
    try {
      const withUrl = await mailer.send(
        message('bob@example.test', { listUnsubscribe: { url: 'https://status.acme.test/u?t=1' } }),
      );
      const without = await mailer.send(message('carol@example.test', { listUnsubscribe: undefined }));
      const a = await sink.waitFor((x) => x.messageId === withUrl.messageId);
      const b = await sink.waitFor((x) => x.messageId === without.messageId);
      expect(rawHeader(a, 'list-unsubscribe')).toEqual(['List-Unsubscribe: <https://status.acme.test/u?t=1>']);
      expect(rawHeader(a, 'list-unsubscribe-post')).toEqual(['List-Unsubscribe-Post: List-Unsubscribe=One-Click']);
      expect(b.headerLines.filter((h) => h.key.startsWith('list-'))).toEqual([]);
    } finally {
      await mailer.close();
    }
  });

  it('logs in when the URL carries credentials', async () => {
    // A server of its own that refuses mail without a login and refuses any login but this one.
    const guarded = await startSmtpSink({ requireAuth: { user: 'vigil', pass: 's@cret' } });
    try {
      const mailer = createMailer({
        smtpUrl: `smtp://vigil:s%40cret@127.0.0.1:${guarded.port}`,
        from: FROM,
        outboxDir: '/nonexistent',
      });
      try {
        const { messageId } = await mailer.send(message('dave@example.test'));
        await guarded.waitFor((x) => x.messageId === messageId);
      } finally {
        await mailer.close();
      }
      // The password is percent-decoded from the URL before it is sent.
      expect(guarded.auths.map((a) => [a.username, a.password, a.accepted])).toEqual([['vigil', 's@cret', true]]);

      // The same server refuses a wrong password and a missing login, so the send above proves the login.
      const wrong = createMailer({
        smtpUrl: `smtp://vigil:nope@127.0.0.1:${guarded.port}`,
        from: FROM,
        outboxDir: '/nonexistent',
      });
      try {
        expect(await sendError(wrong.send(message('dave@example.test')))).toMatchObject({
          code: 'EAUTH',
          responseCode: 535,
        });
      } finally {
        await wrong.close();
      }
      const anonymous = createMailer({ smtpUrl: guarded.url, from: FROM, outboxDir: '/nonexistent' });
      try {
        expect(await sendError(anonymous.send(message('dave@example.test')))).toMatchObject({ responseCode: 530 });
      } finally {
        await anonymous.close();
      }
      expect(guarded.messages).toHaveLength(1);
    } finally {
      await guarded.close();
    }
  });

  it('throws a permanent error when the server rejects the recipient with 550', async () => {
    sink.rejectRecipients.add('gone@example.test');
    const mailer = createMailer({ smtpUrl: sink.url, from: FROM, outboxDir: '/nonexistent' });
    try {
      const err = await sendError(mailer.send(message('Gone@example.test')));
      expect(err).toMatchObject({ code: 'EENVELOPE', responseCode: 550 });
      expect(isPermanentMailError(err)).toBe(true);
      // The pooled connection survives a rejected recipient.
      const { messageId } = await mailer.send(message('erin@example.test'));
      await sink.waitFor((x) => x.messageId === messageId);
    } finally {
      await mailer.close();
    }
  });

  it('throws a non-permanent error when nothing listens on the port', async () => {
    const port = await getFreePort();
    const mailer = createMailer({ smtpUrl: `smtp://127.0.0.1:${port}`, from: FROM, outboxDir: '/nonexistent' });
    try {
      const err = await sendError(mailer.send(message('frank@example.test')));
      expect(err).toMatchObject({ code: 'ESOCKET', originalCode: 'ECONNREFUSED' });
      expect((err as { responseCode?: number }).responseCode).toBeUndefined();
      expect(isPermanentMailError(err)).toBe(false);
    } finally {
      await mailer.close();
    }
  });
});

describe('isPermanentMailError', () => {
  it('is true only for 5xx replies', () => {
    expect(isPermanentMailError(Object.assign(new Error('x'), { responseCode: 550 }))).toBe(true);
    expect(isPermanentMailError(Object.assign(new Error('x'), { responseCode: 451 }))).toBe(false);
    expect(isPermanentMailError(Object.assign(new Error('x'), { code: 'ECONNECTION' }))).toBe(false);
    expect(isPermanentMailError(Object.assign(new Error('x'), { responseCode: 550, permanent: true }))).toBe(true);
    expect(isPermanentMailError(Object.assign(new Error('x'), { responseCode: 503, permanent: false }))).toBe(false);
    expect(isPermanentMailError(null)).toBe(false);
    expect(isPermanentMailError('550')).toBe(false);
  });
});

describe('mailer without SMTP', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'vigil-outbox-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('writes each message as a parseable .eml file into the outbox and logs the file', async () => {
    const outboxDir = path.join(dir, 'outbox');
    const lines: string[] = [];
    const mailer = createMailer({ smtpUrl: null, from: FROM, outboxDir, log: (l) => lines.push(l) });
    expect(mailer.kind).toBe('folder');
    const { messageId } = await mailer.send(message('grace@example.test'));
    await mailer.close();

    const files = await readdir(outboxDir);
    expect(files).toHaveLength(1);
    const file = files[0]!;
    expect(file).toMatch(/^\d{4}-\d{2}-\d{2}T[\d-]+Z-[0-9a-f-]{36}@acme\.test\.eml$/);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(path.join(outboxDir, file));

    const m = await simpleParser(await readFile(path.join(outboxDir, file)));
    expect(m.messageId).toBe(messageId);
    expect(m.from?.value).toEqual([{ name: 'Acme Status', address: 'status@acme.test' }]);
    expect(m.to).toMatchObject({ value: [{ address: 'grace@example.test' }] });
    expect(m.subject).toBe('[Acme Status] Investigating: Database latency');
    expect(m.text?.trim()).toBe('We are looking into it.');
    expect(m.html).toBe('<p>We are looking into it.</p>');
    expect(rawHeader(m, 'list-unsubscribe-post')).toEqual(['List-Unsubscribe-Post: List-Unsubscribe=One-Click']);
  });
});

describe('emailDeps (where the worker sends subscriber email)', () => {
  const base = {
    NODE_ENV: 'production',
    VIGIL_MASTER_KEY: 'ab'.repeat(32),
    DATABASE_URL: 'postgres://x@127.0.0.1:5432/x',
    PUBLIC_BASE_URL: 'https://vigil.example.com',
  };

  it('refuses production with neither SMTP_URL nor MAIL_OUTBOX_DIR, so mail is never marked sent into a folder by accident', () => {
    expect(() => emailDeps(loadConfig(base))).toThrow(/SMTP_URL is required in production/);
    // A configuration error: `vigil start` prints it without a stack trace.
    expect(() => emailDeps(loadConfig(base))).toThrow(ConfigError);
  });

  it('writes to the folder in production only when MAIL_OUTBOX_DIR asks for it, and sends through SMTP_URL when set', async () => {
    const folder = emailDeps(loadConfig({ ...base, MAIL_OUTBOX_DIR: '/tmp/vigil-test-outbox' }));
    expect(folder.mailer.kind).toBe('folder');
    await folder.mailer.close();
    const smtp = emailDeps(loadConfig({ ...base, SMTP_URL: 'smtp://127.0.0.1:2525' }));
    expect(smtp.mailer.kind).toBe('smtp');
    await smtp.mailer.close();
  });

  it('falls back to the data dir folder outside production', async () => {
    const config = loadConfig({ ...base, NODE_ENV: 'development' });
    const deps = emailDeps(config);
    expect(deps.mailer.kind).toBe('folder');
    expect(mailOutboxDir(config)).toBe(path.join(config.dataDir, 'mail-outbox'));
    await deps.mailer.close();
  });
});
