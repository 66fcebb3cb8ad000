import type { ConfigKind } from '../../domain/config/kinds';
import type { Fields, PlanAction, PlannedChange } from '../../domain/config/plan';
import type { FieldError } from '../../domain/error-catalog';
import type { RowOf } from './records';
import type { Snapshot } from './snapshot';

/** One item of the plan: what the document asks of it and what the apply will do. */
export interface ItemPlan<K extends ConfigKind = ConfigKind> {
  kind: K;
  key: string | null;
  /** The item's id: its own, or the one planned for a create. */
  id: string;
  action: PlanAction;
  existing: RowOf[K] | null;
  /** What the item will hold, references as ids (null for a delete). */
  record: Fields | null;
  /** Whether an item created outside config as code takes the document's config_key. */
  adopts: boolean;
  /** Its position in the document's section (null for a delete). */
  index: number | null;
  diff: PlannedChange['diff'];
}

export interface ConfigPlan {
  items: ItemPlan[];
  warnings: FieldError[];
  snapshot: Snapshot;
}
