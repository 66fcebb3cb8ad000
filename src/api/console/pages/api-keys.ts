import type { FastifyPluginAsync } from 'fastify';
import type { ConsoleDeps } from '../deps';

/** API keys: create (secret shown once), scope, expire, revoke, last use (owners; issue 27). */
export const apiKeyPages: FastifyPluginAsync<ConsoleDeps> = async () => {};
