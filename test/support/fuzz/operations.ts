/**
 * The operations of the served OpenAPI document, with their parameters and request body schema
 * ($refs resolved against the document's components), and the order the fuzzer runs them in.
 */
import { ROUTE_SCOPES } from '../../../src/api/route-scopes';
import type { Holdings } from './holdings';

export interface JsonSchema {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  enum?: unknown[];
  format?: string;
  pattern?: string;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
}

export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  schema?: JsonSchema;
}

export interface Operation {
  operationId: string;
  method: string;
  path: string;
  parameters: Parameter[];
  bodySchema: JsonSchema | null;
  mediaTypes: string[];
}

/** The components of the document operationsOf() read last. */
let components: Record<string, JsonSchema> = {};

/** A component schema of the document, by name. */
export function componentSchema(name: string): JsonSchema | undefined {
  return components[name];
}

export function deref(s: JsonSchema | undefined): JsonSchema | undefined {
  let out = s;
  for (let i = 0; out?.$ref && i < 10; i++) out = components[out.$ref.split('/').pop()!];
  return out;
}

/** The schema without its null alternative: `anyOf: [X, null]` is X. */
export function nonNull(s: JsonSchema | undefined): JsonSchema | undefined {
  const d = deref(s);
  const alts = d?.anyOf ?? d?.oneOf;
  if (alts) return nonNull(alts.find((a) => deref(a)?.type !== 'null') ?? alts[0]);
  return d;
}

export function typeOf(s: JsonSchema | undefined, example: unknown): string {
  const t = nonNull(s)?.type;
  const first = Array.isArray(t) ? t.find((x) => x !== 'null') : t;
  if (first) return first;
  if (Array.isArray(example)) return 'array';
  if (example === null || example === undefined) return 'string';
  return typeof example;
}

export function operationsOf(doc: {
  paths: Record<string, Record<string, any>>;
  components: { schemas: Record<string, JsonSchema> };
}): Operation[] {
  components = doc.components.schemas;
  const ops: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      if (!op?.operationId) continue;
      const content = op.requestBody?.content ?? {};
      const mediaTypes = Object.keys(content);
      ops.push({
        operationId: op.operationId,
        method: method.toUpperCase(),
        path,
        parameters: [...(item.parameters ?? []), ...(op.parameters ?? [])],
        bodySchema: deref(content['application/json']?.schema) ?? null,
        mediaTypes,
      });
    }
  }
  return ops;
}

/** Operations that answer pages for people (text/html, also for their refusals), as the status host's do. */
export const HTML_PAGES = new Set(['getAlertActionLink', 'useAlertActionLink']);

/** Destructive operations run after the others, in this order (revoking the agent last, after the agent protocol's operations). */
const LAST = [
  // The alert stays open for snoozing and its one-click link; the deletes go down the live chain (rule, policy, its targets).
  'resolveAlert',
  'deleteSilence',
  'deleteAlertRule',
  'deleteEscalationPolicy',
  'deleteOnCallSchedule',
  'deleteNotificationChannel',
  'deleteSubscriber',
  'deleteSlo',
  'deleteStatusPage',
  'deleteContract',
  'voidSlaStatement',
  'deleteWebhook',
  'deleteIncident',
  'cancelMaintenance',
  'completeMaintenance',
  'deleteMetric',
  'deleteCustomer',
  'deleteService',
  'revokeAgent',
];
/** Reads first, then writes, then the destructive operations of LAST in its order. */
export const orderOf = (op: Operation) => {
  const last = LAST.indexOf(op.operationId);
  if (last >= 0) return 100 + last;
  return op.method === 'GET' ? 0 : 1;
};

/** The credential an operation is called with, by its scope. */
export function credentialOf(op: Operation, h: Holdings): string | null {
  const need = ROUTE_SCOPES[op.operationId];
  if (need === 'public') return null;
  if (need === 'agent') return `Bearer ${h.agentToken}`;
  return `Bearer ${h.org.key}`;
}
