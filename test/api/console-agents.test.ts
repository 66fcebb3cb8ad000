import { type Mailer, createMailer } from '../../src/infra/mailer';
import { type ApiHarness, startApi } from '../support/api-harness';
import { type ConsoleClient, csrfOf, signedInClient } from '../support/console-browser';
import { type OrgFixture, orgWithKeys } from '../support/org-fixture';
import { type SmtpSink, startSmtpSink } from '../support/smtp-sink';

/**
 * Registering an agent from the console (POST /v1/agents' use case and scope, write:config): the
 * token and the command that starts the agent are shown once, after a post/redirect/get, and never
 * again; roles without write:config get no form and 403; CSRF; another organization's agent 404.
 */
let api: ApiHarness;
let smtp: SmtpSink;
let mailer: Mailer;
let org: OrgFixture<never, never>;
let other: OrgFixture<never, never>;
let operator: ConsoleClient;
let owner: ConsoleClient;
let viewer: ConsoleClient;
let finance: ConsoleClient;
let stranger: ConsoleClient;

beforeAll(async () => {
  smtp = await startSmtpSink();
  mailer = createMailer({ smtpUrl: smtp.url, from: 'Vigil <console@vigil.test>', outboxDir: '/nonexistent' });
  api = await startApi({ console: { mail: mailer, temporalUiUrl: null } });
  org = await orgWithKeys(api, { name: 'Agent console org' });
  other = await orgWithKeys(api, { name: 'Other agent org' });
  [operator, owner, viewer, finance, stranger] = await Promise.all([
    signedInClient(api, smtp, org.id, 'ops@agents.test', 'operator'),
    signedInClient(api, smtp, org.id, 'boss@agents.test', 'owner'),
    signedInClient(api, smtp, org.id, 'look@agents.test', 'viewer'),
    signedInClient(api, smtp, org.id, 'money@agents.test', 'finance'),
    signedInClient(api, smtp, other.id, 'ops@other-agents.test', 'operator'),
  ]);
}, 60_000);
afterAll(async () => {
  await api?.close();
  await mailer?.close();
  await smtp?.close();
});

