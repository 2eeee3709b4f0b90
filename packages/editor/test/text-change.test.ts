import { textChange } from '../src/text-change';

const applied = (before: string, after: string) => {
  const { from, to, insert } = textChange(before, after);
  return before.slice(0, from) + insert + before.slice(to);
};

describe('textChange()', () => {
  it('should change only the line a column was added to', () => {
    const before = 'Table a {\n  id int\n}\n\nTable b {\n  id int\n}\n';
    const after = 'Table a {\n  id int\n  name text\n}\n\nTable b {\n  id int\n}\n';
    expect(textChange(before, after)).toEqual({ from: 19, to: 19, insert: '  name text\n' });
    expect(applied(before, after)).toBe(after);
  });

  it('should give an empty change for equal texts and the whole text for texts with nothing in common', () => {
    expect(textChange('same', 'same')).toEqual({ from: 4, to: 4, insert: '' });
    expect(textChange('abc', 'xyz')).toEqual({ from: 0, to: 3, insert: 'xyz' });
  });

  it('should never let the common start and end overlap when one text repeats inside the other', () => {
    for (const [before, after] of [
      ['aaa', 'aaaa'],
      ['aaaa', 'aa'],
      ['abab', 'ab'],
      ['', 'x'],
      ['x', ''],
      ['a\nb\na', 'a\na'],
    ] as const) {
      const change = textChange(before, after);
      expect(change.from).toBeLessThanOrEqual(change.to);
      expect(applied(before, after)).toBe(after);
    }
  });
});
