// The side panel: a table (name, comment, colour, columns, indexes, delete), a column form (type from the
// driver's catalog with its parameters, flags the driver has, default, comment) and the relationship form.
// A refused edit shows the engine's message in the panel where it was made.
import { useState } from 'preact/hooks';
import {
  type Column,
  type DataTypeEntry,
  dataTypeCatalog,
  type DocumentTable,
  lookupDataType,
  writtenType,
} from '@dss/schema';
import { GROUP_DEFAULT, TABLE_HEADER_DEFAULT } from '@dss/diagram-svg/src/palette';
import type { EditorController } from './controller';

export function Problem({ editor, place }: { editor: EditorController; place: string }) {
  const refusal = editor.refusal.value;
  if (!refusal || refusal.place !== place) return null;
  return (
    <div class="editor-problem" role="alert">
      <strong>{refusal.message}</strong>
      {refusal.problems.length > 0 && (
        <ul>
          {refusal.problems.map((problem) => (
            <li key={problem.path + problem.message}>{problem.message}</li>
          ))}
        </ul>
      )}
    </div>
  );
}

export function TablePanel({ editor, table }: { editor: EditorController; table: DocumentTable }) {
  const readOnly = !editor.editable;
  return (
    <section class="editor-panel" aria-label={`Table ${table.name}`}>
      <h2>Table {table.name}</h2>
      <Problem editor={editor} place="table" />
      <form
        key={table.name}
        onSubmit={(event) => {
          event.preventDefault();
          const data = new FormData(event.currentTarget);
          const name = String(data.get('name') ?? '').trim();
          const comment = String(data.get('comment') ?? '');
          if (name !== table.name) editor.renameTable(table.name, name);
          else if (comment !== (table.comment ?? ''))
            editor.edit(
              'Comment table',
              { strategy: 'merge', tables: [{ name, comment, columns: [] }] },
              'table',
            );
        }}
      >
        <label>
          Table name
          <input name="name" defaultValue={table.name} readOnly={readOnly} required />
        </label>
        <label>
          Table comment
          <input name="comment" defaultValue={table.comment ?? ''} readOnly={readOnly} />
        </label>
        {!readOnly && <button type="submit">Save table</button>}
      </form>
      <ColorField editor={editor} kind="table" name={table.name} color={table.color} />
      <h3>Columns</h3>
      <ul class="items">
        {table.columns.map((column, at) => (
          <li key={column.uuid}>
            <span>
              {column.name}{' '}
              <code>{writtenType(column.driver_data_type_name, column.driver_data_type_params)}</code>
              {column.is_primary_key ? ' PK' : ''}
              {column.is_nullable ? '' : ' not null'}
            </span>
            {!readOnly && (
              <button
                type="button"
                onClick={() => editor.openPanel({ kind: 'column', table: table.name, column: column.name })}
              >
                Edit column {column.name}
              </button>
            )}
            {!readOnly && table.columns.length > 1 && (
              <span class="reorder">
                <button
                  type="button"
                  aria-label={`Move column ${column.name} up`}
                  title="Move up"
                  disabled={at === 0}
                  onClick={() => editor.moveColumn(table.name, column.name, -1)}
                >
                  ↑
                </button>
                <button
                  type="button"
                  aria-label={`Move column ${column.name} down`}
                  title="Move down"
                  disabled={at === table.columns.length - 1}
                  onClick={() => editor.moveColumn(table.name, column.name, 1)}
                >
                  ↓
                </button>
              </span>
            )}
          </li>
        ))}
      </ul>
      {!readOnly && (
        <div class="row">
          <button
            type="button"
            onClick={() => editor.openPanel({ kind: 'column', table: table.name, column: null })}
          >
            Add column
          </button>
          <button type="button" class="danger" onClick={() => editor.deleteTables([table.name])}>
            Delete table
          </button>
        </div>
      )}
      <GroupChoice editor={editor} table={table} />
      <IndexSection editor={editor} table={table} />
    </section>
  );
}

