import { Migration } from '@mikro-orm/migrations';
import { REASON_CODE_CLASSES, VARIABLE_REASON_CLASSES } from '../../domain/reason-class';

/**
 * What a reading means for availability, and where a sample came from.
 * - `reason_class` (`target` | `measurement`, null when the reading has a value) on samples, on
 *   the metric's latest outcome and on status flips: a `no_data` reading with a `target` reason
 *   counts as down. Existing `no_data` rows get the class of their reason (none: `no_data`) from
 *   the domain table; other rows keep none.
 * - `received_at` on samples: when the service stored it (null for samples stored before this
 *   migration), so statements can tell evidence that arrived after their period ended.
 * - `imported` on samples: stored through POST /v1/metrics/{id}/samples/import.
 */
export class Migration20261126000000ReasonClasses extends Migration {
  override async up(): Promise<void> {
    const targetCodes = Object.entries(REASON_CODE_CLASSES)
      .filter(([, c]) => c === 'target')
      .map(([code]) => `'${code}'`)
      .join(', ');
    // readingReasonClass: only a no_data reading has a class, and one without a reason is `no_data` (a measurement gap).
    const reason = `coalesce(reason, 'no_data')`;
    const targetPrefixes = Object.entries(VARIABLE_REASON_CLASSES)
      .filter(([, c]) => c === 'target')
      .map(([p]) => `${reason} like '${p}:%'`)
      .join(' or ');
    const classOf = `case when ${reason} in (${targetCodes}) or ${targetPrefixes || 'false'} then 'target' else 'measurement' end`;
    this.addSql(
      `alter table metric_samples add column reason_class varchar(16) null, add column received_at timestamptz(3) null, add column imported boolean not null default false;`,
    );
    this.addSql(`alter table metrics add column reason_class varchar(16) null;`);
    this.addSql(`alter table metric_status_flips add column reason_class varchar(16) null;`);
    this.addSql(`update metric_samples set reason_class = ${classOf} where status = 'no_data';`);
    this.addSql(`update metrics set reason_class = ${classOf} where status = 'no_data';`);
    this.addSql(`update metric_status_flips set reason_class = ${classOf} where to_status = 'no_data';`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table metric_status_flips drop column reason_class;`);
    this.addSql(`alter table metrics drop column reason_class;`);
    this.addSql(`alter table metric_samples drop column imported, drop column received_at, drop column reason_class;`);
  }
}
