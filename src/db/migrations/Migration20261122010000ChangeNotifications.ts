import { Migration } from '@mikro-orm/migrations';

/**
 * Every write to a table that API instances cache announces itself on the `vigil_changes`
 * channel, from inside the writing transaction (delivered on commit, whoever wrote: the API, the
 * CLI, a worker or a person with psql). Payload: {"t": table, "o": organization id, "k": key hash}.
 */
export class Migration20261122010000ChangeNotifications extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create or replace function vigil_notify_change() returns trigger language plpgsql as $$
      declare
        r record;
      begin
        if tg_op = 'DELETE' then r := old; else r := new; end if;
        if tg_table_name = 'organizations' then
          perform pg_notify('vigil_changes', json_build_object('t', tg_table_name, 'o', r.id)::text);
        elsif tg_table_name = 'api_keys' then
          perform pg_notify('vigil_changes', json_build_object('t', tg_table_name, 'o', r.organization_id, 'k', r.key_hash)::text);
        else
          perform pg_notify('vigil_changes', json_build_object('t', tg_table_name, 'o', r.organization_id)::text);
        end if;
        return null;
      end $$;`);
    // last_used_at is bookkeeping, not something a cache depends on: it does not notify.
    this.addSql(`
      create trigger api_keys_notify_change after insert or delete or update of organization_id, key_hash, scopes, revoked_at
      on api_keys for each row execute function vigil_notify_change();`);
    for (const table of ['organizations', 'services', 'customers']) {
      this.addSql(
        `create trigger ${table}_notify_change after insert or update or delete on ${table} for each row execute function vigil_notify_change();`,
      );
    }
  }

  override async down(): Promise<void> {
    for (const table of ['api_keys', 'organizations', 'services', 'customers']) {
      this.addSql(`drop trigger if exists ${table}_notify_change on ${table};`);
    }
    this.addSql('drop function if exists vigil_notify_change();');
  }
}
