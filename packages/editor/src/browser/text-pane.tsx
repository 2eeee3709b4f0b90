// The pane beside the drawing: the diagram as DBML a person can type in (owners and editors; read-only
// for viewers), and a read-only SQL tab with the driver's CREATE script (@dss/sql, the export's code).
//
// Typing, then a pause (PAUSE_MS), sends the text to be read by the server (the importer's DBML
// conversion, `read`): only the Table and Ref blocks that changed, with what they need (src/dbml-blocks.ts),
// when the change is to those alone, else the whole text. What changed against the text the person started
// from becomes ONE edit through the controller (`dbmlChange`, src/dbml-sync.ts): the same engine, undo history, autosave and conflict
// handling as a canvas edit. A text that cannot be read, or an edit the engine refuses, is shown at its
// line and column (a diagnostic in the editor and a message under it) and changes nothing on the canvas.
// An edit on the canvas (or an undo, or another person's saved version) writes the text again from the
// diagram, unless the person is typing or their text has an error; a change that leaves the DBML the same
// (a move) keeps the person's text as they wrote it.
import { defaultKeymap } from '@codemirror/commands';
import { syntaxHighlighting } from '@codemirror/language';
import { type Diagnostic, lintGutter, setDiagnostics } from '@codemirror/lint';
import { EditorState, type Extension } from '@codemirror/state';
import { EditorView, highlightActiveLine, keymap, lineNumbers } from '@codemirror/view';
import { signal } from '@preact/signals';
import { useEffect, useRef } from 'preact/hooks';
import type { DiagramDocument } from '@dss/schema';
import { createScript, dbmlScript } from '@dss/sql';
import { isEmptyPatch } from '../changes';
import { changedExcerpts } from '../dbml-blocks';
import { dbmlChange, tableLine } from '../dbml-sync';
import { textChange } from '../text-change';
import type { EditorController } from './controller';
import { dbmlHighlight, dbmlLanguage } from './dbml-language';

/** How long typing must pause before the text is read. */
export const PAUSE_MS = 300;

export interface TextWarning {
  line: number;
  column: number;
  message: string;
}

/** What reading a DBML text answered. */
export type ReadAnswer =
  | { ok: true; document: DiagramDocument; warnings: TextWarning[] }
  | { ok: false; message: string; line?: number; column?: number };

export type ReadDbml = (text: string) => Promise<ReadAnswer>;

/** The problem shown in the pane: where, and in what words. */
export interface TextProblem {
  line: number;
  column: number;
  message: string;
}

type TextState = 'synced' | 'typing' | 'reading' | 'error';

/** The pane's text and its bond to the diagram: the part of the pane a benchmark drives without a DOM. */
export class DbmlText {
  readonly state = signal<TextState>('synced');
  readonly problem = signal<TextProblem | null>(null);
  readonly warnings = signal<TextWarning[]>([]);
  /** The text as the person sees it; the view follows it through `onReplace`. */
  #text: string;
  /**
   * The diagram changed while the pane was closed and the text is not yet written from it: writing DBML
   * of a 300-table diagram and updating the code view after every edit of the drawing is work nobody sees
   * until the pane opens (or somebody reads `text`).
   */
  #stale = false;
  /** The text the person's typing started from (generated or accepted), with the diagram it reads as. */
  #base: { text: string; read: DiagramDocument | null };
  /** The DBML of the diagram the text stands for: a diagram change that keeps it keeps the text. */
  #written: string;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #round = 0;
  #replace: ((text: string) => void) | null = null;
  #applied: (() => void) | null = null;

