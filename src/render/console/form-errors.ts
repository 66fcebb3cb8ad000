/**
 * The API's validation errors (a JSON path and the schema's terse message, e.g. `title` "Too small:
 * expected string to have >=1 characters") as sentences a person reads next to a form field
 * ("Title cannot be empty"). The API itself keeps answering its tokens and paths; only the console
 * words them. Pure: the same error and label always give the same sentence.
 */

export interface FieldErrorItem {
  path: string;
  message: string;
}

/** Labels of the fields forms share, for a summary line whose field label the caller did not give. */
const KNOWN_LABELS: Record<string, string> = {
  body: 'Message',
  url: 'URL',
  api_key: 'API key',
  occurred_at: 'When',
  starts_at: 'Start',
  ends_at: 'End',
  scheduled_start_at: 'Start',
  scheduled_end_at: 'End',
  service_ids: 'Services',
  customer_ids: 'Customers',
  subject_id: 'Watching',
  escalation_policy_id: 'Escalation policy',
  service_id: 'Service',
};

/** A form label as a sentence's subject: "Starts at (UTC)" → "Starts at", "Description (optional)" → "Description". */
export function subjectOf(label: string): string {
  const bare = label.replace(/\s*\([^)]*\)\s*$/, '').trim();
  return bare || label.trim();
}

