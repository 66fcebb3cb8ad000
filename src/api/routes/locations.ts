import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { listLocations } from '../../usecases/agents/locations';
import { routeDoc } from '../route-doc';
import { ListQuery, pageSchema } from '../schemas/common';
import { LocationSchema } from '../schemas/locations';

/** GET /v1/locations. `taskQueue`: the installation (TEMPORAL_TASK_QUEUE) whose cloud locations are listed. */
export const locationRoutes: FastifyPluginAsyncZod<{ taskQueue: string }> = async (app, opts) => {
  const { errorResponses, ...doc } = routeDoc('listLocations', {
    summary: 'List probe locations',
    tag: 'Locations',
    errors: ['validation_failed'],
  });
  app.get(
    '/locations',
    { schema: { ...doc, querystring: ListQuery, response: { 200: pageSchema(LocationSchema), ...errorResponses } } },
    async (request) => {
      const page = await listLocations(request.orgContext(), opts.taskQueue, request.query);
      return { items: page.items, next_cursor: page.nextCursor };
    },
  );
};
