import type { FastifyPluginAsync } from 'fastify';
import type { ConsoleDeps } from '../deps';

/** "Export as YAML" for every configurable list (issue 27). */
export const configExportPages: FastifyPluginAsync<ConsoleDeps> = async () => {};
