import { z } from 'zod';
import { validated } from '../../src/api/console/forms';
import { ProblemError } from '../../src/domain/error-catalog';
import {
  detailAddsToErrors,
  fieldSentence,
  labelForPath,
  sentenceFor,
  subjectOf,
  summaryHeading,
} from '../../src/render/console/form-errors';
import { inputField, problemBox } from '../../src/render/console/forms';

/** The errors `validated()` throws for `input` against `schema` (what a console form gets). */
function errorsOf(schema: z.ZodType, input: unknown): { path: string; message: string }[] {
  try {
    validated(schema, input);
  } catch (err) {
    if (err instanceof ProblemError) return err.extras.errors ?? [];
    throw err;
  }
  throw new Error('the input was valid');
}

describe('the API validation errors in words', () => {
  const schema = z.strictObject({
    title: z.string().min(1).max(200),
    scheduled_start_at: z
      .string()
      .regex(
        /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/,
        'Expected RFC 3339 UTC with milliseconds, e.g. 2026-11-22T06:40:46.123Z',
      ),
    severity: z.enum(['minor', 'major', 'critical']),
    service_id: z.uuid(),
    repeat: z.int().min(0).max(10),
    service_ids: z.array(z.uuid()).min(1),
    email: z.email(),
    url: z.url(),
  });

  it('words every problem of a form at once, by the field label', () => {
    const errors = errorsOf(schema, {
      title: '',
      scheduled_start_at: 'tomorrow',
      severity: 'huge',
      service_id: 'x',
      repeat: 11,
      service_ids: [],
      email: 'nope',
      url: 'nope',
    });
    const labels: Record<string, string> = {
      title: 'Title',
      scheduled_start_at: 'Start (UTC)',
      severity: 'Severity',
      service_id: 'Service',
      repeat: 'Repeat',
      service_ids: 'Services',
      email: 'Email address',
      url: 'URL',
    };
    expect(errors.map((e) => sentenceFor(e, labels[e.path]))).toEqual([
      'Title cannot be empty',
      'Start must be a date and time',
      'Severity must be one of minor, major, critical',
      'Service: choose one from the list',
      'Repeat must be at most 10',
      'Services: choose at least one',
      'Email address must be an email address, like name@example.com',
      'URL must be a web address starting with http:// or https://',
    ]);
  });

  it('says what is missing, too long, not whole, or not a field', () => {
    const say = (input: unknown) =>
      errorsOf(schema, {
        title: 'ok',
        scheduled_start_at: '2026-11-22T06:40:46.123Z',
        severity: 'minor',
        service_id: '00000000-0000-4000-8000-000000000000',
        repeat: 1,
        service_ids: ['00000000-0000-4000-8000-000000000000'],
        email: 'a@b.example',
        url: 'https://x.example',
        ...(input as object),
      }).map((e) => sentenceFor(e));
    expect(say({ title: undefined })).toEqual(['Title cannot be empty']);
    expect(say({ title: 'x'.repeat(201) })).toEqual(['Title must be at most 200 characters']);
    expect(say({ repeat: 1.5 })).toEqual(['Repeat must be a whole number']);
    expect(say({ repeat: -1 })).toEqual(['Repeat must be at least 0']);
    expect(say({ colour: 'red' })).toEqual(['Colour is not a field this form takes']);
  });

  it("words the use cases' own messages: a window that ends before it starts, an unreadable date", () => {
    expect(
      sentenceFor({ path: 'scheduled_end_at', message: 'Must be after scheduled_start_at' }, 'Ends at (UTC)'),
    ).toBe('The window must end after it starts');
    expect(sentenceFor({ path: 'ends_at', message: 'must be after start_at' })).toBe(
      'The window must end after it starts',
    );
    expect(sentenceFor({ path: 'starts_at', message: 'Enter a date and time (UTC)' }, 'From (UTC)')).toBe(
      'From must be a date and time',
    );
    expect(
      sentenceFor(
        { path: 'occurred_at', message: 'Enter a date and time (UTC), or leave it empty for now' },
        'When (UTC, optional; default now)',
      ),
    ).toBe('When must be a date and time, or left empty for now');
    expect(sentenceFor({ path: 'status', message: 'Expected one of healthy, degraded, unhealthy' }, 'Status')).toBe(
      'Status must be one of healthy, degraded, unhealthy',
    );
    expect(sentenceFor({ path: 'minutes', message: 'A whole number of minutes from 1 to 1440' }, 'Minutes')).toBe(
      'Minutes must be a whole number of minutes from 1 to 1440',
    );
    expect(sentenceFor({ path: 'target', message: 'Must be greater than 0 and at most 100' }, 'Target')).toBe(
      'Target must be greater than 0 and at most 100',
    );
    // A message no rule knows keeps the API's own words, after the label.
    expect(
      sentenceFor({ path: 'locations', message: 'nowhere-x: No location nowhere-x has registered' }, 'Locations'),
    ).toBe('Locations: nowhere-x: No location nowhere-x has registered');
  });

  it("next to its field, leaves the API's own words as they are; the summary names the field", () => {
    const own = { path: 'layers.0.rotation.participants', message: 'Not a console user of this organization' };
    expect(fieldSentence(own, 'Participants, in rotation order')).toBe('Not a console user of this organization');
    expect(sentenceFor(own, 'Participants, in rotation order')).toBe(
      'Participants, in rotation order: Not a console user of this organization',
    );
    expect(
      fieldSentence({ path: 'title', message: 'Too small: expected string to have >=1 characters' }, 'Title'),
    ).toBe('Title cannot be empty');
  });

  it("keeps a use case's detail, and drops one that only repeats the first error", () => {
    expect(
      detailAddsToErrors('title: Too small: expected string to have >=1 characters', [
        { path: 'title', message: 'Too small: expected string to have >=1 characters' },
      ]),
    ).toBe(false);
    expect(
      detailAddsToErrors('scheduled_end_at must be after scheduled_start_at.', [
        { path: 'scheduled_end_at', message: 'Must be after scheduled_start_at' },
      ]),
    ).toBe(false);
    expect(
      detailAddsToErrors('Only manual metrics take a status by hand.', [
        { path: 'status', message: 'Not for this metric' },
      ]),
    ).toBe(true);
  });

  it('takes a label without its hint, and a label from a path no field names', () => {
    expect(subjectOf('Description (optional)')).toBe('Description');
    expect(subjectOf('Starts at (UTC)')).toBe('Starts at');
    expect(labelForPath('body.initial_message.body')).toBe('Message');
    expect(labelForPath('links.0.url')).toBe('URL');
    expect(labelForPath('repeat_count')).toBe('Repeat count');
    expect(labelForPath('escalation_policy_id')).toBe('Escalation policy');
    expect(labelForPath('')).toBe('The form');
  });

  it('heads the summary with how many problems there are, or that the action failed', () => {
    expect(summaryHeading('validation_failed', 3)).toBe('Fix 3 problems to continue');
    expect(summaryHeading('validation_failed', 1)).toBe('Fix 1 problem to continue');
    expect(summaryHeading('already_published', 0)).toBe('That could not be done');
  });
});

