/**
 * Every error token the API answers, with its HTTP status and what it means. Clients branch on
 * the token (the problem `title`); this catalog also renders the errors page that problem `type`
 * URLs point to, so a token added here is documented by construction.
 */
export const ERROR_CATALOG = {
  invalid_json: { status: 400, summary: 'The body is not valid JSON, or not a JSON object.' },
  invalid_url: {
    status: 400,
    summary: 'The request URL cannot be decoded: a malformed percent-encoding, or one that is not UTF-8.',
  },
  malformed_request: {
    status: 400,
    summary:
      'The request is not well-formed HTTP/1.1 (its request line, a header or the chunked body); the connection is closed.',
  },
  config_invalid: {
    status: 400,
    summary:
      'The configuration document is not valid; nothing was written. `errors` lists every problem with its path into the document (`metrics[3].thresholds.healthy_value`), `warnings` the non-fatal ones.',
  },
  validation_failed: {
    status: 400,
    summary: 'The request does not match the schema; `errors` lists each problem with its path.',
  },
  unknown_services: {
    status: 400,
    summary: 'Some submitted service ids match no live service of the organization; `unknown_services` lists them.',
  },
  unknown_customers: {
    status: 400,
    summary: 'Some submitted customer ids match no live customer of the organization; `unknown_customers` lists them.',
  },
  invalid_agent_id: { status: 400, summary: 'agent_id is not a UUID.' },
  invalid_source_type: { status: 400, summary: 'source_type is missing or not a known source type.' },
  unsupported_source_type: {
    status: 400,
    summary: 'This source type cannot be tested (custom, otlp, manual, heartbeat, alert).',
  },
  invalid_probe_config: {
    status: 400,
    summary: 'source_config fails validation; `errors` lists each problem with its path.',
  },
  invalid_thresholds: {
    status: 400,
    summary: 'thresholds are out of shape: operations over, under or equal, values finite numbers.',
  },
  invalid_wait_seconds: { status: 400, summary: 'wait_seconds must be an integer from 0 to 20.' },
  link_invalid: {
    status: 400,
    summary: 'The one-click alert link is malformed, cut short, not signed by this installation, or names no alert.',
  },
  unauthenticated: {
    status: 401,
    summary: 'No bearer token was sent, or the API key is unknown or revoked; `detail` says which.',
  },
  forbidden: { status: 403, summary: 'The API key lacks the scope the operation needs; `detail` names it.' },
  plan_does_not_permit_api: { status: 403, summary: "The organization's plan does not include the public API." },
  feature_locked: {
    status: 403,
    summary: 'The plan lacks the feature; `quota` and `upgrade` say which and where to get it.',
  },
  quota_exceeded: {
    status: 403,
    summary: 'Creating this would exceed the plan quota; `quota` carries capability, used, cap and plan.',
  },
  item_suspended_plan: {
    status: 403,
    summary:
      "The item lies beyond the current plan's quota (after a downgrade) and is read-only until the plan allows it.",
  },
  not_found: { status: 404, summary: 'No such route, or no such resource in this organization.' },
  agent_not_found: { status: 404, summary: 'No agent with that id in the organization.' },
  agent_unavailable: {
    status: 409,
    summary:
      'No agent can run the test now; `reason` is no_agent, offline, never_connected, outdated or revoked, and `private_url` is true when the cloud refused a non-public URL.',
  },
  already_revoked: { status: 409, summary: 'The agent is already revoked.' },
  already_published: { status: 409, summary: 'The incident is already published.' },
  already_resolved: { status: 409, summary: 'The incident is already resolved.' },
  not_published: { status: 409, summary: 'Only a published incident can be resolved; publish it first.' },
  already_started: { status: 409, summary: 'The maintenance has already started.' },
  already_completed: { status: 409, summary: 'The maintenance has already completed.' },
  already_canceled: { status: 409, summary: 'The maintenance has already been canceled.' },
  not_started: { status: 409, summary: 'Only a maintenance in progress can be completed; start it first.' },
  invalid_transition: {
    status: 409,
    summary:
      'The SLA statement is not in a state that allows this action; `detail` names the state and the states it is allowed from.',
  },
  stale_revision: {
    status: 409,
    summary:
      "The action names a revision that is no longer the statement's current one (a superseded revision, or an approval whose revision or sha256 changed since); review the current revision and act on it.",
  },
  approver_is_submitter: {
    status: 409,
    summary:
      'An SLA statement must be approved by a different API key (or console user) than the one that submitted it.',
  },
  statement_closed: {
    status: 409,
    summary:
      "The statement's period is closed (void, or its correction window has passed); nothing can change it any more.",
  },
  delivery_refused: {
    status: 409,
    summary:
      "The customer's mail server refused the SLA statement for good (an unknown mailbox, a rejected sender); `detail` quotes its answer. The statement stays approved: correct the billing email or have the mailbox fixed, then deliver again.",
  },
  no_billing_contact: {
    status: 409,
    summary: 'The statement cannot be delivered: neither the contract nor the customer has a billing email.',
  },
  insufficient_evidence: {
    status: 409,
    summary:
      'The SLA statement\'s coverage (minutes with a measured status) is below the contract\'s `min_coverage_pct`; send `"acknowledge_gaps": true` to submit or approve it anyway (recorded in the audit trail).',
  },
  statement_busy: {
    status: 409,
    summary: "The statement's workflow did not answer in time; retry with the same Idempotency-Key.",
  },
  idempotency_key_reused: {
    status: 409,
    summary: 'The Idempotency-Key was used in the last 24 hours with a different request body.',
  },
  delivery_in_progress: {
    status: 409,
    summary: 'The delivery is still being attempted; redeliver it once it has succeeded or failed.',
  },
  webhook_disabled: { status: 409, summary: 'The webhook is disabled; enable it first.' },
  alert_closed: {
    status: 409,
    summary:
      'The alert is resolved (or still being opened), so it cannot be acknowledged, snoozed or resolved; `detail` says which.',
  },
  link_not_applied: {
    status: 409,
    summary:
      'The one-click alert link is valid, but the alert was not changed (it was resolved meanwhile, or its workflow did not answer); the link is not used up, so it may be followed again.',
  },
  link_used: { status: 410, summary: 'The one-click alert link was already used; each link works once.' },
  link_expired: { status: 410, summary: 'The one-click alert link is more than 24 hours old.' },
  alert_busy: {
    status: 503,
    summary: "The alert's workflow did not answer in time (Temporal unreachable or busy); retry.",
  },
  in_use: {
    status: 409,
    summary:
      'Something still refers to it; `referenced_by` lists the SLOs and pages (and counts the subscribers), or the escalation policies and alert rules that use it.',
  },
  subdomain_taken: { status: 409, summary: 'Another status page already uses this subdomain.' },
  config_busy: {
    status: 409,
    summary:
      'Another configuration apply for the organization held its lock for 30 seconds; retry once it has finished.',
  },
  config_key_taken: { status: 409, summary: 'Another item of the organization already uses this config_key.' },
  request_timeout: {
    status: 408,
    summary: 'The request (its headers or its body) did not arrive in time; the connection is closed.',
  },
  payload_too_large: { status: 413, summary: 'The body exceeds the size limit.' },
  unsupported_media_type: { status: 415, summary: 'Send request bodies as application/json.' },
  headers_too_large: {
    status: 431,
    summary: 'The request line and headers together exceed the server limit (16 KiB); the connection is closed.',
  },
  rate_limited: {
    status: 429,
    summary:
      "The organization's per-minute or per-day API limit is used up; `Retry-After`, `retry_after` and `limit` say which and when.",
  },
  subscribe_limited: {
    status: 429,
    summary:
      'Too many subscribe requests from this address or to this page; `Retry-After` and `retry_after` say when to retry.',
  },
  queue_full: {
    status: 429,
    summary: 'The agent already has 20 probe tests waiting; `Retry-After` and `retry_after` say when to retry.',
  },
  internal_error: { status: 500, summary: 'Unhandled server error; safe to retry.' },
  shutting_down: {
    status: 503,
    summary:
      'The API instance that got the request is shutting down; retry (another instance answers). `Retry-After` says when.',
  },
  renderer_unavailable: {
    status: 503,
    summary:
      'PDFs cannot be rendered on this server: Chromium is missing or does not start (CHROMIUM_PATH). statement.html, statement.json and statement.jws still answer.',
  },
  database_unavailable: {
    status: 503,
    summary:
      'The database cannot be reached (a restart or failover); nothing was done. `Retry-After` and `retry_after` say when to retry.',
  },
  probe_test_failed: { status: 502, summary: 'The agent could not run the test; `reason` is its error code.' },
  probe_test_expired: { status: 504, summary: 'The agent did not answer within 2 minutes of the POST.' },
} as const satisfies Record<string, { status: number; summary: string }>;

export type ErrorToken = keyof typeof ERROR_CATALOG;

export interface FieldError {
  path: string;
  message: string;
}

/** Extra members a problem may carry (spec §2.5). */
export interface ProblemExtras {
  errors?: FieldError[];
  retry_after?: number;
  limit?: { scope: 'organization'; window: 'minute' | 'day'; max: number; plan: string };
  quota?: { capability: string; used: number | null; cap: number | null; plan: string | null };
  upgrade?: { plan: string; label: string; url: string };
  [key: string]: unknown;
}

/** A typed error raised by use-cases and mapped to application/problem+json at the edge. */
export class ProblemError extends Error {
  readonly status: number;
  constructor(
    readonly token: ErrorToken,
    detail: string,
    readonly extras: ProblemExtras = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(detail);
    this.name = 'ProblemError';
    this.status = ERROR_CATALOG[token].status;
  }
}

export function notFound(what: string): ProblemError {
  return new ProblemError('not_found', `${what} not found.`);
}
