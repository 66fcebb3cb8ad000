import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { SecretBox } from '../../infra/secret-box';

/** Channels, escalation policies, on-call schedules, alert rules and silences (issue 26). */
export const alertingConfigRoutes: FastifyPluginAsyncZod<{ box: SecretBox }> = async () => {};
