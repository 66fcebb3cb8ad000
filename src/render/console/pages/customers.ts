import { esc } from '../../html';
import { exportLink, managedMarker, managedNotice } from '../config-as-code';
import { type FormProblem, csrfField, inputField, problemBox } from '../forms';
import { facts, link, pager, table, zonedTime } from '../parts';

export interface ConsoleCustomer {
  id: string;
  name: string;
  config_key: string | null;
  external_id: string | null;
  contact_email: string | null;
  created_at: string;
}

export interface CustomerFormValues {
  name: string;
  external_id: string;
  contact_email: string;
}

export const EMPTY_CUSTOMER_FORM: CustomerFormValues = { name: '', external_id: '', contact_email: '' };

export const customerHref = (id: string) => `/console/customers/${encodeURIComponent(id)}`;

const dash = '<span class="muted">—</span>';

export function customerListBody(
  items: ConsoleCustomer[],
  nextCursor: string | null,
  canWrite: boolean,
  zone: string,
): string {
  const rows = items.map((c) => [
    `${link(customerHref(c.id), c.name)}${managedMarker(c.config_key)}`,
    c.external_id ? `<code>${esc(c.external_id)}</code>` : dash,
    c.contact_email ? esc(c.contact_email) : dash,
    zonedTime(c.created_at, zone),
  ]);
  const create = canWrite
    ? '<p class="actions"><a class="button" href="/console/customers/new">New customer</a></p>'
    : '';
  return `${create}${exportLink('customer')}
${table(['Name', 'External id', 'Contact email', 'Created'], rows, 'No customers yet.')}
${pager('/console/customers', nextCursor)}`;
}

/** Create (`existing` null) or edit a customer. */
export function customerFormBody(o: {
  csrf: string;
  values: CustomerFormValues;
  problem?: FormProblem | null;
  existing?: ConsoleCustomer | null;
}): string {
  const { values: x, problem: p, existing } = o;
  const action = existing ? customerHref(existing.id) : '/console/customers/new';
  return `${existing ? managedNotice(existing.config_key) : ''}
<p><a href="/console/customers">All customers</a></p>
${problemBox(p, ['name', 'external_id', 'contact_email'])}
<form class="stack publishing-form" method="post" action="${esc(action)}">
${csrfField(o.csrf)}
${inputField({ name: 'name', label: 'Name', value: x.name, problem: p, required: true })}
${inputField({ name: 'external_id', label: 'External id (optional)', value: x.external_id, problem: p, hint: "The customer's id in your own systems." })}
${inputField({ name: 'contact_email', label: 'Contact email (optional)', value: x.contact_email, problem: p, type: 'email', hint: 'Where SLA statements go when a contract names no billing email.' })}
<div class="actions"><button type="submit">${existing ? 'Save changes' : 'Create customer'}</button></div>
</form>
${existing ? `<p><a class="danger-link" href="${esc(customerHref(existing.id))}/delete">Delete this customer…</a></p>` : ''}`;
}

/** A customer as a reader sees it. */
export function customerReadBody(c: ConsoleCustomer, zone: string): string {
  return `${managedNotice(c.config_key)}
<p><a href="/console/customers">All customers</a></p>
${facts([
  ['Name', esc(c.name)],
  ['External id', c.external_id ? `<code>${esc(c.external_id)}</code>` : dash],
  ['Contact email', c.contact_email ? esc(c.contact_email) : dash],
  ['Created', zonedTime(c.created_at, zone)],
])}`;
}

export function customerDeleteBody(o: {
  csrf: string;
  customer: ConsoleCustomer;
  problem?: FormProblem | null;
}): string {
  const c = o.customer;
  return `${managedNotice(c.config_key)}
${problemBox(o.problem)}
<p>Delete the customer <strong>${esc(c.name)}</strong>? It leaves every list at once (a soft delete, as the API's).</p>
<form class="actions" method="post" action="${esc(customerHref(c.id))}/delete">${csrfField(o.csrf)}<button type="submit" class="danger">Delete customer</button> <a href="${esc(customerHref(c.id))}">Keep it</a></form>`;
}
