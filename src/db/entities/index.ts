import { AgentSchema, ProbeTestJobSchema } from './agent';
import { ALERTING_ENTITIES } from './alerting';
import { ApiKeySchema } from './api-key';
import { ChangeEventSchema } from './change-event';
import { ConsoleSessionSchema, ConsoleSignInTokenSchema, ConsoleUserSchema } from './console';
import { IncidentMessageSchema, IncidentSchema } from './incident';
import { IncidentTemplateSchema } from './incident-template';
import { MaintenanceMessageSchema, MaintenanceSchema } from './maintenance';
import { OutboxEventSchema } from './outbox-event';
import { CustomerSchema } from './customer';
import { IdempotencyRecordSchema } from './idempotency-record';
import { MetricSchema, MetricStatusFlipSchema } from './metric';
import { OrganizationSchema } from './organization';
import { ProbeLocationSchema } from './probe-location';
import { ServiceSchema } from './service';
import { SloSchema } from './slo';
import {
  ContractSchema,
  SlaAuditEntrySchema,
  SlaExclusionSchema,
  SlaStatementSchema,
  StatementSigningKeySchema,
} from './sla';
import { NotificationRunSchema, StatusPageSchema, SubscriberEmailSchema, SubscriberSchema } from './status-page';
import { RateLimitCounterSchema } from './rate-limit-counter';
import { WebhookAttemptSchema, WebhookDeliverySchema, WebhookSubscriptionSchema } from './webhook';

export * from './agent';
export * from './alerting';
export * from './api-key';
export * from './change-event';
export * from './console';
export * from './incident';
export * from './incident-template';
export * from './maintenance';
export * from './outbox-event';
export * from './customer';
export * from './idempotency-record';
export * from './metric';
export * from './organization';
export * from './probe-location';
export * from './service';
export * from './slo';
export * from './sla';
export * from './status-page';
export * from './rate-limit-counter';
export * from './webhook';

export const ENTITIES = [
  OrganizationSchema,
  ApiKeySchema,
  ServiceSchema,
  CustomerSchema,
  IdempotencyRecordSchema,
  RateLimitCounterSchema,
  ChangeEventSchema,
  IncidentSchema,
  IncidentMessageSchema,
  IncidentTemplateSchema,
  OutboxEventSchema,
  MaintenanceSchema,
  MaintenanceMessageSchema,
  WebhookSubscriptionSchema,
  WebhookDeliverySchema,
  WebhookAttemptSchema,
  AgentSchema,
  ProbeTestJobSchema,
  MetricSchema,
  MetricStatusFlipSchema,
  SloSchema,
  StatusPageSchema,
  SubscriberSchema,
  SubscriberEmailSchema,
  NotificationRunSchema,
  ContractSchema,
  SlaStatementSchema,
  SlaAuditEntrySchema,
  SlaExclusionSchema,
  StatementSigningKeySchema,
  ConsoleUserSchema,
  ConsoleSignInTokenSchema,
  ConsoleSessionSchema,
  ProbeLocationSchema,
  ...ALERTING_ENTITIES,
];
