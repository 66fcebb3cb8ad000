import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { ProblemError } from '../../../domain/error-catalog';
import { pageBaseUrl } from '../../../domain/status-page/site';
import type { FormProblem } from '../../../render/console/forms';
import type { Choice } from '../../../render/console/parts';
import {
  type ComponentChoices,
  EMPTY_STATUS_PAGE_FORM,
  type GroupRow,
  type StatusPageFormValues,
  statusPageDeleteBody,
  statusPageFormBody,
  statusPageReadBody,
} from '../../../render/console/pages/status-page-form';
import { statusPageHref, statusPageListBody } from '../../../render/console/pages/status-pages';
import type { OrgContext } from '../../../usecases/shared/context';
import { listMetrics } from '../../../usecases/metrics/metrics';
import { listSlos } from '../../../usecases/slos/slos';
import {
  createStatusPage,
  deleteStatusPage,
  getStatusPage,
  listStatusPages,
  updateStatusPage,
} from '../../../usecases/status-pages/pages';
import { StatusPageCreateBody, StatusPagePatchBody, presentStatusPage } from '../../schemas/status-pages';
import { serviceChoices } from '../choices';
import { type ConsoleViewer, redirectWithFlash, requireScope, sendPage } from '../context';
import type { ConsoleDeps } from '../deps';
import { attempt, field, flashOf, listQuery, validated } from '../forms';

const NAV = '/console/status-pages';
const MAX_ROWS = 60;
type IdRequest = { Params: { id: string } };

/** The form's rows as posted: `links.N.label`, `groups.N.name`, `groups.N.components.M.id`, in index order. */
function indexed(body: unknown, prefix: string): number[] {
  const re = new RegExp(`^${prefix.replace(/\./g, '\\.')}\\.(\\d+)\\.`);
  const seen = new Set<number>();
  for (const k of Object.keys((body as Record<string, unknown>) ?? {})) {
    const m = re.exec(k);
    if (m && Number(m[1]) < MAX_ROWS) seen.add(Number(m[1]));
  }
  return [...seen].sort((a, b) => a - b);
}

function formValues(body: unknown): StatusPageFormValues {
  const groups: GroupRow[] = indexed(body, 'groups').map((g) => ({
    name: field(body, `groups.${g}.name`),
    components: indexed(body, `groups.${g}.components`).map((c) => field(body, `groups.${g}.components.${c}.id`)),
  }));
  return {
    title: field(body, 'title'),
    subdomain: field(body, 'subdomain').trim(),
    description: field(body, 'description'),
    time_zone: field(body, 'time_zone').trim(),
    logo_url: field(body, 'branding.logo_url').trim(),
    accent_color: field(body, 'branding.accent_color').trim(),
    header_color: field(body, 'branding.header_color').trim(),
    viewer_public_key: field(body, 'viewer_public_key').trim(),
    links: indexed(body, 'links').map((i) => ({
      label: field(body, `links.${i}.label`),
      url: field(body, `links.${i}.url`).trim(),
    })),
    groups,
  };
}

/** The values with the layout change a row button asked for (add a row, move one up); null for "save". */
function applyOp(values: StatusPageFormValues, op: string): StatusPageFormValues | null {
  const v = {
    ...values,
    links: [...values.links],
    groups: values.groups.map((g) => ({ ...g, components: [...g.components] })),
  };
  const [what, a, b] = op.split(':');
  const gi = Number(a);
  const swap = <T>(list: T[], i: number) => {
    if (i > 0 && i < list.length) [list[i - 1], list[i]] = [list[i]!, list[i - 1]!];
  };
  if (what === 'add_link') v.links.push({ label: '', url: '' });
  else if (what === 'add_group') v.groups.push({ name: '', components: [''] });
  else if (what === 'add_component' && v.groups[gi]) v.groups[gi].components.push('');
  else if (what === 'up_group') swap(v.groups, gi);
  else if (what === 'up_component' && v.groups[gi]) swap(v.groups[gi].components, Number(b));
  else return null;
  return v;
}

/**
 * The API body the form stands for: empty optional fields are null, empty link rows, component
 * picks and groups are left out (the error paths then index the kept rows, as the API would).
 */
