/**
 * What a create answer warns about: an incident or maintenance with no
 * `affected_services` is kept, and appears on every status page of the organization (a page
 * shows those of its services and those of none). The answer says so, as does the console form.
 */
export interface CreateWarning {
  code: 'shown_on_every_status_page';
  message: string;
}

export const SHOWN_ON_EVERY_PAGE = 'shown on every status page';

export function audienceWarnings(
  kind: 'incident' | 'maintenance',
  affectedServices: readonly string[],
): CreateWarning[] {
  if (affectedServices.length) return [];
  return [
    {
      code: 'shown_on_every_status_page',
      message: `This ${kind} has no affected_services, so it is ${SHOWN_ON_EVERY_PAGE} of the organization. Name the affected services to show it only where they appear.`,
    },
  ];
}
