/**
 * What an incident drafted from a metric or an alert tells customers: the service, that it is
 * being looked into, since when (in the status page's zone). No metric names, reason codes,
 * votes, locations or ISO timestamps: those go to the incident's internal note.
 *
 * The words live here only, one template per language, so a language is one more entry.
 * Vigil has no language setting yet: every draft is English.
 */

export const WORDING_LANGUAGES = ['en'] as const;
export type WordingLanguage = (typeof WORDING_LANGUAGES)[number];

/** What customers notice: the service does not work (outage) or works badly (degraded). */
export type CustomerImpact = 'outage' | 'degraded';

interface Template {
  title: (service: string, impact: CustomerImpact) => string;
  firstMessage: (service: string, impact: CustomerImpact, since: string) => string;
  /** "23:23 CET" the same day, "1 December, 23:23 CET" before it. */
  since: (time: string, day: string | null) => string;
  locale: string;
}

const TEMPLATES: Readonly<Record<WordingLanguage, Template>> = {
  en: {
    title: (service, impact) =>
      impact === 'degraded' ? `Degraded performance of ${service}` : `Problems with ${service}`,
    firstMessage: (service, impact, since) =>
      impact === 'degraded'
        ? `We are investigating degraded performance of ${service} since ${since}.`
        : `We are investigating problems with ${service} since ${since}.`,
    since: (time, day) => (day ? `${day}, ${time}` : time),
    locale: 'en-GB',
  },
};

export interface CustomerWordingInput {
  service: string;
  impact: CustomerImpact;
  since: Date;
  /** To say the day only when it is not today. */
  now: Date;
  /** IANA zone of the status page showing the service; an unknown zone reads as UTC. */
  timeZone: string;
  language?: WordingLanguage;
}

function formatter(locale: string, options: Intl.DateTimeFormatOptions, timeZone: string): Intl.DateTimeFormat {
  try {
    return new Intl.DateTimeFormat(locale, { ...options, timeZone });
  } catch {
    return new Intl.DateTimeFormat(locale, { ...options, timeZone: 'UTC' });
  }
}

/** The title and first message of a draft, in words a customer reads on the status page and in email. */
export function customerWording(i: CustomerWordingInput): { title: string; body: string } {
  const t = TEMPLATES[i.language ?? 'en'];
  const time = formatter(
    t.locale,
    { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZoneName: 'short' },
    i.timeZone,
  ).format(i.since);
  const dayOf = formatter(t.locale, { day: 'numeric', month: 'long' }, i.timeZone);
  const day = dayOf.format(i.since) === dayOf.format(i.now) ? null : dayOf.format(i.since);
  return {
    title: t.title(i.service, i.impact).slice(0, 300),
    body: t.firstMessage(i.service, i.impact, t.since(time, day)),
  };
}
