import type { FastifyPluginAsync } from 'fastify';
import { ProblemError } from '../../../domain/error-catalog';
import {
  type CustomerFormValues,
  EMPTY_CUSTOMER_FORM,
  customerDeleteBody,
  customerFormBody,
  customerHref,
  customerListBody,
  customerReadBody,
} from '../../../render/console/pages/customers';
import {
  createCustomer,
  deleteCustomer,
  getCustomer,
  listCustomers,
  updateCustomer,
} from '../../../usecases/sla/customers';
import { CustomerCreateBody, CustomerPatchBody, presentCustomer } from '../../schemas/customers';
import { redirectWithFlash, requireScope, sendPage } from '../context';
import type { ConsoleDeps } from '../deps';
import { attempt, field, flashOf, listQuery, validated } from '../forms';

const NAV = '/console/customers';
type IdRequest = { Params: { id: string } };

function formValues(body: unknown): CustomerFormValues {
  return {
    name: field(body, 'name'),
    external_id: field(body, 'external_id'),
    contact_email: field(body, 'contact_email').trim(),
  };
}

/** The API body: empty optional fields are null (the API's "clear"). */
function inputOf(x: CustomerFormValues) {
  return {
    name: x.name,
    external_id: x.external_id.trim() ? x.external_id : null,
    contact_email: x.contact_email || null,
  };
}

/** Customers: list, create, edit, delete (API: /v1/customers, read:config / write:config). */
export const customerPages: FastifyPluginAsync<ConsoleDeps> = async (app) => {
  app.get('/customers', async (request, reply) => {
    const v = requireScope(request, 'read:config');
    const page = await listCustomers(v.ctx, listQuery(request.query, 50));
    return sendPage(reply, v, NAV, {
      title: 'Customers',
      flash: flashOf(request.query),
      body: customerListBody(page.items.map(presentCustomer), page.nextCursor, v.can('write:config'), v.timeZone),
    });
  });

  app.get('/customers/new', async (request, reply) => {
    const v = requireScope(request, 'write:config');
    return sendPage(reply, v, NAV, {
      title: 'New customer',
      body: customerFormBody({ csrf: v.csrf, values: EMPTY_CUSTOMER_FORM }),
    });
  });

  app.post('/customers/new', async (request, reply) => {
    const v = requireScope(request, 'write:config');
    const values = formValues(request.body);
    const r = await attempt(() => createCustomer(v.ctx, validated(CustomerCreateBody, inputOf(values))));
    if (!r.ok)
      return sendPage(
        reply,
        v,
        NAV,
        { title: 'New customer', body: customerFormBody({ csrf: v.csrf, values, problem: r.problem }) },
        r.status,
      );
    return redirectWithFlash(reply, customerHref(r.value.id), `Customer "${r.value.name}" created.`);
  });

  app.get<IdRequest>('/customers/:id', async (request, reply) => {
    const v = requireScope(request, 'read:config');
    const c = presentCustomer(await getCustomer(v.ctx, request.params.id));
    const values = { name: c.name, external_id: c.external_id ?? '', contact_email: c.contact_email ?? '' };
    const body = v.can('write:config')
      ? customerFormBody({ csrf: v.csrf, values, existing: c })
      : customerReadBody(c, v.timeZone);
    return sendPage(reply, v, NAV, { title: `Customer: ${c.name}`, flash: flashOf(request.query), body });
  });

  app.post<IdRequest>('/customers/:id', async (request, reply) => {
    const v = requireScope(request, 'write:config');
    const c = presentCustomer(await getCustomer(v.ctx, request.params.id));
    const values = formValues(request.body);
    const r = await attempt(() => updateCustomer(v.ctx, c.id, validated(CustomerPatchBody, inputOf(values))));
    if (!r.ok) {
      if (r.status === 404) throw new ProblemError('not_found', r.problem.detail);
      return sendPage(
        reply,
        v,
        NAV,
        {
          title: `Customer: ${c.name}`,
          body: customerFormBody({ csrf: v.csrf, values, existing: c, problem: r.problem }),
        },
        r.status,
      );
    }
    return redirectWithFlash(
      reply,
      customerHref(c.id),
      c.config_key
        ? 'Customer saved. It is managed by config as code: the next apply overwrites this edit.'
        : 'Customer saved.',
    );
  });

  app.get<IdRequest>('/customers/:id/delete', async (request, reply) => {
    const v = requireScope(request, 'write:config');
    const customer = presentCustomer(await getCustomer(v.ctx, request.params.id));
    return sendPage(reply, v, NAV, {
      title: `Delete ${customer.name}?`,
      body: customerDeleteBody({ csrf: v.csrf, customer }),
    });
  });

  app.post<IdRequest>('/customers/:id/delete', async (request, reply) => {
    const v = requireScope(request, 'write:config');
    const customer = presentCustomer(await getCustomer(v.ctx, request.params.id));
    const r = await attempt(() => deleteCustomer(v.ctx, customer.id));
    if (r.ok) return redirectWithFlash(reply, NAV, `Customer "${customer.name}" deleted.`);
    return sendPage(
      reply,
      v,
      NAV,
      { title: `Delete ${customer.name}?`, body: customerDeleteBody({ csrf: v.csrf, customer, problem: r.problem }) },
      r.status,
    );
  });
};
