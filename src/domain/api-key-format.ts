export const API_KEY_PREFIX = 'vgl_pub_';
const KEY_SHAPE = /^vgl_pub_[0-9A-Za-z]{32,64}$/;

/** Cheap shape check before any lookup: tokens that cannot be keys are rejected without a query. */
export function looksLikeApiKey(token: string): boolean {
  return KEY_SHAPE.test(token);
}
