import { SearchAttributeType, defineSearchAttributeKey } from '@temporalio/common';

const ORG = defineSearchAttributeKey('VigilOrganizationId', SearchAttributeType.KEYWORD);
const KIND = defineSearchAttributeKey('VigilResourceKind', SearchAttributeType.KEYWORD);
const RESOURCE = defineSearchAttributeKey('VigilResourceId', SearchAttributeType.KEYWORD);

/** What lets runs be filtered per organization and resource in the Temporal UI (registered at server start). */
export function searchAttributes(organizationId: string, kind: string, resourceId: string) {
  return [
    { key: ORG, value: organizationId },
    { key: KIND, value: kind },
    { key: RESOURCE, value: resourceId },
  ];
}
