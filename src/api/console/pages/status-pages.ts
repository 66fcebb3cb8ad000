import type { FastifyPluginAsync } from 'fastify';
import { pageBaseUrl } from '../../../domain/status-page/site';
import { statusPageListBody } from '../../../render/console/pages/status-pages';
import { listStatusPages } from '../../../usecases/status-pages/pages';
import { presentStatusPage } from '../../schemas/status-pages';
import { requireScope, sendPage } from '../context';
import type { ConsoleDeps } from '../deps';
import { flashOf, listQuery } from '../forms';

/** The organization's status pages, each with a link to the live page and its feeds (the API's `url` and `feeds`). */
export const statusPagePages: FastifyPluginAsync<ConsoleDeps> = async (app, deps) => {
  const site = deps.statusSite;
  app.get('/status-pages', async (request, reply) => {
    const v = requireScope(request, 'read:config');
    const page = await listStatusPages(v.ctx, listQuery(request.query, 50));
    const pages = page.items.map((p) => {
      const view = presentStatusPage(p, pageBaseUrl(site, p.subdomain));
      return { ...view, private_components: view.viewer_public_key !== null };
    });
    return sendPage(reply, v, '/console/status-pages', { title: 'Status pages', flash: flashOf(request.query), body: statusPageListBody(pages, page.nextCursor) });
  });
};
