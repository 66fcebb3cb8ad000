import type { FastifyPluginAsync } from 'fastify';
import type { ConsoleDeps } from '../deps';

/** Customers: list, create, edit, delete (issue 27). */
export const customerPages: FastifyPluginAsync<ConsoleDeps> = async () => {};