/** A label for a path no field named: its last named segment, in words ("links.0.url" → "URL", "repeat_count" → "Repeat count"). */
export function labelForPath(path: string): string {
  const segments = path
    .replace(/^body\./, '')
    .split('.')
    .filter((s) => s !== '' && !/^\d+$/.test(s));
  const last = segments[segments.length - 1] ?? '';
  if (!last) return 'The form';
  const known = KNOWN_LABELS[last];
  if (known) return known;
  const words = last
    .replace(/_ids?$/, '')
    .replace(/_at$/, '')
    .replace(/_/g, ' ')
    .trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

const count = (n: string, one: string, many: string) => `${n} ${n === '1' ? one : many}`;

/** Rules from the schema's message to a sentence about `s` (the field's subject). First match wins. */
const RULES: readonly [RegExp, (s: string, m: RegExpExecArray) => string][] = [
  [
    /^(Required\b.*|Invalid input: expected \w+, received (undefined|null)|Too small: expected string to have >=1 characters?|Must not be empty|Expected a non-empty string)$/i,
    (s) => `${s} cannot be empty`,
  ],
  [
    /^Too small: expected array to have >=(\d+) items?$/,
    (s, m) => (m[1] === '1' ? `${s}: choose at least one` : `${s}: choose at least ${m[1]}`),
  ],
  [/^Too big: expected array to have <=(\d+) items?$/, (s, m) => `${s} takes at most ${count(m[1]!, 'item', 'items')}`],
  [
    /^Too big: expected string to have <=(\d+) characters?$/,
    (s, m) => `${s} must be at most ${count(m[1]!, 'character', 'characters')}`,
  ],
  [
    /^Too small: expected string to have >=(\d+) characters?$/,
    (s, m) => `${s} must be at least ${count(m[1]!, 'character', 'characters')}`,
  ],
  [
    /^Too (?:small|big): expected string to have exactly (\d+) characters?$/,
    (s, m) => `${s} must be exactly ${count(m[1]!, 'character', 'characters')}`,
  ],
  [/^Too small: expected (?:number|int|bigint) to be >=?(-?[\d.]+)$/, (s, m) => `${s} must be at least ${m[1]}`],
  [/^Too small: expected (?:number|int|bigint) to be >(-?[\d.]+)$/, (s, m) => `${s} must be more than ${m[1]}`],
  [/^Too big: expected (?:number|int|bigint) to be <=(-?[\d.]+)$/, (s, m) => `${s} must be at most ${m[1]}`],
  [/^Too big: expected (?:number|int|bigint) to be <(-?[\d.]+)$/, (s, m) => `${s} must be less than ${m[1]}`],
  [/^Invalid input: expected int, received \w+$/, (s) => `${s} must be a whole number`],
  [/^Invalid input: expected number, received \w+$/, (s) => `${s} must be a number`],
  [/^Invalid input: expected boolean, received \w+$/, (s) => `${s} must be yes or no`],
  [/^Invalid input: expected (?:array|object), received \w+$/, (s) => `${s} is not in the form this field takes`],
  [/^Invalid input: expected string, received \w+$/, (s) => `${s} must be text`],
  [
    /^Invalid option: expected one of (.+)$/,
    (s, m) =>
      `${s} must be one of ${m[1]!
        .split('|')
        .map((o) => o.replace(/^"|"$/g, ''))
        .join(', ')}`,
  ],
  [/^Invalid input: expected "(.*)"$/, (s, m) => `${s} must be ${m[1]}`],
  [/^(Invalid UUID|Expected a UUID)$/i, (s) => `${s}: choose one from the list`],
  [/^Invalid email( address)?$/i, (s) => `${s} must be an email address, like name@example.com`],
  [/^Invalid URL$/i, (s) => `${s} must be a web address starting with http:// or https://`],
  [/, or leave it empty for now$/, (s) => `${s} must be a date and time, or left empty for now`],
  [
    /^(Enter a date and time.*|Expected RFC 3339.*|Expected an RFC 3339 timestamp|Invalid ISO datetime|Not a date and time that exists)$/i,
    (s) => `${s} must be a date and time`,
  ],
  [/^Expected a calendar date/i, (s) => `${s} must be a date (YYYY-MM-DD)`],
  [/^must be after \w*start\w*$/i, () => 'The window must end after it starts'],
  [/^(Unknown field|Unrecognized keys?: .*)$/, (s) => `${s} is not a field this form takes`],
  [/^Invalid string: must match pattern /, (s) => `${s} is not in the expected format`],
  [/^Expected (.+)$/, (s, m) => `${s} must be ${m[1]}`],
  [/^Must (.+)$/, (s, m) => `${s} must ${m[1]}`],
  [/^(An? [a-z].+)$/, (s, m) => `${s} must be ${m[1]!.charAt(0).toLowerCase()}${m[1]!.slice(1)}`],
];

/** The sentence a rule makes of the error's message about `label`; null when no rule knows the message. */
function ruleSentence(error: FieldErrorItem, label: string): string | null {
  const subject = subjectOf(label);
  const message = error.message.trim();
  if (!message) return `${subject} is not valid`;
  for (const [pattern, say] of RULES) {
    const m = pattern.exec(message);
    if (m) return say(subject, m);
  }
  return null;
}

/**
 * One validation error as a sentence about the field labelled `label` (its parenthetical hint
 * dropped), for the summary above a form. A message no rule knows is already the API's own
 * words: "Label: message".
 */
export function sentenceFor(error: FieldErrorItem, label: string = labelForPath(error.path)): string {
  return ruleSentence(error, label) ?? `${subjectOf(label)}: ${error.message.trim()}`;
}

/** The same error next to its field: the rule's sentence, or the API's own words as they are (the label is right there). */
export function fieldSentence(error: FieldErrorItem, label: string): string {
  return ruleSentence(error, label) ?? error.message.trim();
}

/**
 * Whether a problem's detail says more than its errors: `validated()` and the schema checks make
 * the detail of the first error ("title: Too small…"), which the summary's sentences replace; a
 * use case's detail ("Only manual metrics take a status by hand.") is its own words and stays.
 */
export function detailAddsToErrors(detail: string, errors: readonly FieldErrorItem[]): boolean {
  const d = detail.trim();
  if (!d) return false;
  return !errors.some(
    (e) => d === `${e.path || 'body'}: ${e.message}` || d.startsWith(`${e.path}: `) || d.startsWith(`${e.path} `),
  );
}

/** The heading of a problem's summary: how many things the person has to fix, or that the action failed. */
export function summaryHeading(token: string, errorCount: number): string {
  if (errorCount > 1) return `Fix ${errorCount} problems to continue`;
  if (errorCount === 1) return 'Fix 1 problem to continue';
  return token === 'validation_failed' ? 'Check the form' : 'That could not be done';
}
