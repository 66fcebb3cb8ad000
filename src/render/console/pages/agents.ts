import { esc, timeTag } from '../../html';
import { link, pager, stateBadge, table } from '../parts';

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

const TONES: Record<string, 'healthy' | 'unhealthy' | 'neutral'> = { online: 'healthy', offline: 'unhealthy', never_connected: 'neutral', revoked: 'neutral' };

export function agentStatusBadge(status: string): string {
  return stateBadge(status.replace(/_/g, ' '), TONES[status] ?? 'neutral');
}

const muted = (text: string) => `<span class="muted">${esc(text)}</span>`;

export function agentListBody(agents: ConsoleAgent[], nextCursor: string | null): string {
  const rows = agents.map((a) => [
    `${esc(a.name)}<br><code class="muted">${esc(a.token_prefix)}…</code>`,
    `${agentStatusBadge(a.status)}${a.revoked_at ? `<br>${muted('since')} ${timeTag(a.revoked_at, 'UTC')}` : ''}`,
    a.version ? esc(a.version) : muted('unknown'),
    a.can_run_probe_tests ? 'yes' : `no${a.version ? '' : ` ${muted('(version unknown)')}`}`,
    a.hostname ? esc(a.hostname) : muted('unknown'),
    a.last_seen_at ? timeTag(a.last_seen_at, 'UTC') : muted('never'),
    link(`/console/metrics?agent_id=${encodeURIComponent(a.id)}`, 'Metrics'),
  ]);
  return `${table(['Name', 'Status', 'Version', 'Can run probe tests', 'Hostname', 'Last seen', 'Runs'], rows, 'No agents yet. Register one through the API (POST /v1/agents).')}
${pager('/console/agents', nextCursor)}`;
}
