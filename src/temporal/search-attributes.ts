import { Connection } from '@temporalio/client';
import { SearchAttributeType, defineSearchAttributeKey } from '@temporalio/common';
import { encodeSearchAttributeIndexedValueType } from '@temporalio/common/lib/search-attributes';

/** The custom search attributes every Vigil run carries (all keywords). */
export const VIGIL_SEARCH_ATTRIBUTES: Record<string, 'Keyword'> = {
  VigilOrganizationId: 'Keyword',
  VigilResourceKind: 'Keyword',
  VigilResourceId: 'Keyword',
};

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

/** Adds the attributes a namespace lacks, on any Temporal server (idempotent; races with another process are fine). */
export async function registerSearchAttributes(address: string, namespace: string): Promise<void> {
  const connection = await Connection.connect({ address });
  try {
    const { customAttributes } = await connection.operatorService.listSearchAttributes({ namespace });
    const missing = Object.keys(VIGIL_SEARCH_ATTRIBUTES).filter((name) => customAttributes?.[name] === undefined);
    if (missing.length === 0) return;
    const keyword = encodeSearchAttributeIndexedValueType('KEYWORD');
    if (keyword === undefined) throw new Error('cannot encode the KEYWORD search attribute type');
    const searchAttributes = Object.fromEntries(missing.map((name) => [name, keyword]));
    try {
      await connection.operatorService.addSearchAttributes({ namespace, searchAttributes });
    } catch (err) {
      // gRPC ALREADY_EXISTS (6): another process registered them between our list and add.
      if ((err as { code?: number }).code !== 6 && !/already exists/i.test(String(err))) throw err;
    }
  } finally {
    await connection.close();
  }
}
