import type { FastifyPluginAsync } from 'fastify';
import type { ConsoleDeps } from '../deps';

/** Services: list, create, edit, pause/resume, delete (issue 27). */
export const servicePages: FastifyPluginAsync<ConsoleDeps> = async () => {};
