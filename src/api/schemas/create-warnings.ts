import { z } from 'zod';

/** A warning in a create answer: the resource was created, and this is worth knowing (additive). */
export const CreateWarningSchema = z
  .object({
    code: z
      .enum(['shown_on_every_status_page'])
      .describe(
        '`shown_on_every_status_page`: no `affected_services`, so it appears on every status page of the organization',
      ),
    message: z.string(),
  })
  .meta({ id: 'CreateWarning' });

/** The `warnings` field of a create answer (empty when there is nothing to say). */
export const CreateWarnings = z
  .array(CreateWarningSchema)
  .describe('What is worth knowing about what was created; empty when nothing');
