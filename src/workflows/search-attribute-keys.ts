import { SearchAttributeType, defineSearchAttributeKey } from '@temporalio/common';

/** The custom search attributes of Vigil runs (registered at server start by src/temporal/search-attributes.ts). */
export const ORGANIZATION_ID = defineSearchAttributeKey('VigilOrganizationId', SearchAttributeType.KEYWORD);
export const RESOURCE_KIND = defineSearchAttributeKey('VigilResourceKind', SearchAttributeType.KEYWORD);
export const RESOURCE_ID = defineSearchAttributeKey('VigilResourceId', SearchAttributeType.KEYWORD);
/** SLA statement runs: the contract, the period and where the current revision stands. */
export const SLA_CONTRACT = defineSearchAttributeKey('VigilSlaContract', SearchAttributeType.KEYWORD);
export const SLA_PERIOD = defineSearchAttributeKey('VigilSlaPeriod', SearchAttributeType.KEYWORD);
export const SLA_STATE = defineSearchAttributeKey('VigilSlaState', SearchAttributeType.KEYWORD);
export const SLA_REVISION = defineSearchAttributeKey('VigilSlaRevision', SearchAttributeType.INT);

/** Alert runs: the rule, the subject and where the alert stands (upserted as it changes). */
export const ALERT_RULE = defineSearchAttributeKey('VigilAlertRule', SearchAttributeType.KEYWORD);
export const ALERT_SUBJECT = defineSearchAttributeKey('VigilAlertSubject', SearchAttributeType.KEYWORD);
export const ALERT_STATE = defineSearchAttributeKey('VigilAlertState', SearchAttributeType.KEYWORD);

export const ALL_SEARCH_ATTRIBUTE_KEYS = [
  ORGANIZATION_ID,
  RESOURCE_KIND,
  RESOURCE_ID,
  SLA_CONTRACT,
  SLA_PERIOD,
  SLA_STATE,
  SLA_REVISION,
  ALERT_RULE,
  ALERT_SUBJECT,
  ALERT_STATE,
];

/** What an alert run carries from its start (the state is upserted as it changes). */
export function alertSearchAttributes(organizationId: string, ruleId: string, subjectId: string) {
  return [
    { key: ORGANIZATION_ID, value: organizationId },
    { key: RESOURCE_KIND, value: 'alert' },
    { key: RESOURCE_ID, value: `${ruleId}:${subjectId}` },
    { key: ALERT_RULE, value: ruleId },
    { key: ALERT_SUBJECT, value: subjectId },
    { key: ALERT_STATE, value: 'evaluating' },
  ];
}

/** What an SLA statement run carries from its start (state and revision are upserted as they change). */
export function slaStatementSearchAttributes(organizationId: string, contractId: string, period: string) {
  return [
    { key: ORGANIZATION_ID, value: organizationId },
    { key: RESOURCE_KIND, value: 'sla_statement' },
    { key: RESOURCE_ID, value: `${contractId}:${period}` },
    { key: SLA_CONTRACT, value: contractId },
    { key: SLA_PERIOD, value: period },
    { key: SLA_STATE, value: 'draft' },
    { key: SLA_REVISION, value: 1 },
  ];
}

export { slaStatementWorkflowId } from '../domain/workflow-ids';
