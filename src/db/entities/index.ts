import { AgentSchema, ProbeTestJobSchema } from './agent';
import { ApiKeySchema } from './api-key';
import { ChangeEventSchema } from './change-event';
import { IncidentMessageSchema, IncidentSchema } from './incident';
import { MaintenanceMessageSchema, MaintenanceSchema } from './maintenance';
import { OutboxEventSchema } from './outbox-event';
import { CustomerSchema } from './customer';
import { IdempotencyRecordSchema } from './idempotency-record';
import { MetricSchema, MetricStatusFlipSchema } from './metric';
import { OrganizationSchema } from './organization';
import { ServiceSchema } from './service';
import { RateLimitCounterSchema } from './rate-limit-counter';
import { WebhookAttemptSchema, WebhookDeliverySchema, WebhookSubscriptionSchema } from './webhook';

export * from './agent';
export * from './api-key';
export * from './change-event';
export * from './incident';
export * from './maintenance';
export * from './outbox-event';
export * from './customer';
export * from './idempotency-record';
export * from './metric';
export * from './organization';
export * from './service';
export * from './rate-limit-counter';
export * from './webhook';

export const ENTITIES = [OrganizationSchema, ApiKeySchema, ServiceSchema, CustomerSchema, IdempotencyRecordSchema, RateLimitCounterSchema, ChangeEventSchema, IncidentSchema, IncidentMessageSchema, OutboxEventSchema, MaintenanceSchema, MaintenanceMessageSchema, WebhookSubscriptionSchema, WebhookDeliverySchema, WebhookAttemptSchema, AgentSchema, ProbeTestJobSchema, MetricSchema, MetricStatusFlipSchema];
