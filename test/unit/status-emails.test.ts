import { type NotificationEvent, confirmationEmail, notificationEmail } from '../../src/render/emails';

const page = {
  pageTitle: 'Acme Status',
  pageUrl: 'https://status.acme.test/',
  unsubscribeUrl: 'https://status.acme.test/unsubscribe?token=abc.def',
};
const at = new Date('2026-03-05T13:30:00.000Z');

function incident(over: Partial<Extract<NotificationEvent, { kind: 'incident' }>> = {}): NotificationEvent {
  return {
    kind: 'incident',
    type: 'incident.published',
    title: 'Database latency',
    severity: 'major',
    message: { type: 'Investigating', body: 'We are looking into slow queries.\nMore soon.', posted_at: at },
    url: 'https://status.acme.test/incidents/1',
    ...over,
  };
}

function maintenance(type: Extract<NotificationEvent, { kind: 'maintenance' }>['type']): NotificationEvent {
  return {
    kind: 'maintenance',
    type,
    title: 'Database upgrade',
    description: 'Expect short read-only periods.',
    scheduled_start_at: at,
    scheduled_end_at: new Date(at.getTime() + 2 * 3_600_000),
    url: 'https://status.acme.test/maintenances/1',
  };
}

describe('confirmation email', () => {
  const email = confirmationEmail({ ...page, confirmUrl: 'https://status.acme.test/confirm?token=x.y', expiresAt: at });

  it('asks to confirm the subscription to the page', () => {
    expect(email.subject).toBe('Confirm your subscription to Acme Status');
    expect(email.text).toContain('https://status.acme.test/confirm?token=x.y');
    expect(email.html).toContain('href="https://status.acme.test/confirm?token=x.y"');
  });

  it('says until when the link works, in UTC', () => {
    expect(email.text).toContain('5 Mar 2026, 13:30 UTC');
    expect(email.html).toContain('5 Mar 2026, 13:30 UTC');
  });

  it('ends with the unsubscribe link', () => {
    expect(email.text.trimEnd().endsWith(`Unsubscribe: ${page.unsubscribeUrl}`)).toBe(true);
    expect(email.html).toContain('href="https://status.acme.test/unsubscribe?token=abc.def"');
  });
});

describe('notification email', () => {
  const render = (event: NotificationEvent, timeZone = 'Europe/Berlin') =>
    notificationEmail({ ...page, timeZone, event });

  it.each([
    [incident(), '[Acme Status] Investigating: Database latency'],
    [
      incident({
        type: 'incident.message_added',
        message: { type: 'Monitoring', body: 'Fix deployed.', posted_at: at },
      }),
      '[Acme Status] Monitoring: Database latency',
    ],
    [
      incident({ type: 'incident.resolved', message: { type: 'Update', body: 'All good.', posted_at: at } }),
      '[Acme Status] Resolved: Database latency',
    ],
    [incident({ type: 'incident.resolved', message: null }), '[Acme Status] Resolved: Database latency'],
    [incident({ message: null }), '[Acme Status] Incident: Database latency'],
    [maintenance('maintenance.scheduled'), '[Acme Status] Scheduled maintenance: Database upgrade'],
    [maintenance('maintenance.started'), '[Acme Status] Maintenance in progress: Database upgrade'],
    [maintenance('maintenance.completed'), '[Acme Status] Maintenance completed: Database upgrade'],
    [maintenance('maintenance.canceled'), '[Acme Status] Maintenance canceled: Database upgrade'],
  ])('uses the subject %#', (event, subject) => {
    expect(render(event).subject).toBe(subject);
  });

  it('keeps the subject on one line', () => {
    expect(render(incident({ title: 'Broken\r\nBcc: x@evil.test' })).subject).toBe(
      '[Acme Status] Investigating: Broken Bcc: x@evil.test',
    );
  });

  it('escapes every interpolated value in the HTML', () => {
    const evil = '<script>alert("x")</script>';
    const email = notificationEmail({
      pageTitle: `Acme ${evil}`,
      pageUrl: 'https://status.acme.test/"><script>',
      unsubscribeUrl: 'https://status.acme.test/u?a=1&b=2',
      timeZone: 'UTC',
      event: incident({ title: evil, severity: evil, message: { type: evil, body: `${evil}\n& more`, posted_at: at } }),
    });
    expect(email.html).not.toContain('<script>');
    expect(email.html).toContain('&#60;script&#62;alert(&#34;x&#34;)&#60;/script&#62;');
    expect(email.html).toContain('href="https://status.acme.test/u?a=1&#38;b=2"');
    expect(email.html).toContain('&#38; more');
    expect(email.text).toContain(evil);
  });

  it('shows times in the page time zone with the zone name', () => {
    const email = render(maintenance('maintenance.scheduled'));
    expect(email.text).toContain('Starts: 5 Mar 2026, 14:30 CET (Europe/Berlin)');
    expect(email.text).toContain('Ends: 5 Mar 2026, 16:30 CET (Europe/Berlin)');
    expect(email.html).toContain('5 Mar 2026, 14:30 CET (Europe/Berlin)');
    expect(render(incident(), 'America/New_York').text).toContain('Posted: 5 Mar 2026, 08:30 GMT-5 (America/New_York)');
  });

  it('falls back to UTC for a zone Intl does not know', () => {
    const email = render(maintenance('maintenance.scheduled'), 'Mars/Olympus_Mons');
    expect(email.text).toContain('Starts: 5 Mar 2026, 13:30 UTC');
    expect(email.text).not.toContain('Mars');
  });

  it('includes the message body, the severity and the link to the incident', () => {
    const email = render(incident());
    expect(email.text).toContain('Severity: major');
    expect(email.text).toContain('We are looking into slow queries.\nMore soon.');
    expect(email.html).toContain('We are looking into slow queries.<br>More soon.');
    expect(email.text).toContain('https://status.acme.test/incidents/1');
    expect(email.html).toContain('href="https://status.acme.test/incidents/1"');
  });

  it('ends every email with the unsubscribe link', () => {
    for (const event of [incident(), maintenance('maintenance.started'), maintenance('maintenance.canceled')]) {
      const email = render(event);
      expect(email.text.trimEnd().endsWith(`Unsubscribe: ${page.unsubscribeUrl}`)).toBe(true);
      expect(email.html).toMatch(
        /<a href="https:\/\/status\.acme\.test\/unsubscribe\?token=abc\.def"[^>]*>Unsubscribe<\/a>/,
      );
    }
  });
});
