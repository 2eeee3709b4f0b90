// The one change that turns a text into another: the span between their common start and common end. The
// DBML and SQL panes write the diagram's text again after every edit of the drawing; replacing the whole
// document made CodeMirror rebuild every line it shows (~250 ms per edit of a 300-table diagram), where an
// added column changes one line.

export interface TextChange {
  from: number;
  to: number;
  insert: string;
}

/** `{from, to, insert}` such that before.slice(0, from) + insert + before.slice(to) === after. */
export function textChange(before: string, after: string): TextChange {
  const most = Math.min(before.length, after.length);
  let start = 0;
  while (start < most && before.charCodeAt(start) === after.charCodeAt(start)) start++;
  let end = 0;
  while (
    end < most - start &&
    before.charCodeAt(before.length - 1 - end) === after.charCodeAt(after.length - 1 - end)
  )
    end++;
  return { from: start, to: before.length - end, insert: after.slice(start, after.length - end) };
}
