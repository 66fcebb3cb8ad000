import type { FastifyPluginAsync } from 'fastify';
import type { ConsoleDeps } from '../deps';

/** The signed-in user's own settings: time zone (issue 27). */
export const settingsPages: FastifyPluginAsync<ConsoleDeps> = async () => {};
