import type { ConsoleRole } from '../../src/domain/console-roles';
import { createConsoleUser } from '../../src/usecases/console/users';
import type { ApiHarness } from './api-harness';
import type { SmtpSink } from './smtp-sink';

export interface PageResult {
  status: number;
  headers: Headers;
  text: string;
  setCookie: string | null;
}

/** A browser without JavaScript at the HTTP level: follows no redirect, keeps the session cookie. */
export class ConsoleClient {
  cookie = '';
  constructor(private readonly baseUrl: string) {}

  get(path: string): Promise<PageResult> {
    return this.send('GET', path);
  }

  /** Posts a form; `_csrf` is added from `csrf` when given. Repeated fields as arrays. */
  post(path: string, form: Record<string, string | string[]>, headers: Record<string, string> = {}): Promise<PageResult> {
    const body = new URLSearchParams();
    for (const [k, v] of Object.entries(form)) for (const one of Array.isArray(v) ? v : [v]) body.append(k, one);
    return this.send('POST', path, body.toString(), { 'content-type': 'application/x-www-form-urlencoded', ...headers });
  }

  /** GETs `page`, then posts `form` to `path` with the CSRF token that page carried. */
  async submit(page: string, path: string, form: Record<string, string | string[]>): Promise<PageResult> {
    const html = (await this.get(page)).text;
    return this.post(path, { ...form, _csrf: csrfOf(html) });
  }

  private async send(method: string, path: string, body?: string, headers: Record<string, string> = {}): Promise<PageResult> {
    const res = await fetch(`${this.baseUrl}${path}`, { method, body, redirect: 'manual', headers: { ...headers, ...(this.cookie ? { cookie: this.cookie } : {}) } });
    const set = res.headers.get('set-cookie');
    if (set) this.cookie = set.split(';')[0]!.endsWith('=') ? '' : set.split(';')[0]!;
    return { status: res.status, headers: res.headers, text: await res.text(), setCookie: set };
  }
}

export function csrfOf(html: string): string {
  const m = /name="_csrf" value="([^"]+)"/.exec(html);
  if (!m) throw new Error('no CSRF token on the page');
  return m[1]!;
}

/** The one-time sign-in path of the newest sign-in email to `email`. */
export async function signInPathFromMail(smtp: SmtpSink, email: string): Promise<string> {
  const mail = await smtp.waitFor((m) => JSON.stringify(m.to ?? '').includes(email.toLowerCase()) && /Vigil console/.test(m.subject ?? ''));
  return new URL(/(http\S+\/console\/sign-in\/[A-Za-z0-9_-]+)/.exec(mail.text!)![1]!).pathname;
}

/** Creates a console user of `organizationId` and signs them in through the emailed link. */
export async function signedInClient(api: ApiHarness, smtp: SmtpSink, organizationId: string, email: string, role: ConsoleRole): Promise<ConsoleClient> {
  await createConsoleUser(api.orm.em.fork(), { organizationId, email, role }, new Date());
  const client = new ConsoleClient(api.baseUrl);
  const asked = await client.post('/console/sign-in', { email });
  if (asked.status !== 200) throw new Error(`sign-in request answered ${asked.status}`);
  const path = await signInPathFromMail(smtp, email);
  const used = await client.post(path, {});
  if (used.status !== 303) throw new Error(`sign-in link answered ${used.status}`);
  return client;
}
