import type { AlertDeps } from '../../src/activities/alerts';
import type { Mailer } from '../../src/infra/mailer';
import { testSecretBox } from './env';
import { publicOnlyPoster } from '../../src/infra/webhook-http';

/** Where the one-click links point in tests; a test opens them on the API's real address. */
export const TEST_PUBLIC_BASE = 'http://127.0.0.1:1';
/** A vendor endpoint nothing listens on: a test that needs PagerDuty or Opsgenie names its own receiver. */
const NOWHERE = 'http://127.0.0.1:9';

/**
 * A worker's alert notification settings for a test: loopback receivers allowed, links signed with
 * `linkKey` for TEST_PUBLIC_BASE, an escalation "minute" of `minuteMs`.
 */
export function testAlertDeps(o: {
  mailer: Mailer | null;
  linkKey: Buffer;
  minuteMs?: number;
  endpoints?: AlertDeps['endpoints'];
}): AlertDeps {
  return {
    box: testSecretBox(),
    mailer: o.mailer,
    endpoints: o.endpoints ?? { pagerdutyEventsUrl: NOWHERE, opsgenieApiUrl: NOWHERE, opsgenieEuApiUrl: NOWHERE },
    timeoutMs: 3_000,
    poster: publicOnlyPoster('127.0.0.0/8'),
    publicBaseUrl: TEST_PUBLIC_BASE,
    linkKey: o.linkKey,
    minuteMs: o.minuteMs ?? 300,
  };
}
