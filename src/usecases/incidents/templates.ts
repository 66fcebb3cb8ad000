import { randomUUID } from 'node:crypto';
import { type IncidentTemplate, IncidentTemplateSchema } from '../../db/entities';
import { type ImpactMap, type ServiceImpact, impactMap, serviceImpacts } from '../../domain/incident-impact';
import type { MessageType, Severity } from '../../domain/incident-state';
import { toIso, toIsoOrNull } from '../../domain/time';
import type { OrgContext } from '../shared/context';
import { findLive, listLive, softDelete } from '../shared/org-resources';
import { affectedWithImpacts } from './incidents';

/** A prepared incident. Starting one from it is the console's prefilled new-incident form. */
export interface IncidentTemplateInput {
  name: string;
  title: string;
  body?: string | null;
  severity?: Severity;
  message_type?: MessageType;
  affected_services?: string[];
  service_impacts?: ServiceImpact[];
}

export type IncidentTemplatePatch = Partial<IncidentTemplateInput>;

export interface IncidentTemplateView {
  id: string;
  name: string;
  title: string;
  body: string | null;
  severity: Severity;
  message_type: MessageType;
  affected_services: string[];
  service_impacts: ServiceImpact[];
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
}

export function incidentTemplateView(t: IncidentTemplate): IncidentTemplateView {
  return {
    id: t.id,
    name: t.name,
    title: t.title,
    body: t.body ?? null,
    severity: t.severity as Severity,
    message_type: t.messageType as MessageType,
    affected_services: t.affectedServices,
    service_impacts: serviceImpacts(t.affectedServices, t.serviceImpacts, t.severity),
    created_at: toIso(t.createdAt),
    updated_at: toIso(t.updatedAt),
    deleted_at: toIsoOrNull(t.deletedAt),
  };
}

/** Affected services with the ones only the impacts name, all live services of the organization; and the chosen impacts. */
async function servicesAndImpacts(
  ctx: OrgContext,
  affected: string[],
  impacts: readonly ServiceImpact[] | undefined,
): Promise<{ services: string[]; chosen: ImpactMap }> {
  const services = await affectedWithImpacts(ctx, [...new Set(affected)], impacts);
  return { services, chosen: impactMap(impacts ?? [], services) };
}

export async function createIncidentTemplate(
  ctx: OrgContext,
  input: IncidentTemplateInput,
): Promise<IncidentTemplateView> {
  const { services, chosen } = await servicesAndImpacts(ctx, input.affected_services ?? [], input.service_impacts);
  const t = ctx.em.create(IncidentTemplateSchema, {
    id: randomUUID(),
    organization: ctx.org.id,
    name: input.name,
    title: input.title,
    body: input.body ?? null,
    severity: input.severity ?? 'minor',
    messageType: input.message_type ?? 'Investigating',
    affectedServices: services,
    serviceImpacts: chosen,
    createdAt: ctx.now,
    updatedAt: ctx.now,
    deletedAt: null,
  });
  await ctx.em.flush();
  return incidentTemplateView(t);
}

export async function getIncidentTemplate(ctx: OrgContext, id: string): Promise<IncidentTemplateView> {
  return incidentTemplateView(await findLive(ctx, IncidentTemplateSchema, id, 'Incident template'));
}

export async function listIncidentTemplates(
  ctx: OrgContext,
  query: { limit: number; cursor?: string },
): Promise<{ items: IncidentTemplateView[]; nextCursor: string | null }> {
  const page = await listLive(ctx, IncidentTemplateSchema, query);
  return { items: page.items.map(incidentTemplateView), nextCursor: page.nextCursor };
}

/** Changes the fields sent; `service_impacts` replaces the chosen impacts, and without it they are kept for the services still affected. */
export async function updateIncidentTemplate(
  ctx: OrgContext,
  id: string,
  patch: IncidentTemplatePatch,
): Promise<IncidentTemplateView> {
  const t = await findLive(ctx, IncidentTemplateSchema, id, 'Incident template');
  if (patch.affected_services !== undefined || patch.service_impacts !== undefined) {
    const affected = patch.affected_services ?? t.affectedServices;
    const still = new Set(affected.map((s) => s.toLowerCase()));
    const kept = Object.entries(t.serviceImpacts).flatMap(([service_id, impact]) =>
      still.has(service_id) ? [{ service_id, impact }] : [],
    );
    const { services, chosen } = await servicesAndImpacts(ctx, affected, patch.service_impacts ?? kept);
    t.affectedServices = services;
    t.serviceImpacts = chosen;
  }
  if (patch.name !== undefined) t.name = patch.name;
  if (patch.title !== undefined) t.title = patch.title;
  if (patch.body !== undefined) t.body = patch.body;
  if (patch.severity !== undefined) t.severity = patch.severity;
  if (patch.message_type !== undefined) t.messageType = patch.message_type;
  t.updatedAt = ctx.now;
  await ctx.em.flush();
  return incidentTemplateView(t);
}

/** Soft delete; repeating it answers the same deleted template. */
export async function deleteIncidentTemplate(ctx: OrgContext, id: string): Promise<IncidentTemplateView> {
  return incidentTemplateView(await softDelete(ctx, IncidentTemplateSchema, id, 'Incident template'));
}

/** A live template for the console's forms, with which services' impacts it chose (the others follow the severity). */
export async function incidentTemplateForForm(
  ctx: OrgContext,
  id: string,
): Promise<IncidentTemplateView & { chosen_impacts: string[] }> {
  const t = await findLive(ctx, IncidentTemplateSchema, id, 'Incident template');
  const chosen = new Set(Object.keys(t.serviceImpacts));
  return { ...incidentTemplateView(t), chosen_impacts: t.affectedServices.filter((s) => chosen.has(s.toLowerCase())) };
}
