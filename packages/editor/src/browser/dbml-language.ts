// DBML highlighting for the DBML pane: a line tokenizer (CodeMirror's StreamLanguage) for what the
// language has: block keywords (Table, Ref, Enum, TableGroup, Note, Project, Indexes), column settings in
// brackets (pk, not null, unique, default, note…), strings in single, double (names) and triple quotes,
// backtick expressions, numbers, comments (`//` and `/* */`) and the relationship signs (<, >, -, <>).
import { HighlightStyle, StreamLanguage, type StringStream } from '@codemirror/language';
import { tags } from '@lezer/highlight';

const BLOCKS = /^(?:table|tablegroup|ref|enum|note|project|indexes|as|records)\b/i;
const SETTINGS =
  /^(?:pk|primary|key|not|null|unique|increment|default|note|ref|name|type|delete|update|cascade|restrict|set|no|action|headercolor|color|true|false)\b/i;

interface DbmlState {
  /** Inside `/* … *\/`. */
  comment: boolean;
  /** Inside `''' … '''`. */
  multiline: boolean;
  /** Inside `[ … ]` (settings). */
  settings: number;
}

function token(stream: StringStream, state: DbmlState): string | null {
  if (state.comment) {
    if (stream.match(/^.*?\*\//)) state.comment = false;
    else stream.skipToEnd();
    return 'comment';
  }
  if (state.multiline) {
    if (stream.match(/^.*?'''/)) state.multiline = false;
    else stream.skipToEnd();
    return 'string';
  }
  if (stream.eatSpace()) return null;
  if (stream.match('//')) {
    stream.skipToEnd();
    return 'comment';
  }
  if (stream.match('/*')) {
    state.comment = true;
    return 'comment';
  }
  if (stream.match("'''")) {
    state.multiline = true;
    return 'string';
  }
  if (stream.match(/^'(?:[^'\\]|\\.)*'?/)) return 'string';
  if (stream.match(/^"(?:[^"\\]|\\.)*"?/)) return 'variableName';
  if (stream.match(/^`[^`]*`?/)) return 'string.special';
  if (stream.match(/^-?\d+(?:\.\d+)?\b/)) return 'number';
  if (stream.eat('[')) {
    state.settings++;
    return 'bracket';
  }
  if (stream.eat(']')) {
    state.settings = Math.max(0, state.settings - 1);
    return 'bracket';
  }
  if (stream.match(/^(?:<>|[<>-])/)) return 'operator';
  if (stream.match(/^[{}(),:.]/)) return 'punctuation';
  if (state.settings > 0 && stream.match(SETTINGS)) return 'attributeName';
  if (stream.match(BLOCKS)) return 'keyword';
  if (stream.match(/^[\p{L}\p{N}_$]+/u)) return 'variableName';
  stream.next();
  return null;
}

export const dbmlLanguage = StreamLanguage.define<DbmlState>({
  name: 'dbml',
  startState: () => ({ comment: false, multiline: false, settings: 0 }),
  copyState: (state) => ({ ...state }),
  token,
  languageData: { commentTokens: { line: '//', block: { open: '/*', close: '*/' } } },
});

/**
 * Colours of the tokens, dark enough on the light pane and light enough on the dark one (WCAG AA at the
 * pane's 13px text): each is a CSS custom property of editor.css, so the dark palette swaps them.
 */
export const dbmlHighlight = HighlightStyle.define([
  { tag: tags.keyword, color: 'var(--editor-code-keyword)', fontWeight: '600' },
  { tag: tags.string, color: 'var(--editor-code-string)' },
  { tag: tags.special(tags.string), color: 'var(--editor-code-string)' },
  { tag: tags.number, color: 'var(--editor-code-number)' },
  { tag: tags.comment, color: 'var(--editor-code-comment)', fontStyle: 'italic' },
  { tag: tags.attributeName, color: 'var(--editor-code-setting)' },
  { tag: tags.operator, color: 'var(--editor-code-keyword)', fontWeight: '600' },
]);
