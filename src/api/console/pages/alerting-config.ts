import type { FastifyPluginAsync } from 'fastify';
import type { ConsoleDeps } from '../deps';
import { channelPages } from './alerting/channels';
import { policyPages } from './alerting/policies';
import { rulePages } from './alerting/rules';
import { schedulePages } from './alerting/schedules';

/** Alerting configuration: channels, rules and silences under Alerts; schedules and escalation policies under On call. */
export const alertingConfigPages: FastifyPluginAsync<ConsoleDeps> = async (app, deps) => {
  await app.register(channelPages, deps);
  await app.register(rulePages, deps);
  await app.register(schedulePages, deps);
  await app.register(policyPages, deps);
};
