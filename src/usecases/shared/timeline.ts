import { toIso } from '../../domain/time';

export interface TimelineEntry {
  id: string;
  type: string;
  body: string;
  posted_at: string;
}

/** Timeline messages as the API returns them: oldest first, ties broken by id so order is stable. */
export function timelineView(messages: { id: string; type: string; body: string; postedAt: Date }[]): TimelineEntry[] {
  return [...messages]
    .sort((a, b) => a.postedAt.getTime() - b.postedAt.getTime() || (a.id < b.id ? -1 : 1))
    .map((m) => ({ id: m.id, type: m.type, body: m.body, posted_at: toIso(m.postedAt) }));
}
