import type { FastifyPluginAsync } from 'fastify';
import type { ConsoleDeps } from '../deps';

/** Placeholder until its pages are built. */
export const agentPages: FastifyPluginAsync<ConsoleDeps> = async () => {};