function bodyOf(x: StatusPageFormValues): { input: Record<string, unknown>; kept: StatusPageFormValues } {
  const links = x.links.filter((l) => l.label.trim() || l.url);
  const groups = x.groups
    .map((g) => ({ name: g.name, components: g.components.filter(Boolean) }))
    .filter((g) => g.name.trim() || g.components.length);
  const input = {
    title: x.title,
    subdomain: x.subdomain,
    description: x.description.trim() ? x.description : null,
    time_zone: x.time_zone || 'UTC',
    branding: {
      logo_url: x.logo_url || null,
      accent_color: x.accent_color || null,
      header_color: x.header_color || null,
    },
    links,
    groups: groups.map((g) => ({
      name: g.name.trim() ? g.name : null,
      components: g.components.map((c) => {
        const i = c.indexOf(':');
        return { kind: c.slice(0, i), id: c.slice(i + 1) };
      }),
    })),
    viewer_public_key: x.viewer_public_key ? x.viewer_public_key : null,
  };
  return { input, kept: { ...x, links, groups } };
}

async function allOf<T>(
  list: (q: { limit: number; cursor?: string }) => Promise<{ items: T[]; nextCursor: string | null }>,
): Promise<T[]> {
  const out: T[] = [];
  let cursor: string | undefined;
  for (let i = 0; i < 5; i++) {
    const page = await list({ limit: 200, ...(cursor ? { cursor } : {}) });
    out.push(...page.items);
    if (!page.nextCursor) break;
    cursor = page.nextCursor;
  }
  return out;
}

async function componentChoices(ctx: OrgContext): Promise<ComponentChoices> {
  const services = await serviceChoices(ctx);
  const serviceName = new Map(services.map((s) => [s.id, s.name]));
  const metrics: Choice[] = (await allOf((q) => listMetrics(ctx, q))).map((m) => ({
    id: m.id,
    name: `${m.name} (${serviceName.get(m.service_id) ?? 'service'})`,
  }));
  // SLOs are a plan feature: without it the picker offers none, as the API would refuse them.
  const slos = await attempt(() => allOf((q) => listSlos(ctx, q)));
  return {
    service: services,
    metric: metrics,
    slo: slos.ok ? slos.value.map((s) => ({ id: s.id, name: s.name })) : [],
  };
}

function valuesOfPage(p: Awaited<ReturnType<typeof getStatusPage>>): StatusPageFormValues {
  return {
    title: p.title,
    subdomain: p.subdomain,
    description: p.description ?? '',
    time_zone: p.timeZone,
    logo_url: p.branding.logo_url ?? '',
    accent_color: p.branding.accent_color ?? '',
    header_color: p.branding.header_color ?? '',
    viewer_public_key: p.viewerPublicKey ?? '',
    links: p.links.map((l) => ({ ...l })),
    groups: p.layout.groups.map((g) => ({
      name: g.name ?? '',
      components: g.components.map((c) => `${c.kind}:${c.id}`),
    })),
  };
}

