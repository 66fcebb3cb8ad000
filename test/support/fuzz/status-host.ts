/**
 * Hostile requests to the public status host, per route: hosts of other, deleted and malformed
 * pages, garbage viewer tokens, cookies and credentials, odd conditional and encoding headers,
 * hostile queries and URLs, oversized headers, hostile forms and bodies of every content type;
 * and subscriber links (confirm, unsubscribe) that must not work: another organization's, the
 * other purpose's, expired, badly signed or naming no subscriber.
 */
import { signLinkToken } from '../../../src/crypto/signed-links';
import { testLinkKey } from '../env';
import { BAD_UTF8_MARK, encode, toBuffer } from './encoding';
import type { Holdings } from './holdings';
import { BODY_LIMIT, DEEP, FOREIGN_UUID, GARBAGE_CURSORS, MALFORMED_IDS } from './hostile-values';
import { seeded } from './random';

/** A request to the status host; `host` is the subdomain (the owner's page when absent). */
export interface HostCase {
  label: string;
  method?: string;
  path: string;
  host?: string;
  body?: Buffer;
  type?: string;
  headers?: Record<string, string>;
  /** Feeds and summary.json are for programs: their errors are problems, never HTML. */
  program?: boolean;
  raw?: boolean;
}

/** The bounded, deterministic set of status-host cases of a run (each route's draws seeded by the route). */
export function statusHostCases(owner: Holdings, stranger: Holdings): HostCase[] {
  const page = owner.live.subdomain;
  const linkKey = testLinkKey();
  const token = (
    purpose: 'confirm' | 'unsubscribe',
    subscriberId: string,
    expiresAtMs: number | null = Date.now() + 3_600_000,
  ) => signLinkToken(linkKey, { purpose, subscriberId, expiresAtMs });
  const hosts = [
    page,
    owner.deleted.subdomain!,
    'no-such-page',
    stranger.live.subdomain,
    'a'.repeat(70),
    'xn--',
    '-bad-',
    'a.b',
    '',
    '..',
  ];
  const form = (fields: Record<string, string>) => Buffer.from(new URLSearchParams(fields).toString());
  const FORM = 'application/x-www-form-urlencoded';
  const cases: HostCase[] = [];
  const routes: { path: string; program?: boolean; method?: string }[] = [
    { path: '/' },
    { path: '/summary.json', program: true },
    { path: '/history' },
    { path: `/incidents/${owner.live.incident}` },
    { path: `/maintenances/${owner.live.maintenance}` },
    { path: '/feed.atom', program: true },
    { path: '/feed.rss', program: true },
    { path: '/confirm' },
    { path: '/unsubscribe' },
    { path: '/favicon.ico' },
    { path: '/no/such/path' },
    { path: '/subscribe', method: 'POST' },
    { path: '/confirm', method: 'POST' },
    { path: '/unsubscribe', method: 'POST' },
  ];
  for (const r of routes) {
    const rng = seeded(`status ${r.method ?? 'GET'} ${r.path.replace(/[0-9a-f-]{36}/, ':id')}`);
    const at = (label: string, extra: Partial<HostCase>) =>
      cases.push({ label, method: r.method, path: r.path, program: r.program, ...extra });
    for (const host of rng.shuffle(hosts).slice(0, 4)) at(`host ${host || '(empty)'}`, { host });
    at('viewer_token garbage', {
      path: `${r.path}?viewer_token=${encodeURIComponent(rng.pick(['x', 'a.b.c', 'eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.', 'A'.repeat(5000)]))}`,
    });
    at('cookie garbage', {
      headers: {
        cookie: rng.pick([
          'vigil_viewer=%E0%A4%A',
          `vigil_viewer=${'a'.repeat(3000)}`,
          'vigil_viewer',
          '=;;=;vigil_viewer=%00',
        ]),
      },
    });
    at('bearer garbage', {
      headers: {
        authorization: rng.pick(['Bearer x.y.z', 'Bearer', `Bearer ${owner.org.key}`, `Bearer ${'A'.repeat(4000)}`]),
      },
    });
    at('odd conditional and encoding headers', {
      headers: {
        'if-none-match': rng.pick(['*', '"', 'W/"x", "y', '"'.repeat(500)]),
        'accept-encoding': rng.pick(['gzip;q=abc, *;q=', 'br;q=1.0, gzip;q=0', 'x'.repeat(2000)]),
      },
    });
    for (const q of rng
      .shuffle([
        'limit=-1',
        'limit=0',
        'limit=1e9',
        'limit=abc',
        'limit=1&limit=2',
        'cursor=garbage',
        `cursor=${GARBAGE_CURSORS[5]}`,
        `cursor=${GARBAGE_CURSORS[7]}`,
        'token=%00',
        'token=%ED%A0%80',
        `token=${'a'.repeat(5000)}`,
      ])
      .slice(0, 4))
      at(`query ${q.slice(0, 24)}`, { path: `${r.path}?${q}` });
    at('bad URL', { path: `${r.path}%ED%A0%80` });
    at('a 20 kB header', { raw: true, headers: { 'x-fuzz': 'h'.repeat(20_000) } });
    if (r.method === 'POST' || rng.next() < 0.3) {
      const method = r.method ?? 'POST';
      for (const [label, body, type] of [
        [
          'form, hostile email',
          form({
            email: rng.pick([
              'a@b',
              '\u0000@example.com',
              `${'x'.repeat(1000)}@example.com`,
              'ü@exämple.com',
              `a${BAD_UTF8_MARK}@example.com`,
            ]),
          }),
          FORM,
        ],
        ['form, 1 MB email', form({ email: `${'x'.repeat(1_000_000)}@example.com` }), FORM],
        ['form over the size limit', form({ email: 'x'.repeat(BODY_LIMIT + 10) }), FORM],
        ['form with invalid UTF-8', toBuffer(`email=a${BAD_UTF8_MARK}%ff%fe@example.com&token=${BAD_UTF8_MARK}`), FORM],
        [
          'form, repeated fields',
          Buffer.from('email=a@example.com&email=b@example.com&token=x&token=y&__proto__=1'),
          FORM,
        ],
        ['JSON body', Buffer.from(JSON.stringify({ email: 'json@example.com', token: 'x' })), 'application/json'],
        ['invalid JSON', Buffer.from('{"email":'), 'application/json'],
        ['deep JSON', toBuffer(encode({ email: DEEP })), 'application/json'],
        ['text body', Buffer.from('email=a@example.com'), 'text/plain'],
        [
          'multipart body',
          Buffer.from('--fz\r\nContent-Disposition: form-data; name="email"\r\n\r\nm@example.com\r\n--fz--\r\n'),
          'multipart/form-data; boundary=fz',
        ],
        ['XML body', Buffer.from('<email>x@example.com</email>'), 'application/xml'],
        ['no content type', Buffer.from('email=a@example.com'), undefined],
      ] as [string, Buffer, string | undefined][]) {
        at(label, { method, body, type });
      }
    }
  }
  for (const purpose of ['confirm', 'unsubscribe'] as const) {
    for (const method of ['GET', 'POST']) {
      const path = `/${purpose}`;
      const withToken = (label: string, t: string) =>
        cases.push({ label, method, path: `${path}?token=${encodeURIComponent(t)}` });
      withToken('token of a subscriber of another organization', token(purpose, stranger.pendingSubscriber));
      withToken(
        'token of the other purpose',
        token(purpose === 'confirm' ? 'unsubscribe' : 'confirm', owner.pendingSubscriber),
      );
      withToken('expired token', token(purpose, owner.pendingSubscriber, Date.now() - 1000));
      withToken('signed token naming no uuid', token(purpose, 'not-a-uuid'));
      withToken('signed token naming an unknown subscriber', token(purpose, FOREIGN_UUID));
      withToken('signed token with a NUL subscriber', token(purpose, 'a\u0000b'));
      withToken(
        'token with a bad signature',
        `${token(purpose, owner.pendingSubscriber).split('.')[0]}.${'A'.repeat(43)}`,
      );
      withToken('token of non-canonical base64', `${token(purpose, owner.pendingSubscriber)}=`);
      cases.push({
        label: 'token in a form, another organization',
        method,
        path,
        body: form({ token: token(purpose, stranger.pendingSubscriber) }),
        type: FORM,
      });
    }
  }
  for (const kind of ['incidents', 'maintenances']) {
    for (const id of [
      ...MALFORMED_IDS.slice(0, 8),
      stranger.live.incident,
      stranger.live.maintenance,
      owner.deleted.incident!,
      owner.deleted.maintenance!,
    ])
      cases.push({ label: `${kind} id ${id.slice(0, 16)}`, path: `/${kind}/${id}` });
  }
  return cases;
}
