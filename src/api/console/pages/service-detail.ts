import type { FastifyPluginAsync } from 'fastify';
import type { ConsoleDeps } from '../deps';

/** One service: its metrics, response-time chart, flips and incidents (issue 27). */
export const serviceDetailPages: FastifyPluginAsync<ConsoleDeps> = async () => {};