/** Status pages: the list with live URLs and feeds; create, edit (branding, links, layout) and delete (API: /v1/status-pages). */
export const statusPagePages: FastifyPluginAsync<ConsoleDeps> = async (app, deps) => {
  const site = deps.statusSite;
  const present = (p: Awaited<ReturnType<typeof getStatusPage>>) =>
    presentStatusPage(p, pageBaseUrl(site, p.subdomain));

  app.get('/status-pages', async (request, reply) => {
    const v = requireScope(request, 'read:config');
    const page = await listStatusPages(v.ctx, listQuery(request.query, 50));
    const pages = page.items.map((p) => {
      const view = present(p);
      return { ...view, private_components: view.viewer_public_key !== null };
    });
    return sendPage(reply, v, NAV, {
      title: 'Status pages',
      flash: flashOf(request.query),
      body: statusPageListBody(pages, page.nextCursor, v.can('write:config'), v.timeZone),
    });
  });

  const sendForm = async (
    reply: FastifyReply,
    v: ConsoleViewer,
    o: {
      title: string;
      action: string;
      values: StatusPageFormValues;
      existing?: { id: string; url: string; config_key: string | null };
      problem?: FormProblem;
      status?: number;
      flash?: string | null;
    },
  ) => {
    const body = statusPageFormBody({
      csrf: v.csrf,
      action: o.action,
      values: o.values,
      choices: await componentChoices(v.ctx),
      problem: o.problem ?? null,
      existing: o.existing ?? null,
    });
    return sendPage(reply, v, NAV, { title: o.title, body, flash: o.flash ?? null }, o.status);
  };

  app.get('/status-pages/new', async (request, reply) =>
    sendForm(reply, requireScope(request, 'write:config'), {
      title: 'New status page',
      action: '/console/status-pages/new',
      values: EMPTY_STATUS_PAGE_FORM,
    }),
  );

  app.post('/status-pages/new', async (request, reply) => {
    const v = requireScope(request, 'write:config');
    const values = formValues(request.body);
    const changed = applyOp(values, field(request.body, '_op'));
    const form = { title: 'New status page', action: '/console/status-pages/new' };
    if (changed) return sendForm(reply, v, { ...form, values: changed });
    const { input, kept } = bodyOf(values);
    const r = await attempt(() => createStatusPage(v.ctx, deps.box, validated(StatusPageCreateBody, input)));
    if (!r.ok) return sendForm(reply, v, { ...form, values: kept, problem: r.problem, status: r.status });
    return redirectWithFlash(
      reply,
      statusPageHref(r.value.id),
      `Status page created; it is live at ${present(r.value).url}`,
    );
  });

  app.get<IdRequest>('/status-pages/:id', async (request, reply) => {
    const v = requireScope(request, 'read:config');
    const page = await getStatusPage(v.ctx, request.params.id);
    const p = present(page);
    const values = valuesOfPage(page);
    if (!v.can('write:config')) {
      const body = statusPageReadBody({ ...p, values, choices: await componentChoices(v.ctx) });
      return sendPage(reply, v, NAV, { title: `Status page: ${p.title}`, body, flash: flashOf(request.query) });
    }
    return sendForm(reply, v, {
      title: `Status page: ${p.title}`,
      action: statusPageHref(p.id),
      values,
      existing: p,
      flash: flashOf(request.query),
    });
  });

  app.post<IdRequest>('/status-pages/:id', async (request, reply) => {
    const v = requireScope(request, 'write:config');
    const p = present(await getStatusPage(v.ctx, request.params.id));
    const values = formValues(request.body);
    const form = { title: `Status page: ${p.title}`, action: statusPageHref(p.id), existing: p };
    const changed = applyOp(values, field(request.body, '_op'));
    if (changed) return sendForm(reply, v, { ...form, values: changed });
    const { input, kept } = bodyOf(values);
    const r = await attempt(() => updateStatusPage(v.ctx, p.id, validated(StatusPagePatchBody, input)));
    if (!r.ok) {
      if (r.status === 404) throw new ProblemError('not_found', r.problem.detail);
      return sendForm(reply, v, { ...form, values: kept, problem: r.problem, status: r.status });
    }
    return redirectWithFlash(
      reply,
      statusPageHref(p.id),
      p.config_key
        ? 'Status page saved. It is managed by config as code: the next apply overwrites this edit.'
        : 'Status page saved.',
    );
  });

  app.get<IdRequest>('/status-pages/:id/delete', async (request, reply) => {
    const v = requireScope(request, 'write:config');
    const p = present(await getStatusPage(v.ctx, request.params.id));
    return sendPage(reply, v, NAV, { title: `Delete ${p.title}?`, body: statusPageDeleteBody({ csrf: v.csrf, ...p }) });
  });

  app.post<IdRequest>('/status-pages/:id/delete', async (request, reply) => {
    const v = requireScope(request, 'write:config');
    const p = present(await getStatusPage(v.ctx, request.params.id));
    const r = await attempt(() => deleteStatusPage(v.ctx, p.id));
    if (r.ok) return redirectWithFlash(reply, NAV, `Status page "${p.title}" deleted.`);
    return sendPage(
      reply,
      v,
      NAV,
      { title: `Delete ${p.title}?`, body: statusPageDeleteBody({ csrf: v.csrf, ...p, problem: r.problem }) },
      r.status,
    );
  });
};
