import type { FastifyPluginAsync } from 'fastify';
import type { ConsoleDeps } from '../deps';

/** Incident templates: list, create, edit, delete; start an incident from one (issue 27). */
export const incidentTemplatePages: FastifyPluginAsync<ConsoleDeps> = async () => {};
