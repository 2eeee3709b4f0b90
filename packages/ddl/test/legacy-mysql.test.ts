// Legacy column and table attributes that real MySQL dumps still carry: each is dropped, never the column
// or the table around it (before, one such attribute failed the whole import).
import { convertDdl } from '../src';

async function columnsOf(ddl: string) {
  const result = await convertDdl('mysql', ddl);
  if (!result.ok) throw new Error(`${result.code}: ${result.message}`);
  return result.document.tables.map((table) => ({
    table: table.name,
    columns: table.columns.map((column) => ({
      name: column.name,
      type: column.driver_data_type_name,
      unsigned: column.is_unsigned,
      nullable: column.is_nullable,
    })),
  }));
}

describe('legacy MySQL attributes', () => {
  it('reads `varchar(64) binary`, `text binary` and a binary(16) type, with the old TYPE=MyISAM option', async () => {
    expect(
      await columnsOf(
        'CREATE TABLE t (id int(11) NOT NULL auto_increment, name varchar(64) binary default NULL,' +
          ' notes text binary, digest binary(16), PRIMARY KEY (id)) TYPE=MyISAM;',
      ),
    ).toEqual([
      {
        table: 't',
        columns: [
          { name: 'id', type: 'int', unsigned: false, nullable: false },
          { name: 'name', type: 'varchar', unsigned: false, nullable: true },
          { name: 'notes', type: 'text', unsigned: false, nullable: true },
          { name: 'digest', type: 'binary', unsigned: false, nullable: true },
        ],
      },
    ]);
  });

  it('reads NATIONAL VARCHAR as varchar and drops ZEROFILL, keeping unsigned', async () => {
    expect(
      await columnsOf(
        'CREATE TABLE t (id int(10) unsigned zerofill NOT NULL, c national varchar(10), PRIMARY KEY (id)) ENGINE=MyISAM;',
      ),
    ).toEqual([
      {
        table: 't',
        columns: [
          { name: 'id', type: 'int', unsigned: true, nullable: false },
          { name: 'c', type: 'varchar', unsigned: false, nullable: true },
        ],
      },
    ]);
  });

  it('leaves the words alone inside names and string literals', async () => {
    const [table] = await columnsOf(
      "CREATE TABLE national_type (`binary` varchar(5) DEFAULT 'zerofill binary');",
    );
    expect(table).toEqual({
      table: 'national_type',
      columns: [{ name: 'binary', type: 'varchar', unsigned: false, nullable: true }],
    });
  });
});
