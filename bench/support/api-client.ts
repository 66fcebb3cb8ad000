import { Pool } from 'undici';

/** The benchmarks' client of the Vigil API: one undici pool, bearer key, JSON bodies. */
export interface ApiClient {
  call<T = any>(method: string, p: string, body?: unknown): Promise<{ status: number; body: T }>;
  /** A GET timed from the request to the last byte of the body. */
  timedGet<T = any>(p: string): Promise<{ status: number; body: T; ms: number }>;
  close(): Promise<void>;
}

export function apiClient(baseUrl: string, key: string, connections: number): ApiClient {
  const pool = new Pool(baseUrl, { connections });
  const send = async (method: string, p: string, body?: unknown) => {
    const headers: Record<string, string> = { authorization: `Bearer ${key}` };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await pool.request({
      method: method as 'GET',
      path: p,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.body.text();
    return { status: res.statusCode, text };
  };
  return {
    async call(method, p, body) {
      const { status, text } = await send(method, p, body);
      return { status, body: text ? JSON.parse(text) : undefined };
    },
    async timedGet(p) {
      const t = performance.now();
      const { status, text } = await send('GET', p);
      const ms = performance.now() - t;
      return { status, body: text ? JSON.parse(text) : undefined, ms };
    },
    close: () => pool.close(),
  };
}

export function expectStatus(res: { status: number; body: unknown }, status: number, what: string): void {
  if (res.status !== status)
    throw new Error(`${what}: expected ${status}, got ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
}