/** Joining a group (or moving to another); the patch format has no way to leave every group. */
function GroupChoice({ editor, table }: { editor: EditorController; table: DocumentTable }) {
  const groups = editor.document.value.groups;
  if (groups.length === 0 || !editor.editable) return null;
  const current = groups.find((group) => group.uuid === table.parent_uuid);
  return (
    <label>
      Group
      <select
        value={current?.name ?? ''}
        onChange={(event) => {
          const name = event.currentTarget.value;
          if (name !== '' && name !== current?.name) editor.joinGroup(table.name, name);
        }}
      >
        {!current && <option value="">(none)</option>}
        {groups.map((group) => (
          <option key={group.uuid} value={group.name}>
            {group.name}
          </option>
        ))}
      </select>
    </label>
  );
}

function IndexSection({ editor, table }: { editor: EditorController; table: DocumentTable }) {
  return (
    <>
      <h3>Indexes</h3>
      <ul class="items">
        {table.indexes.map((index) => (
          <li key={index.uuid}>
            <span>
              {index.name} ({index.type}: {index.columns.join(', ')})
            </span>
            {editor.editable && (
              <button
                type="button"
                class="danger"
                onClick={() =>
                  editor.edit(
                    'Delete index',
                    {
                      strategy: 'merge',
                      deletions: { indexes: [{ table: table.name, indexes: [index.name] }] },
                    },
                    'table',
                  )
                }
              >
                Delete index {index.name}
              </button>
            )}
          </li>
        ))}
      </ul>
      {editor.editable && (
        <form
          onSubmit={(event) => {
            event.preventDefault();
            const data = new FormData(event.currentTarget);
            const columns = String(data.get('columns') ?? '')
              .split(',')
              .map((name) => name.trim())
              .filter((name) => name !== '');
            const entry = {
              name: String(data.get('name') ?? '').trim(),
              type: String(data.get('kind')),
              columns,
            };
            if (
              editor.edit(
                'Add index',
                { strategy: 'merge', tables: [{ name: table.name, columns: [], indexes: [entry] }] },
                'table',
              )
            )
              event.currentTarget.reset();
          }}
        >
          <label>
            Index name
            <input name="name" required />
          </label>
          <label>
            Index kind
            <select name="kind">
              <option value="index">index</option>
              <option value="unique">unique</option>
              <option value="primary">primary</option>
            </select>
          </label>
          <label>
            Index columns, in order (comma-separated)
            <input name="columns" required />
          </label>
          <button type="submit">Add index</button>
        </form>
      )}
    </>
  );
}

