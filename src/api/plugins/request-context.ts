import type { EntityManager } from '@mikro-orm/postgresql';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Orm } from '../../db/orm';

declare module 'fastify' {
  interface FastifyRequest {
    /** This request's own EntityManager fork (created on first use). */
    readonly em: EntityManager;
    /** The request's clock reading, so one request sees one "now". */
    now: Date;
  }
}

const EM = Symbol('em');

export const requestContextPlugin = fp(
  async (app: FastifyInstance, opts: { orm: Orm }) => {
    app.decorateRequest('now', null as unknown as Date);
    app.decorateRequest('em', {
      getter(this: FastifyRequest) {
        const self = this as unknown as { [EM]?: EntityManager };
        self[EM] ??= opts.orm.em.fork();
        return self[EM];
      },
    });
    app.addHook('onRequest', (request, _reply, done) => {
      request.now = new Date();
      done();
    });
  },
  { name: 'request-context' },
);
