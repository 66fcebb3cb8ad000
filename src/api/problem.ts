import type { FastifyReply } from 'fastify';
import { ERROR_CATALOG, type ErrorToken, ProblemError, type ProblemExtras } from '../domain/error-catalog';

export function problemType(docsUrl: string, token: string): string {
  return `${docsUrl}/api/getting-started/errors#${token}`;
}

export function problemBody(docsUrl: string, token: ErrorToken, detail: string, extras: ProblemExtras = {}) {
  return { type: problemType(docsUrl, token), title: token, status: ERROR_CATALOG[token].status, detail, ...extras };
}

/** Problems are serialised here, as a string, so extras never pass through (or get stripped by) a response schema. */
export function sendProblem(reply: FastifyReply, docsUrl: string, err: ProblemError): FastifyReply {
  for (const [name, value] of Object.entries(err.headers)) reply.header(name, value);
  return reply
    .code(err.status)
    .type('application/problem+json')
    .send(JSON.stringify(problemBody(docsUrl, err.token, err.message, err.extras)));
}
