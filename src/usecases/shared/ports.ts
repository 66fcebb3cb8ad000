/**
 * Ports more than one feature needs: sending mail (subscriber emails, alert emails, SLA
 * statements, console invitations) and POSTing to an address an organization chose (webhook
 * deliveries, alert channels, Slack follow-ups). Adapters in src/infra implement them; the
 * composition roots build them and hand them in.
 */

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** RFC 8058 one-click unsubscribe: sets List-Unsubscribe: <url> (plus <mailto:...> when given) and List-Unsubscribe-Post: List-Unsubscribe=One-Click */
  listUnsubscribe?: { url: string; mailto?: string };
  headers?: Record<string, string>;
  attachments?: { filename: string; content: Buffer | string; contentType: string }[];
  /** A stable local part for the Message-ID (`<local@from-domain>`), so a resend is recognisably the same message; random otherwise. */
  messageId?: string;
}

/** Sends one message; a refused send throws (see domain/mail-errors for which refusals are final). */
export interface Mailer {
  readonly kind: 'smtp' | 'folder';
  send(msg: MailMessage): Promise<{ messageId: string }>;
  close(): Promise<void>;
}

export interface PostResult {
  /** HTTP status, or null when no answer came (network error, timeout). */
  statusCode: number | null;
  retryAfter: string | null;
  latencyMs: number;
  /** Why no answer came: `<code>: <message>`; never a response body. */
  error: string | null;
  /** The answer's first `keepResponseChars` characters when asked for (alert channels show them); null otherwise. */
  response: string | null;
}

/**
 * POSTs once to an address an organization chose, refusing addresses that are not public (SSRF);
 * never throws for anything the receiver or the network did. A refused address answers
 * `error: "target_not_public:<why>"`.
 */
export interface WebhookPoster {
  post(
    url: string,
    headers: Record<string, string>,
    body: string,
    timeoutMs: number,
    keepResponseChars?: number,
  ): Promise<PostResult>;
}
