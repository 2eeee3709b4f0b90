// The side panels of groups and sticky notes: a group's name (rename), its tables, delete; a note's text
// and delete; a group's colour. Moving both is a drag on the canvas. A note's colour is not offered (a note
// is written again under a new uuid when it changes, so a colour sent beside the patch could not name it).
import type { Group, StickyNote } from '@dss/schema';
import type { EditorController } from './controller';
import { ColorField, Problem } from './panels';

export function GroupPanel({ editor, group }: { editor: EditorController; group: Group }) {
  const members = editor.document.value.tables.filter((table) => table.parent_uuid === group.uuid);
  return (
    <section class="editor-panel" aria-label={`Group ${group.name}`}>
      <h2>Group {group.name}</h2>
      <Problem editor={editor} place="group" />
      {editor.editable && (
        <form
          key={group.name}
          onSubmit={(event) => {
            event.preventDefault();
            const name = String(new FormData(event.currentTarget).get('name') ?? '').trim();
            editor.renameGroup(group.name, name);
          }}
        >
          <label>
            Group name
            <input name="name" defaultValue={group.name} required />
          </label>
          <button type="submit">Save group</button>
        </form>
      )}
      <ColorField editor={editor} kind="group" name={group.name} color={group.color} />
      <h3>Tables in the group</h3>
      <p>
        {members.length === 0
          ? 'None yet: add a table from its panel.'
          : members.map((table) => table.name).join(', ')}
      </p>
      {editor.editable && (
        <button type="button" class="danger" onClick={() => editor.deleteGroup(group.name)}>
          Delete group
        </button>
      )}
    </section>
  );
}

/**
 * `opened`: the note's uuid when the panel opened. The form is drawn afresh for another note or other text
 * (undo, another person's edit), not when the same note comes back from a save under a new uuid: keyed by
 * the uuid, a save landing while the text was being written emptied the box back to the saved text.
 */
export function NotePanel({
  editor,
  note,
  opened,
}: {
  editor: EditorController;
  note: StickyNote;
  opened: string;
}) {
  return (
    <section class="editor-panel" aria-label="Sticky note">
      <h2>Sticky note</h2>
      <Problem editor={editor} place="note" />
      <form
        key={`${opened}\u0000${note.content}`}
        onSubmit={(event) => {
          event.preventDefault();
          const content = String(new FormData(event.currentTarget).get('content') ?? '');
          if (content !== note.content) editor.changeNote(note.uuid, { content });
        }}
      >
        <label>
          Note text
          <textarea name="content" rows={5} defaultValue={note.content} readOnly={!editor.editable} />
        </label>
        {editor.editable && <button type="submit">Save note</button>}
      </form>
      {editor.editable && (
        <button type="button" class="danger" onClick={() => editor.deleteNote(note.uuid)}>
          Delete note
        </button>
      )}
    </section>
  );
}
