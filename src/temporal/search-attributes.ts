import { Connection } from '@temporalio/client';
import { encodeSearchAttributeIndexedValueType } from '@temporalio/common/lib/search-attributes';
import {
  ALL_SEARCH_ATTRIBUTE_KEYS,
  ORGANIZATION_ID,
  RESOURCE_ID,
  RESOURCE_KIND,
} from '../workflows/search-attribute-keys';

const CLI_TYPE_NAMES: Readonly<Record<string, string>> = { KEYWORD: 'Keyword', INT: 'Int' };

/** The custom search attributes every Vigil run may carry, by name and type as the Temporal CLI spells it. */
export const VIGIL_SEARCH_ATTRIBUTES: Record<string, string> = Object.fromEntries(
  ALL_SEARCH_ATTRIBUTE_KEYS.map((k) => [k.name, CLI_TYPE_NAMES[k.type] ?? k.type]),
);

/** What lets runs be filtered per organization and resource in the Temporal UI (registered at server start). */
export function searchAttributes(organizationId: string, kind: string, resourceId: string) {
  return [
    { key: ORGANIZATION_ID, value: organizationId },
    { key: RESOURCE_KIND, value: kind },
    { key: RESOURCE_ID, value: resourceId },
  ];
}

/** Adds the attributes a namespace lacks, on any Temporal server (idempotent; races with another process are fine). */
export async function registerSearchAttributes(address: string, namespace: string): Promise<void> {
  const connection = await Connection.connect({ address });
  try {
    const { customAttributes } = await connection.operatorService.listSearchAttributes({ namespace });
    const missing = ALL_SEARCH_ATTRIBUTE_KEYS.filter((k) => customAttributes?.[k.name] === undefined);
    if (missing.length === 0) return;
    const searchAttributes = Object.fromEntries(
      missing.map((k) => {
        const type = encodeSearchAttributeIndexedValueType(k.type);
        if (type === undefined) throw new Error(`cannot encode the ${k.type} search attribute type`);
        return [k.name, type];
      }),
    );
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
