/** Where pages live: `<subdomain>.<statusHost>`, on the API's scheme and port. */
export interface StatusSite {
  statusHost: string;
  /** The API's public base URL; its scheme and port carry over to page hosts. */
  publicBaseUrl: string;
}

/** `http://acme.status.localhost:3000` (no trailing slash). */
export function pageBaseUrl(site: StatusSite, subdomain: string): string {
  const base = new URL(site.publicBaseUrl);
  return `${base.protocol}//${subdomain}.${site.statusHost}${base.port ? `:${base.port}` : ''}`;
}