describe('the problem summary and the fields', () => {
  const problem = {
    title: 'validation_failed',
    detail: 'title: Too small',
    errors: [
      { path: 'title', message: 'Too small: expected string to have >=1 characters' },
      { path: 'scheduled_end_at', message: 'Must be after scheduled_start_at' },
    ],
  };

  it('lists every error in the summary, linked to its field, and takes the focus', () => {
    const html = problemBox(problem, [{ name: 'title', label: 'Title' }, 'scheduled_end_at']);
    expect(html).toContain('role="alert" tabindex="-1" id="problem" autofocus');
    expect(html).toContain('<h2>Fix 2 problems to continue</h2>');
    expect(html).toContain('<li><a href="#f-title">Title cannot be empty</a></li>');
    expect(html).toContain('<li><a href="#f-scheduled_end_at">The window must end after it starts</a></li>');
    expect(html).toContain('<code>validation_failed</code>');
    expect(html).not.toContain('Too small');
  });

  it("keeps a use case's own detail above the list", () => {
    const html = problemBox(
      {
        title: 'validation_failed',
        detail: 'Only manual metrics take a status by hand.',
        errors: [{ path: 'status', message: 'Not for this metric' }],
      },
      [{ name: 'status', label: 'Status' }],
    );
    expect(html).toContain(
      '<h2>Fix 1 problem to continue</h2><p>Only manual metrics take a status by hand.</p><ul><li><a href="#f-status">Status: Not for this metric</a></li></ul>',
    );
  });

  it('shows the detail of a problem without field errors', () => {
    const html = problemBox({ title: 'already_published', detail: 'The incident is already published.' });
    expect(html).toContain('<h2>That could not be done</h2><p>The incident is already published.</p>');
  });

  it('puts the sentence next to the field, described by it and marked invalid, keeping the input', () => {
    const html = inputField({ name: 'title', label: 'Title', value: '  ', problem });
    expect(html).toContain('value="  "');
    expect(html).toContain('aria-invalid="true"');
    expect(html).toContain('aria-describedby="f-title-error"');
    expect(html).toContain('<p class="field-error" id="f-title-error">Title cannot be empty</p>');
    expect(inputField({ name: 'name', label: 'Name', value: 'x', problem })).not.toContain('aria-invalid');
  });
});
