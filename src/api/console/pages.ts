import type { FastifyPluginAsync } from 'fastify';
import type { ConsoleDeps } from './deps';
import { overviewPages } from './pages/overview';

/** Every page of the signed-in console, one module per area. */
export const consolePages: FastifyPluginAsync<ConsoleDeps> = async (app, deps) => {
  await app.register(overviewPages, deps);
};
