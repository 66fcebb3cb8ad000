import { Migration } from '@mikro-orm/migrations';

const TABLES = ['metrics', 'status_pages', 'webhook_subscriptions', 'customers', 'contracts'] as const;

/**
 * Config as code: every kind a configuration document manages carries a `config_key`,
 * unique among the organization's live items of that kind. SLOs had the column without the
 * index; a duplicate key there (possible before) stays on the oldest SLO and is cleared on the
 * others, which then count as created outside config as code.
 */
export class Migration20261124200000ConfigKeys extends Migration {
  override async up(): Promise<void> {
    for (const t of TABLES) this.addSql(`alter table ${t} add column config_key varchar(100) null;`);
    this.addSql(`update slos s set config_key = null
      where s.config_key is not null and s.deleted_at is null and exists (
        select 1 from slos o where o.organization_id = s.organization_id and o.config_key = s.config_key and o.deleted_at is null
          and (o.created_at, o.id) < (s.created_at, s.id));`);
    for (const t of [...TABLES, 'slos']) {
      this.addSql(
        `create unique index ${t}_live_config_key_unique on ${t} (organization_id, config_key) where deleted_at is null and config_key is not null;`,
      );
    }
  }

  override async down(): Promise<void> {
    this.addSql('drop index if exists slos_live_config_key_unique;');
    for (const t of TABLES) {
      this.addSql(`drop index if exists ${t}_live_config_key_unique;`);
      this.addSql(`alter table ${t} drop column config_key;`);
    }
  }
}
