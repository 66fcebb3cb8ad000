import type { FastifyPluginAsync } from 'fastify';
import type { ConsoleDeps } from '../deps';

/** Console users: invite, change role, disable (owners; issue 27). */
export const userPages: FastifyPluginAsync<ConsoleDeps> = async () => {};
