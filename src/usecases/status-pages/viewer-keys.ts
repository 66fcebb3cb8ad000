import { importSPKI } from 'jose';
import { ProblemError } from '../../domain/error-catalog';

/** Algorithms an organization may sign viewer tokens with using its own key (viewer_public_key). */
export const OWN_KEY_ALGORITHMS = ['RS256', 'PS256', 'ES256', 'EdDSA'] as const;

/** Rejects a PEM that is not a usable SPKI public key for any of the accepted algorithms. */
export async function assertViewerPublicKey(pem: string | null | undefined, path = 'viewer_public_key'): Promise<void> {
  if (!pem) return;
  for (const alg of OWN_KEY_ALGORITHMS) {
    try {
      await importSPKI(pem, alg);
      return;
    } catch {
      // try the next algorithm
    }
  }
  throw new ProblemError(
    'validation_failed',
    'viewer_public_key is not a PEM public key (SPKI) for RS256, PS256, ES256 or EdDSA.',
    {
      errors: [
        { path, message: 'Expected "-----BEGIN PUBLIC KEY-----" PEM for an RSA (2048+ bits), P-256 or Ed25519 key' },
      ],
    },
  );
}
