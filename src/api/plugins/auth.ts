import type { FastifyInstance, FastifyReply, FastifyRequest, onSendHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import { findApiKey } from '../../db/repositories/auth-repository';
import { looksLikeApiKey } from '../../domain/api-key-format';
import { ProblemError } from '../../domain/error-catalog';
import { PLANS, type Plan, isPlanId } from '../../domain/plans';
import { judge } from '../../domain/rate-limit';
import { type Scope, missingScope } from '../../domain/scopes';
import { hashApiKey } from '../../usecases/organizations/api-keys';
import type { OrgContext } from '../../usecases/shared/context';
import type { Platform } from '../platform';
import { ROUTE_SCOPES } from '../route-scopes';

export interface Principal {
  keyId: string;
  organizationId: string;
  plan: Plan;
  scopes: string[];
}

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
    /** The use-case context of an authenticated request. */
    orgContext(): OrgContext;
  }
}

function unauthenticated(detail: string): ProblemError {
  return new ProblemError('unauthenticated', detail, {}, { 'www-authenticate': 'Bearer realm="vigil"' });
}

function bearerToken(request: FastifyRequest): string {
  const header = request.headers.authorization;
  if (!header) throw unauthenticated('No bearer token was sent: add "Authorization: Bearer <API key>".');
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match?.[1]) throw unauthenticated('The Authorization header is not of the form "Bearer <API key>".');
  return match[1];
}

async function authenticate(platform: Platform, request: FastifyRequest, reply: FastifyReply): Promise<Principal> {
  const token = bearerToken(request);
  if (!looksLikeApiKey(token)) throw unauthenticated('The API key is invalid: it is not a Vigil key (vgl_pub_…).');
  const hash = hashApiKey(token);
  const found = await platform.keys.getOrLoad(hash, 'key', () => findApiKey(request.em, hash, request.now));
  if (!found) throw unauthenticated('The API key is invalid: no such key exists.');
  if (found.revoked) throw unauthenticated('The API key has been revoked.');
  if (found.expiresAt && found.expiresAt.getTime() <= request.now.getTime())
    throw unauthenticated(`The API key expired at ${found.expiresAt.toISOString()}.`);
  if (!isPlanId(found.plan)) throw new Error(`Organization ${found.organizationId} has unknown plan ${found.plan}`);
  const plan = PLANS[found.plan];
  if (!plan.features.has('public_api')) {
    throw new ProblemError('plan_does_not_permit_api', `The ${plan.label} plan does not include the public API.`);
  }
  const limits = {
    perMinute: found.rateLimitPerMinute ?? plan.rateLimit.perMinute,
    perDay: found.rateLimitPerDay ?? plan.rateLimit.perDay,
  };
  const taken = await platform.rateLimiter.take(found.organizationId, limits, request.now);
  const verdict = judge(limits, taken, taken.windows);
  reply.headers(verdict.headers);
  if (!taken.allowed && verdict.exceeded) {
    const { window, max, retryAfter } = verdict.exceeded;
    throw new ProblemError(
      'rate_limited',
      `The organization's ${window === 'minute' ? 'per-minute' : 'daily'} limit of ${max} requests is used up; retry in ${retryAfter} s.`,
      { retry_after: retryAfter, limit: { scope: 'organization', window, max, plan: plan.id } },
      { 'retry-after': String(retryAfter) },
    );
  }
  return { keyId: found.keyId, organizationId: found.organizationId, plan, scopes: found.scopes };
}

/** A route option that takes one hook or a list of them, as a list. */
function asList<T>(value: T | T[] | undefined): T[] {
  return Array.isArray(value) ? value : value ? [value] : [];
}

/**
 * Authenticates every route whose operationId the scope table lists as needing a scope:
 * 401 → plan → rate limit (headers on every authenticated answer) → scope.
 */
export const authPlugin = fp(
  async (app: FastifyInstance, opts: { pricingUrl: string; platform: Platform }) => {
    app.decorateRequest('principal', null);
    app.decorateRequest('orgContext', function (this: FastifyRequest): OrgContext {
      if (!this.principal) throw new Error('orgContext() on an unauthenticated route');
      const request = this;
      return {
        // Forked on first use: a request answered from cache never creates an EntityManager.
        get em() {
          return request.em;
        },
        org: { id: this.principal.organizationId, plan: this.principal.plan },
        now: this.now,
        pricingUrl: opts.pricingUrl,
        log: this.log,
      };
    });
    const authorize = async (request: FastifyRequest, reply: FastifyReply, need: readonly Scope[]) => {
      const principal = await authenticate(opts.platform, request, reply);
      const missing = missingScope(principal.scopes, { anyOf: need });
      if (missing)
        throw new ProblemError(
          'forbidden',
          `This operation needs the scope ${missing}; the API key does not carry it.`,
        );
      request.principal = principal;
      request.log = request.log.child({ organization_id: principal.organizationId, api_key_id: principal.keyId });
    };
    // Attached per route at registration: routes that need no key (status pages, feeds) pay nothing per request,
    // and a route missing from the scope table fails at startup rather than on its first request.
    app.addHook('onRoute', (route) => {
      const operationId = route.schema?.operationId;
      if (!operationId) return;
      const need = ROUTE_SCOPES[operationId];
      if (need === undefined) throw new Error(`Route ${operationId} is missing from ROUTE_SCOPES`);
      // Agent routes authenticate the agent token themselves (routes/agent-api.ts).
      if (need === 'public' || need === 'agent') return;
      const hook = (request: FastifyRequest, reply: FastifyReply) => authorize(request, reply, need);
      route.onRequest = [hook, ...asList(route.onRequest)];
      // Read-your-writes on this instance: a write drops the organization's cached reads and
      // public pages before its answer leaves (other instances hear of it through the change feed).
      if (route.method !== 'GET' && route.method !== 'HEAD') {
        const dropReads: onSendHookHandler = (request, _reply, payload, done) => {
          if (request.principal) {
            opts.platform.reads.invalidate(request.principal.organizationId);
            opts.platform.publicViews.invalidate(request.principal.organizationId);
          }
          done(null, payload);
        };
        route.onSend = [...asList(route.onSend), dropReads];
      }
    });
  },
  { name: 'auth', dependencies: ['request-context'] },
);
