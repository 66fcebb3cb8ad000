import type { Page } from 'playwright-core';
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
  /** Every cookie the console set (the session's and a pending notice's), by name. */
  private readonly jar = new Map<string, string>();
  constructor(private readonly baseUrl: string) {}

  /** The session cookie as `name=value` ('' when none). */
  get cookie(): string {
    const v = this.jar.get('vigil_console');
    return v === undefined ? '' : `vigil_console=${v}`;
  }

  set cookie(c: string) {
    this.jar.delete('vigil_console');
    const eq = c.indexOf('=');
    if (eq > 0) this.jar.set(c.slice(0, eq), c.slice(eq + 1));
  }

  get(path: string): Promise<PageResult> {
    return this.send('GET', path);
  }

  /** Posts a form; `_csrf` is added from `csrf` when given. Repeated fields as arrays. */
  post(
    path: string,
    form: Record<string, string | string[]>,
    headers: Record<string, string> = {},
  ): Promise<PageResult> {
    const body = new URLSearchParams();
    for (const [k, v] of Object.entries(form)) for (const one of Array.isArray(v) ? v : [v]) body.append(k, one);
    return this.send('POST', path, body.toString(), {
      'content-type': 'application/x-www-form-urlencoded',
      ...headers,
    });
  }

  /** GETs `page`, then posts `form` to `path` with the CSRF token that page carried. */
  async submit(page: string, path: string, form: Record<string, string | string[]>): Promise<PageResult> {
    const html = (await this.get(page)).text;
    return this.post(path, { ...form, _csrf: csrfOf(html) });
  }

  private async send(
    method: string,
    path: string,
    body?: string,
    headers: Record<string, string> = {},
  ): Promise<PageResult> {
    const jar = [...this.jar].map(([k, v]) => `${k}=${v}`).join('; ');
    const res = await fetch(`${this.baseUrl}${path}`, {
      method,
      body,
      redirect: 'manual',
      headers: { ...headers, ...(jar ? { cookie: jar } : {}) },
    });
    const set = res.headers.get('set-cookie');
    for (const one of res.headers.getSetCookie()) {
      const pair = one.split(';')[0]!;
      const eq = pair.indexOf('=');
      if (eq <= 0) continue;
      if (eq === pair.length - 1 || /max-age=0\b/i.test(one)) this.jar.delete(pair.slice(0, eq));
      else this.jar.set(pair.slice(0, eq), pair.slice(eq + 1));
    }
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
  const mail = await smtp.waitFor(
    (m) => JSON.stringify(m.to ?? '').includes(email.toLowerCase()) && /Vigil console/.test(m.subject ?? ''),
  );
  return new URL(/(http\S+\/console\/sign-in\/[A-Za-z0-9_-]+)/.exec(mail.text!)![1]!).pathname;
}

/** Creates a console user of `organizationId` and signs them in through the emailed link. */
export async function signedInClient(
  api: ApiHarness,
  smtp: SmtpSink,
  organizationId: string,
  email: string,
  role: ConsoleRole,
): Promise<ConsoleClient> {
  await createConsoleUser(api.orm.em.fork(), { organizationId, email, role }, new Date());
  const client = new ConsoleClient(api.baseUrl);
  const asked = await client.post('/console/sign-in', { email });
  if (asked.status !== 303) throw new Error(`sign-in request answered ${asked.status}`);
  const path = await signInPathFromMail(smtp, email);
  const used = await client.post(path, {});
  if (used.status !== 303) throw new Error(`sign-in link answered ${used.status}`);
  return client;
}

/** What signing in through the browser needs: the page, the API it talks to and the inbox the link arrives in. */
interface BrowserSignIn {
  page: Page;
  baseUrl: string;
  smtp: SmtpSink;
}

/** Signs `email` in as a person does: the form, the email, the link, the button; ends on the overview. */
export async function signInInBrowser({ page, baseUrl, smtp }: BrowserSignIn, email: string): Promise<void> {
  await page.goto(`${baseUrl}/console`);
  await page.getByLabel('Email address').fill(email);
  await page.getByRole('button', { name: 'Email me a sign-in link' }).click();
  await page.getByText('a sign-in link is on its way').waitFor();
  await page.goto(`${baseUrl}${await signInPathFromMail(smtp, email)}`);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
}
