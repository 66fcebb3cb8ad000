import type { FastifyPluginAsync } from 'fastify';
import type { ConsoleDeps } from '../deps';

/** SLA contracts: credit terms in a form with a worked example (issue 27). */
export const contractPages: FastifyPluginAsync<ConsoleDeps> = async () => {};
