import { Migration } from '@mikro-orm/migrations';

/**
 * An API key may carry an expiry. Past `expires_at` the key answers 401 like a revoked
 * one; null (every existing key) never expires. The time is fixed at creation, so the change
 * notifications that invalidate cached keys need not watch it: the check runs on every request.
 */
export class Migration20261127020000ApiKeyExpiry extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table api_keys add column expires_at timestamptz(3) null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table api_keys drop column expires_at;`);
  }
}
