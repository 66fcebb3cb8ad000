import { esc } from '../../html';
import { type FormProblem, csrfField, inputField, problemBox } from '../forms';
import { facts, link, pager, stateBadge, table, zonedTime } from '../parts';

export interface ConsoleAgent {
  id: string;
  name: string;
  /** online, offline, never_connected or revoked. */
  status: string;
  version: string | null;
  can_run_probe_tests: boolean;
  hostname: string | null;
  token_prefix: string;
  last_seen_at: string | null;
  revoked_at: string | null;
  created_at: string;
}

const TONES: Record<string, 'healthy' | 'unhealthy' | 'neutral'> = {
  online: 'healthy',
  offline: 'unhealthy',
  never_connected: 'neutral',
  revoked: 'neutral',
};

export function agentStatusBadge(status: string): string {
  return stateBadge(status.replace(/_/g, ' '), TONES[status] ?? 'neutral');
}

const muted = (text: string) => `<span class="muted">${esc(text)}</span>`;

/** The registration form on the agents page (shown to roles with write:config, as POST /v1/agents needs). */
export interface AgentRegisterForm {
  csrf: string;
  name: string;
  problem: FormProblem | null;
}

function registerForm(f: AgentRegisterForm): string {
  return `<section aria-labelledby="register-agent"><h2 id="register-agent">Register an agent</h2>
<p class="muted">An agent is the <code>vigil-agent</code> process on a host inside your network: it checks what the cloud cannot reach (loopback and intranet addresses, databases, hosts) and keeps your secrets on that host. Its token is shown once, with the command that starts it.</p>
${problemBox(f.problem, ['name'])}
<form class="stack" method="post" action="/console/agents/new" aria-label="Register an agent">${csrfField(f.csrf)}
${inputField({ name: 'name', label: 'Agent name', value: f.name, problem: f.problem, required: true, hint: 'Where it runs, e.g. "eu-west edge"; 1 to 200 characters.' })}
<div class="actions"><button type="submit">Register agent</button></div>
</form></section>`;
}

export function agentListBody(
  agents: ConsoleAgent[],
  nextCursor: string | null,
  zone: string,
  register: AgentRegisterForm | null = null,
): string {
  const rows = agents.map((a) => [
    `${esc(a.name)}<br><code class="muted">${esc(a.token_prefix)}…</code>`,
    `${agentStatusBadge(a.status)}${a.revoked_at ? `<br>${muted('since')} ${zonedTime(a.revoked_at, zone)}` : ''}`,
    a.version ? esc(a.version) : muted('unknown'),
    a.can_run_probe_tests ? 'yes' : `no${a.version ? '' : ` ${muted('(version unknown)')}`}`,
    a.hostname ? esc(a.hostname) : muted('unknown'),
    a.last_seen_at ? zonedTime(a.last_seen_at, zone) : muted('never'),
    link(`/console/metrics?agent_id=${encodeURIComponent(a.id)}`, 'Metrics'),
  ]);
  const empty = register
    ? 'No agents yet: register one below.'
    : 'No agents yet. Someone with the operator or owner role can register one here.';
  return `${table(['Name', 'Status', 'Version', 'Can run probe tests', 'Hostname', 'Last seen', 'Runs'], rows, empty)}
${pager('/console/agents', nextCursor)}
${register ? registerForm(register) : ''}`;
}

/** The command that starts the agent (docs/agent.md): the API's root URL without /v1, and the token. */
export function agentCommand(apiUrl: string, token: string): string {
  return `VIGIL_API_URL=${apiUrl.replace(/\/+$/, '')} VIGIL_AGENT_TOKEN=${token} npx vigil-agent`;
}

/** The page the registration redirects to: the token and command once, then only the agent's facts. */
export function agentRegisteredBody(a: ConsoleAgent, token: string | null, apiUrl: string): string {
  const shown = token
    ? `<div class="secret-once" role="status"><h2>Start the agent now</h2><p>This is the only time its token is shown: Vigil stores only its hash. Reloading this page does not show it again.</p>
<p><label for="agent-command">Command to run on the agent host</label><textarea id="agent-command" class="secret" rows="3" readonly spellcheck="false">${esc(agentCommand(apiUrl, token))}</textarea></p>
<pre class="secret" aria-label="The same command">${esc(agentCommand(apiUrl, token))}</pre>
<p><label for="agent-token">Agent token (VIGIL_AGENT_TOKEN)</label><textarea id="agent-token" class="secret" rows="2" readonly spellcheck="false">${esc(token)}</textarea></p>
<p class="muted">In a checkout of Vigil, <code>node bin/vigil-agent.js</code> runs the same agent. Once it is running, it shows as online here; then pick it as the Agent of a metric.</p></div>`
    : `<div class="problem" role="alert"><h2>The token is no longer shown</h2><p>An agent’s token is shown once, right after it is registered. If it was not copied, register another agent (and revoke this one through the API).</p></div>`;
  return `${shown}
${facts([
  ['Name', esc(a.name)],
  ['Token prefix', `<code>${esc(a.token_prefix)}…</code>`],
  ['Status', agentStatusBadge(a.status)],
])}
<p>${link('/console/agents', 'Back to the agents')} · ${link('/console/metrics/new?type=http', 'New metric')}</p>`;
}
