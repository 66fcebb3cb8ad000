/** How the console sends its sign-in links (implemented by the service's mailer). */
export interface ConsoleMail {
  send(msg: { to: string; subject: string; text: string; html: string }): Promise<unknown>;
}
