import type { PlanId } from '../../src/domain/plans';
import type { Scope } from '../../src/domain/scopes';
import type { ApiHarness, HttpResult, TestOrg } from './api-harness';

/** One request with a given key: method, path, JSON body, extra headers. */
export type Call = <T = any>(
  method: string,
  path: string,
  body?: unknown,
  headers?: Record<string, string>,
) => Promise<HttpResult<T>>;

/** Requests through `api` with `key` as the bearer token. */
export function callWith(api: ApiHarness, key: string): Call {
  return (method, path, body, headers) => api.request(method, path, { key, body, headers });
}

/** A minted key and requests bound to it. */
export interface OrgKey {
  key: string;
  call: Call;
}

/** An organization with its every-scope key (`key`, `call`), the keys asked for, and the services made. */
export interface OrgFixture<K extends string = string, S extends string = string> extends TestOrg {
  /** Requests with the every-scope key. */
  call: Call;
  /** The keys of `opts.keys`, by name, each with only its scopes. */
  keys: Record<K, OrgKey>;
  /** The ids of the services of `opts.services`, by name. */
  services: Record<S, string>;
  /** Mints one more key with only `scopes`. */
  keyWith(scopes: Scope[]): Promise<OrgKey>;
}

export interface OrgFixtureOptions<K extends string, S extends string> {
  /** Default: the harness's (business). */
  plan?: PlanId;
  name?: string;
  /** Keys to mint besides the every-scope one: name → scopes. */
  keys?: Record<K, Scope[]>;
  /** Services to create, by name, in this order. */
  services?: readonly S[];
}

/**
 * The setup the API suites share: an organization on `plan`, its every-scope key, keys with
 * only some scopes, and services, each with requests bound to its key. Built on the harness's
 * createOrg and mintKey (no HTTP), services through POST /v1/services.
 */
export async function orgWithKeys<K extends string = never, S extends string = never>(
  api: ApiHarness,
  opts: OrgFixtureOptions<K, S> = {},
): Promise<OrgFixture<K, S>> {
  const org = await api.createOrg(opts.plan, opts.name);
  const call = callWith(api, org.key);
  const keyWith = async (scopes: Scope[]): Promise<OrgKey> => {
    const key = await api.mintKey(org.id, scopes);
    return { key, call: callWith(api, key) };
  };
  const keys = {} as Record<K, OrgKey>;
  for (const [name, scopes] of Object.entries(opts.keys ?? {}) as [K, Scope[]][]) keys[name] = await keyWith(scopes);
  const services = {} as Record<S, string>;
  for (const name of opts.services ?? []) {
    const res = await call('POST', '/v1/services', { name });
    if (res.status !== 201) throw new Error(`creating service ${name} answered ${res.status}: ${res.text}`);
    services[name] = res.body.id;
  }
  return { ...org, call, keys, services, keyWith };
}
