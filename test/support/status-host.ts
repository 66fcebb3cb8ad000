import { request } from 'undici';

export interface PageResponse {
  status: number;
  headers: Record<string, string>;
  text: string;
}

/** A request to `<subdomain>.status.localhost` on the API's loopback port (the Host header picks the page). */
export async function pageRequest(
  baseUrl: string,
  subdomain: string,
  path: string,
  opts: { method?: 'GET' | 'POST'; headers?: Record<string, string>; body?: string; statusHost?: string } = {},
): Promise<PageResponse> {
  const port = new URL(baseUrl).port;
  const res = await request(`${baseUrl}${path}`, {
    method: opts.method ?? 'GET',
    headers: { host: `${subdomain}.${opts.statusHost ?? 'status.localhost'}:${port}`, ...opts.headers },
    body: opts.body,
  });
  const text = await res.body.text();
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(res.headers))
    if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(', ') : v;
  return { status: res.statusCode, headers, text };
}

export const formBody = (fields: Record<string, string>) => ({
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams(fields).toString(),
});
