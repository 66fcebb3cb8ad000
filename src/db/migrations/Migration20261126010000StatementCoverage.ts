import { Migration } from '@mikro-orm/migrations';

/**
 * A statement's coverage (minutes with a measured status, and whether it reaches the
 * contract's min_coverage_pct) beside its document, so lists show it without reading the signed
 * bytes. Null for statements drafted before coverage was recorded (their documents have none).
 */
export class Migration20261126010000StatementCoverage extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table sla_statements add column coverage jsonb null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table sla_statements drop column coverage;`);
  }
}
