import { Migration } from '@mikro-orm/migrations';

/**
 * `write:change_events` is no scope any more (spec §5): change events are written with
 * `write:incidents` and read with `read:incidents`, and `read:change_events` stays a reserved scope
 * no route needs. Stored keys lose the retired name; keys that carried it keep every other scope
 * (a key that posted change events with it now needs `write:incidents`). Keys are not revoked.
 * `down` cannot know which keys had it, so it changes nothing.
 */
export class Migration20261124000000ChangeEventScopes extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `update api_keys set scopes = array_remove(scopes, 'write:change_events') where 'write:change_events' = any(scopes);`,
    );
  }

  override async down(): Promise<void> {
    // Irreversible by design: the retired scope is not put back on any key.
  }
}
