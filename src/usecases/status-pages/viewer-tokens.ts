import { SignJWT, decodeProtectedHeader, importSPKI, jwtVerify } from 'jose';
import { CustomerSchema, type StatusPage } from '../../db/entities';
import type { SecretBox } from '../../crypto/secret-box';
import type { EntityManager } from '@mikro-orm/postgresql';
import { isUuid } from '../../domain/ids';
import type { OrgContext } from '../shared/context';
import { assertCustomersExist } from '../shared/org-refs';
import { getStatusPage } from './pages';
import { OWN_KEY_ALGORITHMS } from './viewer-keys';

export const VIEWER_TTL_DEFAULT_S = 3_600;
export const VIEWER_TTL_MAX_S = 30 * 86_400;

/** The `aud` a viewer token must carry: it opens this page and no other. */
export const viewerAudience = (pageId: string) => `vigil:status-page:${pageId}`;

export interface Viewer {
  customer_id: string;
  customer_name: string;
}

export async function signViewerToken(
  page: StatusPage,
  box: SecretBox,
  customerId: string,
  now: Date,
  ttlSeconds: number,
): Promise<{ token: string; expiresAt: Date }> {
  const iat = Math.floor(now.getTime() / 1000);
  const token = await new SignJWT({ customer_id: customerId })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuer('vigil')
    .setAudience(viewerAudience(page.id))
    .setIssuedAt(iat)
    .setExpirationTime(iat + ttlSeconds)
    .sign(Buffer.from(box.open(page.sealedViewerSecret), 'utf8'));
  return { token, expiresAt: new Date((iat + ttlSeconds) * 1000) };
}

/** Mints a viewer token of the organization's page for one of its live customers (400 unknown_customers otherwise). */
export async function mintViewerToken(
  ctx: OrgContext,
  box: SecretBox,
  pageId: string,
  input: { customer_id: string; ttl_seconds: number },
) {
  const page = await getStatusPage(ctx, pageId);
  await assertCustomersExist(ctx, [input.customer_id], 'customer_id');
  return { page, ...(await signViewerToken(page, box, input.customer_id, ctx.now, input.ttl_seconds)) };
}

/**
 * The customer a viewer token signs in, or null for anything else: expired, for another page,
 * badly signed, naming a customer of another organization or a deleted one. A token that does
 * not verify falls back to the public view; it is never an error page.
 */
export async function verifyViewerToken(
  em: EntityManager,
  page: StatusPage,
  box: SecretBox,
  token: string,
  now: Date,
): Promise<Viewer | null> {
  let claims: Record<string, unknown>;
  try {
    const { alg } = decodeProtectedHeader(token);
    const options = { audience: viewerAudience(page.id), currentDate: now, requiredClaims: ['exp'] };
    if (alg === 'HS256') {
      claims = (
        await jwtVerify(token, Buffer.from(box.open(page.sealedViewerSecret), 'utf8'), {
          ...options,
          algorithms: ['HS256'],
        })
      ).payload;
    } else if (page.viewerPublicKey && (OWN_KEY_ALGORITHMS as readonly string[]).includes(alg ?? '')) {
      const key = await importSPKI(page.viewerPublicKey, alg!);
      claims = (await jwtVerify(token, key, { ...options, algorithms: [alg!] })).payload;
    } else return null;
  } catch {
    return null;
  }
  const customerId = claims.customer_id;
  if (typeof customerId !== 'string' || !isUuid(customerId)) return null;
  const customer = await em.findOne(
    CustomerSchema,
    { id: customerId, organization: page.organization, deletedAt: null },
    { fields: ['id', 'name'] },
  );
  return customer ? { customer_id: customer.id, customer_name: customer.name } : null;
}