export function ColumnForm({
  editor,
  table,
  column,
}: {
  editor: EditorController;
  table: DocumentTable;
  column: Column | null;
}) {
  const catalog = dataTypeCatalog[editor.store.driver] as readonly DataTypeEntry[];
  const [typeName, setTypeName] = useState(
    column?.driver_data_type_name ?? (editor.store.driver === 'pgsql' ? 'text' : 'varchar'),
  );
  const entry = lookupDataType(editor.store.driver, typeName);
  const params = column?.driver_data_type_params ?? null;
  const has = (name: string) => entry?.params.some((param) => param.name === name) ?? false;
  const option = (name: string) => entry?.options.includes(name as never) ?? false;
  const canAutoIncrement = option('auto_increment') || option('identity');
  return (
    <section class="editor-panel" aria-label={column ? `Column ${column.name}` : 'New column'}>
      <h2>
        {column ? `Column ${column.name}` : 'New column'} <span class="muted">in {table.name}</span>
      </h2>
      <Problem editor={editor} place="column" />
      <form
        key={column?.name ?? 'new'}
        onSubmit={(event) => {
          event.preventDefault();
          const data = new FormData(event.currentTarget);
          const text = (name: string) => String(data.get(name) ?? '').trim();
          const numbers = ['length', 'precision', 'scale']
            .filter((name) => has(name) && text(name) !== '')
            .map(text);
          const written = numbers.length > 0 ? `${typeName}(${numbers.join(',')})` : typeName;
          const values = text('values')
            .split(',')
            .map((value) => value.trim())
            .filter((value) => value !== '');
          const saved = editor.saveColumn(table.name, column?.name ?? null, {
            name: text('name'),
            type: written,
            ...(has('values') ? { enum_values: values } : {}),
            is_nullable: data.get('nullable') === 'on',
            is_primary_key: data.get('primary') === 'on',
            is_unique_key: data.get('unique') === 'on',
            is_index: data.get('index') === 'on',
            ...(canAutoIncrement ? { is_auto_increment: data.get('auto_increment') === 'on' } : {}),
            ...(option('unsigned') ? { is_unsigned: data.get('unsigned') === 'on' } : {}),
            ...(text('default') !== '' ? { default: text('default') } : {}),
            ...(text('comment') !== '' ? { comment: text('comment') } : {}),
          });
          if (saved) editor.openPanel({ kind: 'table', table: table.name });
        }}
      >
        <label>
          Column name
          <input name="name" defaultValue={column?.name ?? ''} required />
        </label>
        <label>
          Type
          <select
            name="type"
            value={entry?.name ?? typeName}
            onChange={(event) => setTypeName(event.currentTarget.value)}
          >
            {catalog.map((type) => (
              <option key={type.name} value={type.name}>
                {type.name}
              </option>
            ))}
          </select>
        </label>
        {has('length') && (
          <label>
            Length
            <input
              name="length"
              inputMode="numeric"
              defaultValue={params?.length !== undefined ? String(params.length) : ''}
            />
          </label>
        )}
        {has('precision') && (
          <label>
            Precision
            <input
              name="precision"
              inputMode="numeric"
              defaultValue={params?.precision !== undefined ? String(params.precision) : ''}
            />
          </label>
        )}
        {has('scale') && (
          <label>
            Scale
            <input
              name="scale"
              inputMode="numeric"
              defaultValue={params?.scale !== undefined ? String(params.scale) : ''}
            />
          </label>
        )}
        {has('values') && (
          <label>
            Values (comma-separated)
            <input name="values" defaultValue={params?.values?.join(', ') ?? ''} />
          </label>
        )}
        <div class="checks">
          <Check name="nullable" label="Nullable" checked={column?.is_nullable ?? true} />
          <Check name="primary" label="Primary key" checked={column?.is_primary_key ?? false} />
          <Check name="unique" label="Unique" checked={column?.is_unique_key ?? false} />
          <Check name="index" label="Index" checked={column?.is_index ?? false} />
          {canAutoIncrement && (
            <Check
              name="auto_increment"
              label="Auto increment"
              checked={column?.is_auto_increment ?? false}
            />
          )}
          {option('unsigned') && (
            <Check name="unsigned" label="Unsigned" checked={column?.is_unsigned ?? false} />
          )}
        </div>
        <label>
          Default
          <input name="default" defaultValue={column?.default ?? ''} />
        </label>
        <label>
          Column comment
          <input name="comment" defaultValue={column?.comment ?? ''} />
        </label>
        <div class="row">
          <button type="submit">Save column</button>
          {column && (
            <button
              type="button"
              class="danger"
              onClick={() => {
                if (editor.deleteColumn(table.name, column.name))
                  editor.openPanel({ kind: 'table', table: table.name });
              }}
            >
              Delete column
            </button>
          )}
          <button type="button" onClick={() => editor.openPanel({ kind: 'table', table: table.name })}>
            Cancel
          </button>
        </div>
      </form>
    </section>
  );
}

/**
 * A table's or group's colour: a colour picker (committed when the picker closes) and "Default colour".
 * Read-only people see the colour only.
 */
