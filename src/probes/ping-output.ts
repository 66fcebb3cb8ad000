/** What the summary of a `ping` run says (iputils, BusyBox and BSD wordings). */
export interface PingSummary {
  transmitted: number;
  received: number;
  /** 0..100 */
  lossPercent: number;
  /** Average round trip in ms; null when no reply came (no rtt line). */
  avgMs: number | null;
}

/** Parses the statistics ping prints at exit (also on SIGINT); null when there are none. */
export function parsePingSummary(output: string): PingSummary | null {
  const counts = /(\d+) packets transmitted, (\d+) (?:packets )?received/.exec(output);
  if (!counts) return null;
  const transmitted = Number(counts[1]);
  const received = Number(counts[2]);
  const loss = /([\d.]+)% packet loss/.exec(output);
  const lossPercent = loss ? Number(loss[1]) : transmitted > 0 ? ((transmitted - received) / transmitted) * 100 : 100;
  const rtt = /(?:rtt|round-trip)[^=\n]*=\s*([\d.]+)\/([\d.]+)\//.exec(output);
  return {
    transmitted,
    received,
    lossPercent: Math.min(100, Math.max(0, lossPercent)),
    avgMs: rtt ? Number(rtt[2]) : null,
  };
}

const PRIVILEGE = /operation not permitted|permission denied|cap_net_raw|must be root|lacking privilege/i;
const UNRESOLVED =
  /unknown host|name or service not known|temporary failure in name resolution|no address associated|cannot resolve|bad address|nodename nor servname/i;

/** Why ping failed without a summary, from its messages: missing privilege, an unresolved name, or null. */
export function pingFailure(messages: string): 'icmp_privilege_denied' | 'icmp_dns_failed' | null {
  if (PRIVILEGE.test(messages)) return 'icmp_privilege_denied';
  if (UNRESOLVED.test(messages)) return 'icmp_dns_failed';
  return null;
}
