import { Migration } from '@mikro-orm/migrations';

/** Each console user's time zone (IANA); null reads times in the browser's zone. */
export class Migration20261127030000ConsoleTimeZone extends Migration {
  override async up(): Promise<void> {
    this.addSql('alter table console_users add column time_zone varchar(64) null;');
  }

  override async down(): Promise<void> {
    this.addSql('alter table console_users drop column time_zone;');
  }
}
