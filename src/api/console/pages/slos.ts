import type { FastifyPluginAsync } from 'fastify';
import type { ConsoleDeps } from '../deps';

/** SLOs: list, create, edit, delete (issue 27). */
export const sloPages: FastifyPluginAsync<ConsoleDeps> = async () => {};