  constructor(
    readonly editor: EditorController,
    readonly read: ReadDbml,
  ) {
    this.#written = dbmlScript(editor.document.value);
    this.#text = this.#written;
    this.#base = { text: this.#text, read: readAs(editor.document.value) };
    editor.document.subscribe((document) => this.#diagramChanged(document));
    editor.textOpen.subscribe((open) => {
      if (open) this.#catchUp();
    });
  }

  get text(): string {
    this.#catchUp();
    return this.#text;
  }

  set text(text: string) {
    this.#text = text;
  }

  /**
   * The text as last handed to the view, without catching up: what a code view starts from when it is made
   * (a render reading `text` would write the text of every edit again while the pane is closed).
   */
  get shownText(): string {
    return this.#text;
  }

  /** The view's hooks: text written from the diagram, and each DBML edit applied (benchmarks wait on it). */
  attach(replace: (text: string) => void, applied?: () => void): () => void {
    this.#replace = replace;
    this.#applied = applied ?? null;
    return () => {
      this.#replace = null;
      this.#applied = null;
    };
  }

  /** The person typed: read the text once they pause. */
  typed(text: string): void {
    this.text = text;
    this.#round++;
    clearTimeout(this.#timer);
    this.state.value = 'typing';
    this.#timer = setTimeout(() => void this.settle(), PAUSE_MS);
  }

  /** Reads the text now (the pause is over) and turns what changed into one edit. */
  async settle(): Promise<void> {
    clearTimeout(this.#timer);
    const round = ++this.#round;
    const text = this.text;
    if (text === this.#base.text) {
      this.#settled();
      return;
    }
    this.state.value = 'reading';
    const base = this.#base;
    const excerpts = changedExcerpts(base.text, text);
    // Only the changed blocks are read when the excerpts read; else (or when an excerpt alone fails) the whole text.
    let [next, before] = excerpts
      ? await Promise.all([this.read(excerpts.after), this.read(excerpts.before)])
      : [undefined, undefined];
    const whole = !next?.ok || !before?.ok;
    if (whole)
      [next, before] = await Promise.all([
        this.read(text),
        base.read
          ? Promise.resolve<ReadAnswer>({ ok: true, document: base.read, warnings: [] })
          : this.read(base.text),
      ]);
    if (round !== this.#round || !next || !before) return; // typed again meanwhile: that text is read next
    if (!next.ok) {
      this.#failed({ line: next.line ?? 1, column: next.column ?? 1, message: next.message });
      return;
    }
    // The text it started from reads as the diagram (it was written from it): only if not, the diagram itself.
    const from = before.ok ? before.document : this.editor.document.value;
    const patch = dbmlChange(from, next.document, this.editor.document.value, this.editor.view);
    if (!isEmptyPatch(patch) && !this.editor.edit('Edit DBML', patch, 'dbml')) {
      const refusal = this.editor.refusal.value;
      this.#failed(
        placeOfRefusal(text, patch, refusal?.message ?? 'the change was refused', refusal?.problems),
      );
      return;
    }
    // An excerpt's reading stands for its blocks only: the next change reads the text it starts from.
    this.#base = { text, read: whole ? next.document : null };
    this.#written = dbmlScript(this.editor.document.value);
    this.warnings.value = next.warnings;
    this.#settled();
    this.#applied?.();
  }

  /** Undo and redo from the pane are the editor's (one history): the text follows the diagram. */
  history(direction: 'undo' | 'redo'): void {
    clearTimeout(this.#timer);
    this.#round++;
    this.#settled();
    if (direction === 'undo') this.editor.undo();
    else this.editor.redo();
    // Nothing to undo, or the diagram's DBML did not change: the text shows the diagram again anyway.
    this.#rewrite(dbmlScript(this.editor.document.value));
  }

  #settled(): void {
    this.state.value = 'synced';
    this.problem.value = null;
    if (this.editor.refusal.value?.place === 'dbml') this.editor.refusal.value = null;
  }

  #failed(problem: TextProblem): void {
    this.state.value = 'error';
    this.problem.value = problem;
  }

  #diagramChanged(document: DiagramDocument): void {
    // During a DBML edit of this pane, or while the person types or fixes an error, the text is theirs.
    if (this.state.value !== 'synced') return;
    if (!this.editor.textOpen.value) {
      this.#stale = true;
      return;
    }
    this.#write(document);
  }

  #write(document: DiagramDocument): void {
    this.#stale = false;
    const written = dbmlScript(document);
    if (written === this.#written) return;
    this.#rewrite(written);
  }

  /** The text written from the diagram now, if it changed while the pane was closed. */
  #catchUp(): void {
    if (this.#stale && this.state.value === 'synced') this.#write(this.editor.document.value);
  }

  #rewrite(written: string): void {
    this.#stale = false;
    this.#written = written;
    if (this.#text === written && this.#base.text === written) return;
    this.#text = written;
    this.#base = { text: written, read: readAs(this.editor.document.value) };
    this.warnings.value = [];
    this.#replace?.(written);
  }
}

/**
 * What DBML written from `document` reads back as, without asking the server: the document itself, as
 * packages/sql's round trips check (the DBML export imports back to the same schema, groups and notes), except
 * on SQL Server, whose comments the DDL written from DBML does not carry; there the text is read (null).
 */
function readAs(document: DiagramDocument): DiagramDocument | null {
  return document.driver === 'sqlsrv' ? null : document;
}

/**
 * Where an edit the engine refused is in the text: the table a problem's path points at (`tables[2]…` of
 * the patch), found as its `Table` line; else line 1.
 */
function placeOfRefusal(
  text: string,
  patch: { tables?: Record<string, unknown>[] },
  message: string,
  problems: { path: string; message: string }[] = [],
): TextProblem {
  for (const problem of problems) {
    const at = /^tables\[(\d+)\]/.exec(problem.path);
    const name = at ? patch.tables?.[Number(at[1])]?.name : undefined;
    const place = typeof name === 'string' ? tableLine(text, name) : null;
    if (place) return { ...place, message: `${message}: ${problem.message}` };
  }
  const first = problems[0];
  return { line: 1, column: 1, message: first ? `${message}: ${first.message}` : message };
}

/** A CodeMirror view in `host` (created once), its accessible name `label`. */
function useCodeView(
  host: { current: HTMLElement | null },
  label: string,
  text: string,
  extensions: Extension[],
): { current: EditorView | null } {
  const view = useRef<EditorView | null>(null);
  useEffect(() => {
    if (!host.current) return;
    // In a shadow root of its own: CodeMirror's stylesheets are then constructed sheets (style-mod puts a
    // <style> element into a document, which the pages' CSP refuses). The palette's custom properties
    // reach inside.
    const root = host.current.shadowRoot ?? host.current.attachShadow({ mode: 'open' });
    view.current = new EditorView({
      root,
      parent: root,
      state: EditorState.create({
        doc: text,
        extensions: [
          lineNumbers(),
          highlightActiveLine(),
          EditorView.lineWrapping,
          paneTheme,
          EditorView.contentAttributes.of({ 'aria-label': label }),
          ...extensions,
        ],
      }),
    });
    return () => view.current?.destroy();
  }, []);
  return view;
}

/** The code views' look, in the editor's palette (editor.css's custom properties, light and dark). */
const paneTheme = EditorView.theme({
  '&': {
    height: '100%',
    fontSize: '13px',
    color: 'var(--editor-ink)',
    backgroundColor: 'var(--editor-paper)',
  },
  '&.cm-focused': { outline: '2px solid var(--editor-focus)', outlineOffset: '-2px' },
  '.cm-scroller': { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace' },
  '.cm-gutters': {
    backgroundColor: 'var(--editor-key)',
    color: 'var(--editor-muted)',
    borderRight: '1px solid var(--editor-line)',
  },
  '.cm-activeLine, .cm-activeLineGutter': { backgroundColor: 'transparent' },
  '.cm-content': { caretColor: 'var(--editor-ink)' },
  '.cm-cursor': { borderLeftColor: 'var(--editor-ink)' },
  '.cm-tooltip': {
    backgroundColor: 'var(--editor-paper)',
    color: 'var(--editor-ink)',
    border: '1px solid var(--editor-line)',
  },
});

function diagnosticsOf(view: EditorView, problem: TextProblem | null, warnings: TextWarning[]): Diagnostic[] {
  const doc = view.state.doc;
  const at = (line: number, column: number) => {
    const row = doc.line(Math.min(Math.max(1, line), doc.lines));
    const from = Math.min(row.from + Math.max(0, column - 1), row.to);
    return { from, to: Math.min(Math.max(from + 1, row.to), doc.length) };
  };
  return [
    ...(problem
      ? [{ ...at(problem.line, problem.column), severity: 'error' as const, message: problem.message }]
      : []),
    ...warnings.map((warning) => ({
      ...at(warning.line, warning.column),
      severity: 'warning' as const,
      message: warning.message,
    })),
  ];
}

export function TextPane({ editor, text }: { editor: EditorController; text: DbmlText }) {
  const tab = useRef(signal<'dbml' | 'sql'>('dbml')).current;
  const dbmlHost = useRef<HTMLDivElement>(null);
  /** Set while the text is written from the diagram, so that change is not read as typing. */
  const writing = useRef(false);
  const sqlHost = useRef<HTMLDivElement>(null);
  const history = (direction: 'undo' | 'redo') => {
    text.history(direction);
    return true;
  };
  const dbmlView = useCodeView(dbmlHost, 'DBML', text.shownText, [
    dbmlLanguage,
    syntaxHighlighting(dbmlHighlight),
    lintGutter(),
    EditorState.readOnly.of(!editor.editable),
    keymap.of([
      { key: 'Mod-z', run: () => history('undo') },
      { key: 'Mod-y', run: () => history('redo') },
      { key: 'Mod-Shift-z', run: () => history('redo') },
      ...defaultKeymap,
    ]),
    EditorView.updateListener.of((update) => {
      if (update.docChanged && !writing.current) text.typed(update.state.doc.toString());
    }),
  ]);
  const sql = editor.textOpen.value && tab.value === 'sql' ? createScript(editor.document.value).sql : '';
  const sqlView = useCodeView(sqlHost, 'SQL', sql, [EditorState.readOnly.of(true)]);

  useEffect(
    () =>
      text.attach(
        (written) => {
          const view = dbmlView.current;
          if (!view) return;
          writing.current = true;
          try {
            view.dispatch({ changes: textChange(view.state.doc.toString(), written) });
          } finally {
            writing.current = false;
          }
        },
        () => {
          if (dbmlHost.current)
            dbmlHost.current.dataset['applied'] = String(
              Number(dbmlHost.current.dataset['applied'] ?? '0') + 1,
            );
        },
      ),
    [],
  );

  const problem = text.problem.value;
  const warnings = text.warnings.value;
  useEffect(() => {
    const view = dbmlView.current;
    if (view) view.dispatch(setDiagnostics(view.state, diagnosticsOf(view, problem, warnings)));
  }, [problem, warnings]);

  useEffect(() => {
    const view = sqlView.current;
    const shown = view?.state.doc.toString();
    if (view && shown !== sql) view.dispatch({ changes: textChange(shown ?? '', sql) });
  }, [sql]);

  const state = text.state.value;
  const select = (which: 'dbml' | 'sql') => () => {
    tab.value = which;
  };
  return (
    <section class="editor-text" aria-label="DBML and SQL" hidden={!editor.textOpen.value}>
      <div class="editor-text-tabs">
        <div role="tablist" aria-label="Text format">
          <button
            type="button"
            role="tab"
            id="editor-text-tab-dbml"
            aria-selected={tab.value === 'dbml'}
            aria-controls="editor-text-dbml"
            onClick={select('dbml')}
          >
            DBML
          </button>
          <button
            type="button"
            role="tab"
            id="editor-text-tab-sql"
            aria-selected={tab.value === 'sql'}
            aria-controls="editor-text-sql"
            onClick={select('sql')}
          >
            SQL
          </button>
        </div>
        <p class="editor-text-state" aria-live="polite">
          {!editor.editable
            ? 'Read-only'
            : state === 'typing' || state === 'reading'
              ? 'Reading…'
              : state === 'error'
                ? 'Not applied'
                : 'In step with the drawing'}
        </p>
      </div>
      <div
        id="editor-text-dbml"
        role="tabpanel"
        aria-labelledby="editor-text-tab-dbml"
        class="editor-text-panel"
        hidden={tab.value !== 'dbml'}
      >
        <div class="editor-code" ref={dbmlHost} />
        {problem && (
          <p class="editor-problem" role="alert" id="editor-text-problem">
            Line {problem.line}, column {problem.column}: {problem.message}
          </p>
        )}
        {warnings.length > 0 && (
          <details class="editor-text-warnings">
            <summary>
              {warnings.length === 1 ? '1 warning' : `${warnings.length} warnings`} from reading the DBML
            </summary>
            <ul>
              {warnings.map((warning, at) => (
                <li key={at}>
                  Line {warning.line}: {warning.message}
                </li>
              ))}
            </ul>
          </details>
        )}
      </div>
      <div
        id="editor-text-sql"
        role="tabpanel"
        aria-labelledby="editor-text-tab-sql"
        class="editor-text-panel"
        hidden={tab.value !== 'sql'}
      >
        <div class="editor-code" ref={sqlHost} />
      </div>
    </section>
  );
}

/** Reads DBML with the web app (`POST /diagrams/{uuid}/dbml`, the importer's conversion). */
export function readWithServer(diagram: string, csrf: string): ReadDbml {
  return async (text) => {
    let response: Response;
    try {
      response = await fetch(`/diagrams/${encodeURIComponent(diagram)}/dbml`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-csrf-token': csrf },
        body: JSON.stringify({ dbml: text }),
      });
    } catch {
      return {
        ok: false,
        message: 'The DBML could not be read: no connection. It is read again when you type.',
      };
    }
    const body = (await response.json().catch(() => ({}))) as {
      document?: DiagramDocument;
      warnings?: TextWarning[];
      message?: string;
      line?: number;
      column?: number;
    };
    if (response.ok && body.document)
      return { ok: true, document: body.document, warnings: body.warnings ?? [] };
    return {
      ok: false,
      message: body.message ?? `The DBML could not be read (${response.status}).`,
      ...(body.line !== undefined ? { line: body.line, column: body.column ?? 1 } : {}),
    };
  };
}
