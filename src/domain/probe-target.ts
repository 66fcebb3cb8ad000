/**
 * What a probe of `sourceType` checks, in the words an on-call engineer would type into a terminal:
 * the URL, `host:port`, the DNS name. Null for sources without one address (manual, pushed, host
 * metrics, a database reached through a secret DSN).
 */
export function probeTarget(sourceType: string, config: Record<string, unknown> | null | undefined): string | null {
  const c = config ?? {};
  const str = (k: string) => (typeof c[k] === 'string' && c[k] !== '' ? c[k] : null);
  const hostPort = (defaultPort?: number) => {
    const host = str('host');
    if (!host) return null;
    const port = typeof c.port === 'number' ? c.port : defaultPort;
    const shown = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
    return port === undefined ? host : `${shown}:${port}`;
  };
  switch (sourceType) {
    case 'http':
    case 'mtls_http':
    case 'websocket':
    case 'loki':
    case 'elasticsearch':
      return str('url');
    case 'prometheus':
      return str('server_url');
    case 'tcp':
      return hostPort();
    case 'tls_cert':
      return hostPort(443);
    case 'icmp':
      return str('host');
    case 'dns': {
      const name = str('name');
      return name ? `${name} (${str('record_type') ?? 'A'})` : null;
    }
    case 'grpc':
      return str('target');
    default:
      return null;
  }
}