const decode = (s: string) =>
  s
    .replace(/&#(\d+);/g, (_, n) => String.fromCharCode(Number(n)))
    .replace(/&amp;/g, '&')
    .replace(/&quot;/g, '"');
/** The text of a read-only field (`<textarea id=…>`), as the browser copies it. */
const inputValue = (html: string, id: string) => {
  const m = new RegExp(`<textarea[^>]*id="${id}"[^>]*>([^<]*)</textarea>`).exec(html);
  return m ? decode(m[1]!) : null;
};

async function register(client: ConsoleClient, name: string) {
  const page = await client.get('/console/agents');
  return client.post('/console/agents/new', { _csrf: csrfOf(page.text), name });
}

describe('registering an agent in the console', () => {
  it('registers an agent by name and shows its token once, with the exact command that starts it; a reload shows it no more', async () => {
    const page = await operator.get('/console/agents');
    expect(page.text).toContain('aria-label="Register an agent"');
    expect(page.text).not.toContain('Register one through the API');
    const res = await operator.post('/console/agents/new', { _csrf: csrfOf(page.text), name: 'intranet edge' });
    expect(res.status).toBe(303);
    const location = res.headers.get('location')!;
    expect(location).toMatch(/^\/console\/agents\/[0-9a-f-]{36}\/registered$/);
    // The token is in no URL and no notice: only in the sealed, HttpOnly cookie for that one page.
    expect(location).not.toContain('vgl_agt_');
    expect(res.setCookie).toMatch(/vigil_new_agent=[^;]+;.*HttpOnly/i);
    expect(res.setCookie).not.toContain('vgl_agt_');

    const shown = await operator.get(location);
    expect(shown.status).toBe(200);
    const command = inputValue(shown.text, 'agent-command')!;
    const token = inputValue(shown.text, 'agent-token')!;
    expect(token).toMatch(/^vgl_agt_[0-9A-Za-z]{32,64}$/);
    expect(command).toMatch(new RegExp(`^VIGIL_API_URL=http://\\S+ VIGIL_AGENT_TOKEN=${token} npx vigil-agent$`));
    expect(command).not.toMatch(/\/v1 /);
    expect(decode(shown.text)).toContain(`<pre class="secret" aria-label="The same command">${command}</pre>`);

    // The token works: the agent it names is the one registered, in this organization.
    const id = location.split('/')[3]!;
    const config = await api.request('GET', '/v1/agent/config', { headers: { authorization: `Bearer ${token}` } });
    expect(config.status).toBe(200);
    const listed = (await org.call('GET', '/v1/agents')).body.items.find((a: any) => a.id === id);
    expect(listed).toMatchObject({ name: 'intranet edge', token_prefix: token.slice(0, 12) });

    // Refresh, revisit, or the same page in a new tab: never again.
    const again = await operator.get(location);
    expect(again.status).toBe(200);
    expect(again.text).not.toContain(token);
    expect(again.text).not.toContain('id="agent-token"');
    expect(again.text).toContain('The token is no longer shown');
  });

  it('owners register too; viewers and finance (no write:config) get no form and 403 on the form and the page', async () => {
    expect((await register(owner, 'owner edge')).status).toBe(303);
    for (const client of [viewer, finance]) {
      const page = await client.get('/console/agents');
      expect(page.status).toBe(200);
      expect(page.text).not.toContain('aria-label="Register an agent"');
      expect((await client.post('/console/agents/new', { _csrf: csrfOf(page.text), name: 'sneaky' })).status).toBe(403);
    }
    const made = (await org.call('GET', '/v1/agents')).body.items.find((a: any) => a.name === 'owner edge');
    expect((await viewer.get(`/console/agents/${made.id}/registered`)).status).toBe(403);
    expect((await org.call('GET', '/v1/agents')).body.items.some((a: any) => a.name === 'sneaky')).toBe(false);
  });

  it('refuses a post without the session’s CSRF token, and an empty name next to its field, registering nothing', async () => {
    const before = (await org.call('GET', '/v1/agents')).body.items.length;
    expect((await operator.post('/console/agents/new', { name: 'no token' })).status).toBe(403);
    const page = await operator.get('/console/agents');
    const refused = await operator.post('/console/agents/new', { _csrf: csrfOf(page.text), name: '   ' });
    expect(refused.status).toBe(400);
    expect(refused.text).toMatch(/id="f-name"[^>]*aria-invalid="true"/);
    expect(refused.text).toContain('id="f-name-error"');
    expect((await org.call('GET', '/v1/agents')).body.items).toHaveLength(before);
  });

  it('shows another organization’s agent to nobody (404), and its sealed token cookie is no use elsewhere', async () => {
    const res = await register(operator, 'private edge');
    const location = res.headers.get('location')!;
    expect((await stranger.get(location)).status).toBe(404);
    // The stranger replays the operator's cookie on their own agent's page: bound to the session and agent, it shows nothing.
    const theirs = await register(stranger, 'their edge');
    const cookie = /vigil_new_agent=([^;]+)/.exec(res.setCookie!)![1]!;
    const replay = await fetch(`${api.baseUrl}${theirs.headers.get('location')}`, {
      headers: { cookie: `${stranger.cookie}; vigil_new_agent=${cookie}` },
      redirect: 'manual',
    });
    const html = await replay.text();
    expect(replay.status).toBe(200);
    expect(html).not.toContain('id="agent-token"');
    expect(html).toContain('The token is no longer shown');
    // The operator's own page still shows it once.
    expect(inputValue((await operator.get(location)).text, 'agent-token')).toMatch(/^vgl_agt_/);
  });
});
