import { createHmac, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { type ConsoleRole, isConsoleRole, roleCan } from '../../domain/console-roles';
import { ProblemError } from '../../domain/error-catalog';
import { PLANS, isPlanId } from '../../domain/plans';
import type { Scope } from '../../domain/scopes';
import { type ConsoleChrome, type ConsolePage, type NavItem, consolePage } from '../../render/console/layout';
import type { OrgContext } from '../../usecases/shared/context';
import type { ConsoleSessionView } from '../../usecases/console/sessions';
import { setFlash } from './flash';

export const SESSION_COOKIE = 'vigil_console';

/** What a console page knows about who is looking. */
export interface ConsoleViewer {
  session: ConsoleSessionView;
  role: ConsoleRole;
  /** The same use-case context an API key of the organization gets. */
  ctx: OrgContext;
  csrf: string;
  can(scope: Scope): boolean;
  /** The IANA zone the viewer reads and enters times in (their setting; UTC until they choose). */
  timeZone: string;
  /** No zone chosen: pages render UTC and /console/assets/console.js shows the browser's zone. */
  browserZone: boolean;
}

declare module 'fastify' {
  interface FastifyRequest {
    consoleViewer: ConsoleViewer | null;
  }
}

const NAV: (NavItem & { needs: Scope | 'owner' })[] = [
  { href: '/console', label: 'Overview', needs: 'read:metrics' },
  { href: '/console/services', label: 'Services', needs: 'read:metrics' },
  { href: '/console/incidents', label: 'Incidents', needs: 'read:incidents' },
  { href: '/console/maintenances', label: 'Maintenance', needs: 'read:incidents' },
  { href: '/console/change-events', label: 'Changes', needs: 'read:incidents' },
  { href: '/console/metrics', label: 'Metrics', needs: 'read:metrics' },
  { href: '/console/slos', label: 'SLOs', needs: 'read:metrics' },
  { href: '/console/status-pages', label: 'Status pages', needs: 'read:config' },
  { href: '/console/webhooks', label: 'Webhooks', needs: 'read:config' },
  { href: '/console/agents', label: 'Agents', needs: 'read:config' },
  { href: '/console/customers', label: 'Customers', needs: 'read:config' },
  { href: '/console/contracts', label: 'Contracts', needs: 'read:sla' },
  { href: '/console/sla', label: 'SLA statements', needs: 'read:sla' },
  { href: '/console/alerts', label: 'Alerts', needs: 'read:alerts' },
  { href: '/console/on-call', label: 'On call', needs: 'read:alerts' },
  { href: '/console/users', label: 'Users', needs: 'owner' },
  { href: '/console/api-keys', label: 'API keys', needs: 'owner' },
  { href: '/console/settings', label: 'Settings', needs: 'read:metrics' },
];

/** The CSRF token of a session: an HMAC of its id, so it needs no storage and dies with the session. */
export function csrfToken(key: Buffer, sessionId: string): string {
  return createHmac('sha256', key).update(`console-csrf:${sessionId}`).digest('base64url');
}

export function csrfMatches(key: Buffer, sessionId: string, sent: unknown): boolean {
  if (typeof sent !== 'string') return false;
  const want = Buffer.from(csrfToken(key, sessionId));
  const got = Buffer.from(sent);
  return got.length === want.length && timingSafeEqual(got, want);
}

export function viewerOf(
  request: FastifyRequest,
  session: ConsoleSessionView,
  csrfKey: Buffer,
  pricingUrl: string,
): ConsoleViewer {
  const role: ConsoleRole = isConsoleRole(session.user.role) ? session.user.role : 'viewer';
  const planId = session.organization.plan;
  if (!isPlanId(planId)) throw new Error(`Organization ${session.organization.id} has unknown plan ${planId}`);
  const ctx: OrgContext = {
    get em() {
      return request.em;
    },
    org: { id: session.organization.id, plan: PLANS[planId] },
    now: request.now,
    pricingUrl,
    log: request.log,
  };
  return {
    session,
    role,
    ctx,
    csrf: csrfToken(csrfKey, session.sessionId),
    can: (scope) => roleCan(role, scope),
    timeZone: session.user.timeZone ?? 'UTC',
    browserZone: !session.user.timeZone,
  };
}

/** The viewer of a signed-in page (the plugin has checked the session). */
export function viewer(request: FastifyRequest): ConsoleViewer {
  if (!request.consoleViewer) throw new Error('console page without a session');
  return request.consoleViewer;
}

/** 403 unless the viewer's role carries `scope` (the same scope the API operation needs). */
export function requireScope(request: FastifyRequest, scope: Scope): ConsoleViewer {
  const v = viewer(request);
  if (!v.can(scope)) throw new ProblemError('forbidden', `Your role (${v.role}) cannot do this: it needs ${scope}.`);
  return v;
}

export function chromeOf(v: ConsoleViewer, active: string): ConsoleChrome {
  return {
    organization: v.session.organization.name,
    email: v.session.user.email,
    role: v.role,
    csrf: v.csrf,
    nav: NAV.filter((n) => (n.needs === 'owner' ? v.role === 'owner' : v.can(n.needs))),
    active,
    browserZone: v.browserZone,
    timeZone: v.timeZone,
  };
}

/** Sends a console page (HTML, never cached: it shows the organization's live state). */
/** How often a live page (overview, alerts, metrics, incidents) refreshes its content while open. */
export const LIVE_SECONDS = 10;

export function sendPage(
  reply: FastifyReply,
  v: ConsoleViewer,
  active: string,
  page: ConsolePage,
  status = 200,
): FastifyReply {
  return reply
    .code(status)
    .header('cache-control', 'no-store')
    .type('text/html; charset=utf-8')
    .send(consolePage(chromeOf(v, active), page));
}

/** Post/redirect/get: after a successful form, go to `to` with a one-line notice. */
export function redirectWithFlash(reply: FastifyReply, to: string, flash: string): FastifyReply {
  setFlash(reply, reply.request.cookies[SESSION_COOKIE], flash);
  return reply.code(303).header('location', to).send();
}
