import type { FastifyPluginAsync } from 'fastify';
import { ProblemError } from '../../../domain/error-catalog';
import type { FormProblem } from '../../../render/console/forms';
import {
  type ServiceFormValues,
  type ServiceRow,
  serviceDeleteBody,
  serviceFormBody,
  serviceListBody,
} from '../../../render/console/pages/services';
import {
  createService,
  deleteService,
  getService,
  listServices,
  pauseServiceMetrics,
  serviceSummaries,
  updateService,
} from '../../../usecases/services/services';
import { ServiceCreateBody, ServicePatchBody } from '../../schemas/services';
import { type ConsoleViewer, redirectWithFlash, requireScope, sendPage } from '../context';
import type { ConsoleDeps } from '../deps';
import { attempt, field, flashOf, listQuery, validated } from '../forms';

const NAV = '/console/services';

function formValues(body: unknown): ServiceFormValues {
  return {
    name: field(body, 'name'),
    description: field(body, 'description'),
    config_key: field(body, 'config_key').trim(),
  };
}

/** The form as the API's body: an empty description or config key is none (null). */
function bodyOf(v: ServiceFormValues) {
  return {
    name: v.name,
    description: v.description.trim() === '' ? null : v.description,
    config_key: v.config_key === '' ? null : v.config_key,
  };
}

async function rowOf(v: ConsoleViewer, id: string): Promise<ServiceRow> {
  const s = await getService(v.ctx, id);
  const summary = (await serviceSummaries(v.ctx, [s.id])).get(s.id)!;
  return { id: s.id, name: s.name, description: s.description ?? null, config_key: s.configKey ?? null, ...summary };
}

/** Services: list, create, edit, pause/resume, delete; the service's own page is service-detail.ts. Scopes as the API's. */
export const servicePages: FastifyPluginAsync<ConsoleDeps> = async (app, deps) => {
  app.get('/services', async (request, reply) => {
    const v = requireScope(request, 'read:metrics');
    const page = await listServices(v.ctx, listQuery(request.query, 50));
    const summaries = await serviceSummaries(
      v.ctx,
      page.items.map((s) => s.id),
    );
    const services = page.items.map((s) => ({
      id: s.id,
      name: s.name,
      description: s.description ?? null,
      config_key: s.configKey ?? null,
      ...summaries.get(s.id)!,
    }));
    const body = serviceListBody({
      services,
      nextCursor: page.nextCursor,
      canWrite: v.can('write:config'),
      canPause: v.can('write:config') && v.can('write:metrics'),
      csrf: v.csrf,
    });
    return sendPage(reply, v, NAV, { title: 'Services', flash: flashOf(request.query), body });
  });

  app.get('/services/new', async (request, reply) => {
    const v = requireScope(request, 'write:config');
    return sendPage(reply, v, NAV, {
      title: 'New service',
      body: serviceFormBody({ values: { name: '', description: '', config_key: '' }, problem: null, csrf: v.csrf }),
    });
  });

  app.post('/services/new', async (request, reply) => {
    const v = requireScope(request, 'write:config');
    const values = formValues(request.body);
    const done = await attempt(() => createService(v.ctx, validated(ServiceCreateBody, bodyOf(values))));
    if (done.ok) return redirectWithFlash(reply, '/console/services', `Created ${done.value.name}.`);
    return sendPage(
      reply,
      v,
      NAV,
      { title: 'New service', body: serviceFormBody({ values, problem: done.problem, csrf: v.csrf }) },
      done.status,
    );
  });

  app.get<{ Params: { id: string } }>('/services/:id/edit', async (request, reply) => {
    const v = requireScope(request, 'write:config');
    const s = await getService(v.ctx, request.params.id);
    const values = { name: s.name, description: s.description ?? '', config_key: s.configKey ?? '' };
    return sendPage(reply, v, NAV, {
      title: `Edit ${s.name}`,
      body: serviceFormBody({ id: s.id, storedConfigKey: s.configKey, values, problem: null, csrf: v.csrf }),
    });
  });

  app.post<{ Params: { id: string } }>('/services/:id/edit', async (request, reply) => {
    const v = requireScope(request, 'write:config');
    const s = await getService(v.ctx, request.params.id);
    const values = formValues(request.body);
    const done = await attempt(() => updateService(v.ctx, s.id, validated(ServicePatchBody, bodyOf(values))));
    if (done.ok) return redirectWithFlash(reply, '/console/services', `Saved ${done.value.name}.`);
    if (done.status === 404) throw new ProblemError('not_found', done.problem.detail);
    return sendPage(
      reply,
      v,
      NAV,
      {
        title: `Edit ${s.name}`,
        body: serviceFormBody({ id: s.id, storedConfigKey: s.configKey, values, problem: done.problem, csrf: v.csrf }),
      },
      done.status,
    );
  });

  app.get<{ Params: { id: string } }>('/services/:id/delete', async (request, reply) => {
    const v = requireScope(request, 'write:config');
    const service = await rowOf(v, request.params.id);
    return sendPage(reply, v, NAV, {
      title: `Delete ${service.name}`,
      body: serviceDeleteBody({ service, problem: null, csrf: v.csrf }),
    });
  });

  app.post<{ Params: { id: string } }>('/services/:id/delete', async (request, reply) => {
    const v = requireScope(request, 'write:config');
    const service = await rowOf(v, request.params.id);
    const done = await attempt(async () => {
      if (field(request.body, 'confirm') !== 'yes')
        throw new ProblemError('validation_failed', 'Tick the box to confirm the delete.', {
          errors: [{ path: 'confirm', message: 'Tick the box to confirm that the service and its metrics go' }],
        });
      return deleteService(v.ctx, { metricScheduler: deps.metricScheduler }, service.id);
    });
    if (done.ok) return redirectWithFlash(reply, '/console/services', `Deleted ${service.name}.`);
    const problem: FormProblem = done.problem;
    return sendPage(
      reply,
      v,
      NAV,
      { title: `Delete ${service.name}`, body: serviceDeleteBody({ service, problem, csrf: v.csrf }) },
      done.status,
    );
  });

  for (const [verb, paused] of [
    ['pause', true],
    ['resume', false],
  ] as const) {
    app.post<{ Params: { id: string } }>(`/services/:id/${verb}`, async (request, reply) => {
      // Pausing changes metrics (the API's PATCH /v1/metrics/{id} `paused`, write:metrics) of a service (write:config).
      const v = requireScope(request, 'write:config');
      requireScope(request, 'write:metrics');
      const { service, changed } = await pauseServiceMetrics(
        v.ctx,
        { metricScheduler: deps.metricScheduler },
        request.params.id,
        paused,
      );
      const what = `${changed} metric${changed === 1 ? '' : 's'}`;
      return redirectWithFlash(
        reply,
        '/console/services',
        paused
          ? `Paused ${what} of ${service.name}: they are not checked until resumed.`
          : `Resumed ${what} of ${service.name}.`,
      );
    });
  }
};
