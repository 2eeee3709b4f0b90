// Text has to fit boxes whose sizes come from the document, and an SVG has no automatic ellipsis, so widths
// are estimated from average glyph widths of the fonts used (generous, so real text rarely overflows) and
// long text is cut with "…". The full text stays available in the element's <title>.

/** Average advance of one character, in pixels, per text style of the drawing. */
export const CHARACTER_WIDTH = {
  tableName: 7.8, // 13px semi-bold sans
  columnName: 6.4, // 12px sans
  columnType: 6.7, // 11px monospace (0.6em per glyph)
  note: 6.8, // 12px sans
  groupName: 7.8, // 13px semi-bold sans
} as const;

export function estimatedWidth(text: string, characterWidth: number): number {
  return codePointLength(text) * characterWidth;
}

/** The text, or its start plus "…", so that it fits `width` pixels (at least one character is kept). */
export function fitText(text: string, width: number, characterWidth: number): string {
  // The epsilon absorbs float error: a width computed as exactly n characters must hold n characters.
  const fitting = Math.max(1, Math.floor(width / characterWidth + 1e-6));
  if (codePointLength(text) <= fitting) return text;
  return `${Array.from(text)
    .slice(0, Math.max(1, fitting - 1))
    .join('')}…`;
}

/** Lines of at most `width` pixels: explicit line breaks kept, words wrapped, over-long words split. */
export function wrapText(text: string, width: number, characterWidth: number): string[] {
  const perLine = Math.max(1, Math.floor(width / characterWidth));
  const lines: string[] = [];
  for (const paragraph of text.split(/\r\n|\r|\n/)) {
    let line = '';
    for (const word of paragraph.split(/[ \t]+/).filter((part) => part !== '')) {
      const pieces = splitLongWord(word, perLine);
      for (const piece of pieces) {
        const candidate = line === '' ? piece : `${line} ${piece}`;
        if (codePointLength(candidate) <= perLine) line = candidate;
        else {
          lines.push(line);
          line = piece;
        }
      }
    }
    lines.push(line);
  }
  return lines;
}

/** At most `limit` lines; when some are dropped, the last one kept ends with "…". */
export function limitLines(lines: string[], limit: number, width: number, characterWidth: number): string[] {
  if (lines.length <= limit) return lines;
  const kept = lines.slice(0, Math.max(1, limit));
  const last = kept.length - 1;
  kept[last] = fitText(`${kept[last]}…`, width, characterWidth);
  return kept;
}

function splitLongWord(word: string, perLine: number): string[] {
  const characters = Array.from(word);
  if (characters.length <= perLine) return [word];
  const pieces: string[] = [];
  for (let at = 0; at < characters.length; at += perLine)
    pieces.push(characters.slice(at, at + perLine).join(''));
  return pieces;
}

function codePointLength(text: string): number {
  let length = 0;
  for (let at = 0; at < text.length; at++) {
    const code = text.charCodeAt(at);
    if (code < 0xd800 || code > 0xdbff) length++;
  }
  return length;
}
