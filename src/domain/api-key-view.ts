/** A key as the console shows it: never its hash, and its secret only once, on creation. */
export interface ApiKeyView {
  id: string;
  name: string;
  prefix: string;
  scopes: string[];
  created_at: string;
  expires_at: string | null;
  last_used_at: string | null;
  revoked_at: string | null;
  /** Derived: revoked wins over expired. */
  state: 'active' | 'expired' | 'revoked';
}
