// The presence board each web replica keeps: who is on a diagram, with the table each has selected.
import {
  PRESENCE_TTL_MS,
  type PresenceAnnouncement,
  PresenceBoard,
  readAnnouncement,
  tableName,
} from '../src/live/presence';

const announcement = (extra: Partial<PresenceAnnouncement> = {}): PresenceAnnouncement => ({
  diagram_uuid: 'd1',
  team_id: 't1',
  tab: 'tab-aaaaaaaa',
  user_id: 'u1',
  name: 'Ann',
  email: 'ann@example.test',
  table: null,
  state: 'here',
  ...extra,
});

describe('PresenceBoard', () => {
  it('should list a person once per tab, with the table last selected', () => {
    const board = new PresenceBoard();
    expect(board.hear(announcement(), 0)).toBe(true);
    expect(board.hear(announcement({ table: 'orders' }), 1)).toBe(true);
    expect(board.hear(announcement({ table: 'orders' }), 2)).toBe(false);
    board.hear(announcement({ tab: 'tab-bbbbbbbb' }), 3);
    expect(board.people('d1', 't1', 'u2')).toEqual([
      { tab: 'tab-aaaaaaaa', name: 'Ann', email: 'ann@example.test', table: 'orders' },
      { tab: 'tab-bbbbbbbb', name: 'Ann', email: 'ann@example.test', table: null },
    ]);
  });

  it('should drop an entry not repeated within the TTL, and keep one that was', () => {
    const board = new PresenceBoard();
    board.hear(announcement(), 0);
    board.hear(announcement({ tab: 'tab-bbbbbbbb' }), 0);
    board.hear(announcement({ tab: 'tab-bbbbbbbb' }), PRESENCE_TTL_MS - 1);
    expect(board.sweep(PRESENCE_TTL_MS)).toEqual([]);
    expect(board.sweep(PRESENCE_TTL_MS + 1)).toEqual(['d1']);
    expect(board.people('d1', 't1', 'u2').map((entry) => entry.tab)).toEqual(['tab-bbbbbbbb']);
  });

  it('should forget a tab that said it is gone', () => {
    const board = new PresenceBoard();
    board.hear(announcement(), 0);
    expect(board.hear(announcement({ state: 'gone' }), 1)).toBe(true);
    expect(board.people('d1', 't1', 'u2')).toEqual([]);
    expect(board.hear(announcement({ state: 'gone' }), 2)).toBe(false);
  });

  it('should not show a person their own tabs', () => {
    const board = new PresenceBoard();
    board.hear(announcement(), 0);
    board.hear(announcement({ user_id: 'u2', tab: 'tab-cccccccc', name: 'Ben' }), 0);
    expect(board.people('d1', 't1', 'u1').map((entry) => entry.name)).toEqual(['Ben']);
    expect(board.people('d1', 't1', 'u2').map((entry) => entry.name)).toEqual(['Ann']);
  });

  it('should never show an entry of another team', () => {
    const board = new PresenceBoard();
    board.hear(announcement({ team_id: 't2' }), 0);
    expect(board.people('d1', 't1', 'u2')).toEqual([]);
  });
});

describe('readAnnouncement', () => {
  it('should refuse what is not an announcement', () => {
    expect(readAnnouncement(null)).toBeNull();
    expect(readAnnouncement({ ...announcement(), tab: 'x' })).toBeNull();
    expect(readAnnouncement({ ...announcement(), state: 'maybe' })).toBeNull();
    expect(readAnnouncement({ ...announcement(), name: 3 })).toBeNull();
    expect(readAnnouncement(announcement({ table: 'orders' }))).toEqual(announcement({ table: 'orders' }));
  });

  it('should read a table name that is not text, or too long, as none', () => {
    expect(tableName(42)).toBeNull();
    expect(tableName('')).toBeNull();
    expect(tableName('x'.repeat(129))).toBeNull();
    expect(tableName('orders')).toBe('orders');
  });
});
