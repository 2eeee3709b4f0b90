// Who has a diagram open, and which table each has selected. Every web replica keeps the same board: each
// announcement goes over the bus (`web.presence.<diagram uuid>`), the replica that holds a person's event
// stream repeats it every PRESENCE_REPEAT_MS, and an entry not heard of for PRESENCE_TTL_MS is dropped, so
// a replica that died takes its people with it within that time.

/** An entry not repeated for this long is gone (a closed laptop, a replica that died). */
export const PRESENCE_TTL_MS = 30_000;
/** How often the replica holding a page's event stream repeats the page's presence. */
export const PRESENCE_REPEAT_MS = 10_000;

export const PRESENCE_SUBJECT_PREFIX = 'web.presence.';

/** A page's tab id: chosen by the page at random, so one person with two tabs shows twice. */
const TAB_ID = /^[A-Za-z0-9_-]{8,64}$/;
/** Table names of the drawing are at most 64 characters in every driver; a little room for quoting. */
const MAX_TABLE_CHARACTERS = 128;

/** One announcement, as it goes over the bus. */
export interface PresenceAnnouncement {
  diagram_uuid: string;
  team_id: string;
  tab: string;
  user_id: string;
  name: string;
  email: string;
  /** The selected table's name, or null. */
  table: string | null;
  /** `here` while the page is open; `gone` when its stream closed. */
  state: 'here' | 'gone';
}

/** What the pages are told of one person: nothing but what the team already sees of its members. */
export interface PresenceEntry {
  tab: string;
  name: string;
  email: string;
  table: string | null;
}

export function isTabId(value: unknown): value is string {
  return typeof value === 'string' && TAB_ID.test(value);
}

/** A table name the page sent: text of at most MAX_TABLE_CHARACTERS, or null for none or anything else. */
export function tableName(value: unknown): string | null {
  if (typeof value !== 'string' || value === '' || value.length > MAX_TABLE_CHARACTERS) return null;
  return value;
}

/** An announcement read from the bus, or null when it is not one (the subject is open to every replica). */
export function readAnnouncement(data: unknown): PresenceAnnouncement | null {
  if (data === null || typeof data !== 'object') return null;
  const value = data as Record<string, unknown>;
  const text = (key: string) => (typeof value[key] === 'string' ? (value[key] as string) : null);
  const [diagram, team, user, name, email] = ['diagram_uuid', 'team_id', 'user_id', 'name', 'email'].map(
    text,
  );
  if (diagram === null || team === null || user === null || name === null || email === null) return null;
  if (!isTabId(value.tab) || (value.state !== 'here' && value.state !== 'gone')) return null;
  return {
    diagram_uuid: diagram,
    team_id: team,
    tab: value.tab,
    user_id: user,
    name,
    email,
    table: tableName(value.table),
    state: value.state,
  };
}

interface Held extends PresenceEntry {
  teamId: string;
  userId: string;
  heardAt: number;
}

export class PresenceBoard {
  private readonly diagrams = new Map<string, Map<string, Held>>();

  constructor(private readonly ttlMs = PRESENCE_TTL_MS) {}

  /** Takes an announcement in; true when what the diagram's pages see changed. */
  hear(announcement: PresenceAnnouncement, now: number): boolean {
    const key = `${announcement.user_id}/${announcement.tab}`;
    let entries = this.diagrams.get(announcement.diagram_uuid);
    const before = entries?.get(key);
    if (announcement.state === 'gone') {
      if (!before) return false;
      entries!.delete(key);
      if (entries!.size === 0) this.diagrams.delete(announcement.diagram_uuid);
      return true;
    }
    if (!entries) {
      entries = new Map();
      this.diagrams.set(announcement.diagram_uuid, entries);
    }
    entries.set(key, {
      tab: announcement.tab,
      name: announcement.name,
      email: announcement.email,
      table: announcement.table,
      teamId: announcement.team_id,
      userId: announcement.user_id,
      heardAt: now,
    });
    return (
      !before ||
      before.table !== announcement.table ||
      before.name !== announcement.name ||
      before.email !== announcement.email
    );
  }

  /**
   * The other people on a diagram of `teamId`, for `viewerUserId`'s page: an entry of another team is never
   * shown, nor the viewer's own tabs. Oldest tab first.
   */
  people(diagramUuid: string, teamId: string, viewerUserId: string): PresenceEntry[] {
    const entries = this.diagrams.get(diagramUuid);
    if (!entries) return [];
    return [...entries.values()]
      .filter((entry) => entry.teamId === teamId && entry.userId !== viewerUserId)
      .map(({ tab, name, email, table }) => ({ tab, name, email, table }));
  }

  /** Drops entries not heard of within the TTL; answers the diagrams whose people changed. */
  sweep(now: number): string[] {
    const changed: string[] = [];
    for (const [diagram, entries] of this.diagrams) {
      const size = entries.size;
      for (const [key, entry] of entries) if (now - entry.heardAt > this.ttlMs) entries.delete(key);
      if (entries.size !== size) changed.push(diagram);
      if (entries.size === 0) this.diagrams.delete(diagram);
    }
    return changed;
  }
}
