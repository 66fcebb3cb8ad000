import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { SecretBox } from '../../crypto/secret-box';
import { channelRoutes } from './alerting-config/channels';
import { policyRoutes } from './alerting-config/policies';
import { ruleRoutes } from './alerting-config/rules';
import { scheduleRoutes } from './alerting-config/schedules';
import { silenceRoutes } from './alerting-config/silences';

/** Channels, escalation policies, on-call schedules, alert rules and silences. */
export const alertingConfigRoutes: FastifyPluginAsyncZod<{ box: SecretBox }> = async (app, opts) => {
  await app.register(channelRoutes, { box: opts.box });
  await app.register(policyRoutes);
  await app.register(scheduleRoutes);
  await app.register(ruleRoutes);
  await app.register(silenceRoutes);
};
