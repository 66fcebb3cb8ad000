import { esc, plainText } from '../../html';
import { type FormProblem, csrfField, problemBox } from '../forms';
import { zonedTime } from '../parts';

/** A timeline message as the detail page lists it, with what edits replaced. */
export interface MessageRow {
  id: string;
  type: string;
  body: string;
  posted_at: string;
  notify_subscribers: boolean;
  edited_at: string | null;
  previous_bodies: { body: string; replaced_at: string }[];
}

/** The email a publish would send (the subscriber email renderer's own subject and text); null: no page shows the incident. */
export interface SubscriberPreviewView {
  page: { title: string; subdomain: string };
  pageTitles: string[];
  subject: string;
  text: string;
}

/** A refused message edit or note change, with what was typed. */
export interface MessageEditProblem {
  messageId: string | null;
  problem: FormProblem;
  body: string;
}

const errorsAt = (p: FormProblem | null | undefined, path: string) =>
  (p?.errors ?? []).filter((e) => e.path === path).map((e) => e.message);

/** A textarea with its own id (several edit forms share a page) and its field error. */
function area(o: {
  id: string;
  name: string;
  label: string;
  value: string;
  problem?: FormProblem | null;
  hint?: string;
}): string {
  const errors = errorsAt(o.problem, o.name);
  const by = [o.hint ? `${o.id}-hint` : '', errors.length ? `${o.id}-error` : ''].filter(Boolean).join(' ');
  return `<div><label for="${o.id}">${esc(o.label)}</label><textarea id="${o.id}" name="${esc(o.name)}"${errors.length ? ' aria-invalid="true"' : ''}${by ? ` aria-describedby="${by}"` : ''}>${esc(o.value)}</textarea>${
    o.hint ? `<p class="muted" id="${o.id}-hint">${esc(o.hint)}</p>` : ''
  }${errors.length ? `<p class="field-error" id="${o.id}-error">${esc(errors.join('. '))}</p>` : ''}</div>`;
}

/** What only the organization sees: the evidence behind a drafted incident, and its edit form. */
export function internalNoteSection(o: {
  id: string;
  note: string | null;
  csrf: string;
  canWrite: boolean;
  failed: MessageEditProblem | null;
}): string {
  const p = o.failed && o.failed.messageId === null ? o.failed : null;
  const shown = o.note
    ? `<div class="internal-note" data-internal-note>${plainText(o.note)}</div>`
    : '<p class="muted">No internal note.</p>';
  const form = o.canWrite
    ? `<details${p ? ' open' : ''}><summary>Edit the internal note</summary>
${problemBox(p?.problem ?? null, [{ name: 'internal_note', label: 'Internal note' }])}
<form class="stack" method="post" action="/console/incidents/${esc(o.id)}/note">
${csrfField(o.csrf)}
${area({ id: 'f-internal_note', name: 'internal_note', label: 'Internal note', value: p ? p.body : (o.note ?? ''), problem: p?.problem, hint: 'Empty clears it.' })}
<div><button type="submit">Save note</button></div>
</form></details>`
    : '';
  return `<section aria-labelledby="internal-note-heading"><h2 id="internal-note-heading">Internal note</h2>
<p class="muted">Only your organization sees this (API and console): never a status page, a feed or a subscriber email.</p>
${shown}
${form}</section>`;
}

/** Each message of the timeline: its body as customers read it, an "edited" mark, the bodies it replaced, and an Edit form. */
export function messagesSection(o: {
  id: string;
  state: string;
  messages: readonly MessageRow[];
  csrf: string;
  canWrite: boolean;
  zone: string;
  failed: MessageEditProblem | null;
}): string {
  if (!o.messages.length) return '';
  const latest = o.messages.at(-1)?.id;
  const items = o.messages.map((m) => {
    const p = o.failed && o.failed.messageId === m.id ? o.failed : null;
    const edited = m.edited_at
      ? ` · <span class="muted" data-edited>edited ${zonedTime(m.edited_at, o.zone)}</span>`
      : '';
    const history = m.previous_bodies.length
      ? `<details><summary>Earlier versions (${m.previous_bodies.length})</summary><ol class="timeline">${m.previous_bodies
          .map((v) => `<li>Replaced ${zonedTime(v.replaced_at, o.zone)}${plainText(v.body)}</li>`)
          .join('')}</ol></details>`
      : '';
    const renotify =
      o.state === 'published' && m.id === latest
        ? `<div><label><input type="checkbox" name="notify_subscribers" value="true"> Email subscribers the edited message again (otherwise the change shows on the status page only)</label></div>`
        : '';
    const form = o.canWrite
      ? `<details${p ? ' open' : ''}><summary>Edit</summary>
${problemBox(p?.problem ?? null, [
  { name: 'body', label: 'Message' },
  { name: 'notify_subscribers', label: 'Email subscribers' },
])}
<form class="stack" method="post" action="/console/incidents/${esc(o.id)}/messages/${esc(m.id)}/edit">
${csrfField(o.csrf)}
${area({ id: `m-${m.id}-body`, name: 'body', label: `Message (${m.type})`, value: p ? p.body : m.body, problem: p?.problem })}
${renotify}
<div><button type="submit">Save message</button></div>
</form></details>`
      : '';
    return `<li data-message-id="${esc(m.id)}"><strong>${esc(m.type)}</strong> · ${zonedTime(m.posted_at, o.zone)}${edited}<div class="message-body">${plainText(m.body)}</div>${history}${form}</li>`;
  });
  return `<section aria-labelledby="messages-heading"><h2 id="messages-heading">Messages</h2>
<p class="muted">What customers read on the status page${o.state === 'draft' ? ' once published' : ''}. Editing a published message changes the page; subscribers are emailed again only if you tick the box.</p>
<ol class="timeline incident-messages">${items.join('')}</ol></section>`;
}

/** The subscriber email of the publish, as the renderer writes it. */
export function previewSection(preview: SubscriberPreviewView | null): string {
  const body = preview
    ? `<p class="muted">As subscribers of ${esc(preview.page.title)} will receive it when you publish${
        preview.pageTitles.length > 1
          ? ` (also sent to the subscribers of ${esc(preview.pageTitles.slice(1).join(', '))})`
          : ''
      }; each email carries the subscriber's own unsubscribe link.</p>
<dl class="facts"><dt>Subject</dt><dd data-preview-subject>${esc(preview.subject)}</dd></dl>
<pre class="email-preview" data-preview-text>${esc(preview.text)}</pre>`
    : '<p class="muted">No status page shows the affected services: publishing emails no subscriber.</p>';
  return `<section aria-labelledby="preview-heading"><h2 id="preview-heading">What subscribers will receive</h2>
${body}</section>`;
}
