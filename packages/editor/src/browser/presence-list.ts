// The list of who else has a diagram open, shared by the editor's presence bar (live.ts) and the diagram
// page's live section (services/web's client-live): one entry per person, with the tables selected in any
// of their tabs. Names and table names are set as text only.

/** One open tab of another person, as the live connection reports it. */
export interface PresenceEntry {
  name: string;
  email: string;
  table: string | null;
}

export interface Person {
  name: string;
  email: string;
  tables: string[];
}

/** One entry per person (e-mail addresses are unique), with the tables selected in any of their tabs. */
export function byPerson(people: readonly PresenceEntry[]): Person[] {
  const persons = new Map<string, Person>();
  for (const entry of people) {
    const person = persons.get(entry.email) ?? { name: entry.name, email: entry.email, tables: [] };
    if (entry.table && !person.tables.includes(entry.table)) person.tables.push(entry.table);
    persons.set(entry.email, person);
  }
  return [...persons.values()];
}

/**
 * "Ada has <code>customers</code> selected", or "Ada <idle>" when no table is selected; the item carries the
 * selected tables in `data-tables`.
 */
export function personItem(person: Person, idle: string): HTMLLIElement {
  const item = document.createElement('li');
  const who = document.createElement('span');
  who.className = 'live-person';
  who.textContent = person.name || person.email;
  who.title = person.email;
  item.append(who);
  if (person.tables.length > 0) {
    item.append(' has ');
    person.tables.forEach((name, index) => {
      const table = document.createElement('code');
      table.textContent = name;
      item.append(...(index > 0 ? [', ', table] : [table]));
    });
    item.append(' selected');
  } else item.append(` ${idle}`);
  item.dataset['tables'] = person.tables.join(' ');
  return item;
}

/** Fills a presence list with one item per person. */
export function showPeople(list: HTMLElement, people: readonly PresenceEntry[], idle: string): void {
  list.replaceChildren(...byPerson(people).map((person) => personItem(person, idle)));
}