export function ColorField({
  editor,
  kind,
  name,
  color,
}: {
  editor: EditorController;
  kind: 'table' | 'group';
  name: string;
  color: string | null;
}) {
  const label = kind === 'table' ? 'Table colour' : 'Group colour';
  const fallback = kind === 'table' ? TABLE_HEADER_DEFAULT : GROUP_DEFAULT;
  return (
    <div class="color-field">
      <label>
        {label}
        <input
          type="color"
          name="color"
          value={normalHex(color ?? fallback)}
          disabled={!editor.editable}
          onChange={(event) => editor.recolor(kind, name, event.currentTarget.value.toLowerCase())}
        />
      </label>
      {editor.editable && color !== null && (
        <button type="button" onClick={() => editor.recolor(kind, name, null)}>
          Default colour
        </button>
      )}
    </div>
  );
}

/** `#abc` → `#aabbcc`, as a colour input wants it. */
function normalHex(color: string): string {
  return color.length === 4 ? `#${[...color.slice(1)].map((digit) => digit + digit).join('')}` : color;
}

function Check({ name, label, checked }: { name: string; label: string; checked: boolean }) {
  return (
    <label class="check">
      <input type="checkbox" name={name} defaultChecked={checked} /> {label}
    </label>
  );
}

export function RelationshipPanel({ editor }: { editor: EditorController }) {
  const document = editor.document.value;
  const columns = document.tables.flatMap((table) =>
    table.columns.map((column) => `${table.name}.${column.name}`),
  );
  return (
    <section class="editor-panel" aria-label="Relationships">
      <h2>Relationships</h2>
      <Problem editor={editor} place="relationship" />
      {editor.editable && (
        <form
          onSubmit={(event) => {
            event.preventDefault();
            const data = new FormData(event.currentTarget);
            const [sourceTable, sourceColumn] = split(String(data.get('from') ?? ''));
            const [targetTable, targetColumn] = split(String(data.get('to') ?? ''));
            const relationship = {
              type: String(data.get('cardinality')),
              source_table: sourceTable,
              source_column: sourceColumn,
              target_table: targetTable,
              target_column: targetColumn,
            };
            if (
              editor.edit(
                'Add relationship',
                { strategy: 'merge', relationships: [relationship] },
                'relationship',
              )
            )
              event.currentTarget.reset();
          }}
        >
          <datalist id="editor-columns">
            {columns.map((name) => (
              <option key={name} value={name} />
            ))}
          </datalist>
          <label>
            From column
            <input name="from" list="editor-columns" placeholder="orders.user_id" required />
          </label>
          <label>
            To column
            <input name="to" list="editor-columns" placeholder="users.id" required />
          </label>
          <label>
            Cardinality
            <select name="cardinality">
              <option value="many-to-one">many to one</option>
              <option value="one-to-one">one to one</option>
              <option value="one-to-many">one to many</option>
            </select>
          </label>
          <button type="submit">Save relationship</button>
        </form>
      )}
      <ul class="items">
        {document.relationships.map((r) => {
          const text = `${r.source_table}.${r.source_column} → ${r.target_table}.${r.target_column}`;
          return (
            <li key={r.uuid}>
              <span>
                {text} ({r.type})
              </span>
              {editor.editable && (
                <button
                  type="button"
                  class="danger"
                  onClick={() =>
                    editor.edit(
                      'Delete relationship',
                      {
                        strategy: 'merge',
                        deletions: {
                          relationships: [
                            {
                              source_table: r.source_table,
                              source_column: r.source_column,
                              target_table: r.target_table,
                              target_column: r.target_column,
                            },
                          ],
                        },
                      },
                      'relationship',
                    )
                  }
                >
                  Delete relationship {text}
                </button>
              )}
            </li>
          );
        })}
      </ul>
    </section>
  );
}

/** `table.column` → [table, column]; the last dot splits, so a table name may hold dots. */
function split(text: string): [string, string] {
  const at = text.trim().lastIndexOf('.');
  return at < 0 ? [text.trim(), ''] : [text.trim().slice(0, at), text.trim().slice(at + 1)];
}
