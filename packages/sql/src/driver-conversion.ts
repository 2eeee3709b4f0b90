// A diagram document moved from its driver to another one (PostgreSQL, MySQL/MariaDB, SQL Server), so its
// CREATE script can be written for a database the diagram was not drawn for (the Export menu's "SQL
// (MySQL)" of a PostgreSQL diagram). Each column's type is read into a driver-neutral description (an
// integer of so many bytes, a string of at most n characters, a date and time with or without a zone…) and
// written as the nearest type of the target's catalog (packages/schema/src/catalog); defaults, numbering
// (serial, identity, AUTO_INCREMENT), CHECK conditions, index methods and names follow. Whatever the target
// cannot keep — a range, a precision, a time zone, a default, a check, a name — is said in a warning that
// names the table and column, so nothing is lost silently; a change that keeps every value says nothing.
// Pure: the document in, a new document and the warnings out.
import {
  type Check,
  type Column,
  type DataTypeParams,
  type DiagramDocument,
  type DocumentTable,
  DRIVER_INDEX_METHODS,
  type Driver,
  type Index,
  type Relationship,
} from '@dss/schema';
import { tableKeys } from './constraints';
import { DIALECTS, splitTableName } from './dialect';

export interface ConversionWarning {
  table: string;
  /** The column concerned, or null for the table, one of its keys or checks. */
  column: string | null;
  message: string;
}

export interface DriverConversion {
  document: DiagramDocument;
  warnings: ConversionWarning[];
}

export const DRIVER_TITLES: Record<Driver, string> = {
  pgsql: 'PostgreSQL',
  mysql: 'MySQL',
  sqlsrv: 'SQL Server',
};

/** Longest identifier of each driver (PostgreSQL 63 bytes, MySQL 64 characters, SQL Server 128). */
const NAME_LIMITS: Record<Driver, NameLimit> = {
  pgsql: { max: 63, unit: 'bytes' },
  mysql: { max: 64, unit: 'characters' },
  sqlsrv: { max: 128, unit: 'characters' },
};

interface NameLimit {
  max: number;
  unit: 'bytes' | 'characters';
}

/** A column's type described apart from any driver. */
type Portable =
  | { kind: 'integer'; bytes: 1 | 2 | 3 | 4 | 8; unsigned: boolean }
  /** precision null: unbounded (PostgreSQL `numeric`). */
  | { kind: 'decimal'; precision: number | null; scale: number }
  | { kind: 'float'; double: boolean }
  | { kind: 'boolean' }
  | { kind: 'bits'; length: number; varying: boolean }
  /** length null: unbounded. */
  | { kind: 'string'; fixed: boolean; length: number | null }
  | { kind: 'binary'; fixed: boolean; length: number | null }
  | { kind: 'date' }
  | { kind: 'year' }
  | { kind: 'time'; precision: number; zone: boolean }
  /** zone `utc`: an instant (PostgreSQL timestamptz, MySQL TIMESTAMP); `offset`: SQL Server datetimeoffset. */
  | { kind: 'datetime'; precision: number; zone: 'none' | 'utc' | 'offset' }
  | { kind: 'json' }
  | { kind: 'xml' }
  | { kind: 'uuid' }
  | { kind: 'enum'; values: string[]; set: boolean }
  | { kind: 'spatial'; shape: string }
  /** Kept as text in another driver: intervals, network addresses, ranges, text search, object ids. */
  | { kind: 'textual'; length: number | null };

interface TargetType {
  name: string;
  params: DataTypeParams | null;
  unsigned?: boolean;
}

/** What a column conversion needs to know about the column's place in the table. */
interface ColumnPlace {
  table: DocumentTable;
  column: Column;
  /** In a primary or unique key or a relationship (MySQL refuses TEXT there, SQL Server any `max` type). */
  keyed: boolean;
  /** In a plain index. */
  indexed: boolean;
  warn: (message: string) => void;
}

export function documentForDriver(document: DiagramDocument, target: Driver): DriverConversion {
  if (document.driver === target) return { document: structuredClone(document), warnings: [] };
  return new Conversion(document, target).run();
}

/**
 * The warnings as SQL comments for the top of the converted script: a first line naming both drivers,
 * then one line per warning (`-- Converted from PostgreSQL: film.rating: …`). Line breaks in names are
 * flattened, so no name can end the comment.
 */
export function conversionNote(source: Driver, target: Driver, warnings: ConversionWarning[]): string {
  const flat = (text: string) => text.replace(/\s+/g, ' ');
  const lines = [
    `-- Converted from ${DRIVER_TITLES[source]} to ${DRIVER_TITLES[target]}: ${
      warnings.length === 0
        ? 'every type, default and key kept.'
        : `${warnings.length} ${warnings.length === 1 ? 'change loses' : 'changes lose'} something (below).`
    }`,
    ...warnings.map(
      (warning) =>
        `-- Converted from ${DRIVER_TITLES[source]}: ${flat(warning.table)}${
          warning.column === null ? '' : `.${flat(warning.column)}`
        }: ${flat(warning.message)}`,
    ),
  ];
  return `${lines.join('\n')}\n\n`;
}

class Conversion {
  private readonly warnings: ConversionWarning[] = [];
  private readonly source: Driver;
  /** Source table name → target table name. */
  private readonly tableNames = new Map<string, string>();
  /** Source table name → (source column name → target column name). */
  private readonly columnNames = new Map<string, Map<string, string>>();

  constructor(
    private readonly document: DiagramDocument,
    private readonly target: Driver,
  ) {
    this.source = document.driver;
  }

  run(): DriverConversion {
    const document = structuredClone(this.document);
    const keyed = keyedColumns(document);
    const sequenceUsers = sequenceCounts(document);
    const tables = document.tables.map((table) => this.convertTable(table, keyed, sequenceUsers));
    const relationships = this.convertRelationships(document.relationships, tables);
    alignKeyTypes(tables, relationships);
    if (this.target === 'sqlsrv') this.singleCascadePaths(relationships);
    this.nameKeys(tables, relationships);
    return {
      document: { ...document, driver: this.target, tables, relationships },
      warnings: this.warnings,
    };
  }

  private warn(table: string, column: string | null, message: string): void {
    this.warnings.push({ table, column, message });
  }

  // ---- tables and columns ----

  private convertTable(
    table: DocumentTable,
    keyed: Map<string, { keyed: Set<string>; indexed: Set<string> }>,
    sequenceUsers: Map<string, number>,
  ): DocumentTable {
    const name = this.tableName(table.name);
    const columnNames = new Map<string, string>();
    this.columnNames.set(table.name, columnNames);
    const used = new Set<string>();
    for (const column of table.columns) {
      const fitted = uniqueName(column.name, this.limit, used, true);
      if (fitted !== column.name)
        this.warn(
          name,
          column.name,
          `named ${fitted}: ${DRIVER_TITLES[this.target]} names have at most ${this.limit.max} ${this.limit.unit}`,
        );
      columnNames.set(column.name, fitted);
    }
    const places = keyed.get(table.name) ?? { keyed: new Set<string>(), indexed: new Set<string>() };
    const extraChecks: Check[] = [];
    const columns = table.columns.map((column) => {
      const converted = this.convertColumn(
        {
          table,
          column,
          keyed: places.keyed.has(column.name),
          indexed: places.indexed.has(column.name),
          warn: (message) => this.warn(name, columnNames.get(column.name) ?? column.name, message),
        },
        sequenceUsers,
        extraChecks,
      );
      return { ...converted, name: columnNames.get(column.name) ?? column.name };
    });
    const converted: DocumentTable = { ...table, name, columns };
    delete converted.charset;
    delete converted.collation;
    if (this.target === 'mysql') converted.charset = 'utf8mb4';
    if (table.collation !== undefined && this.target !== 'mysql')
      this.warn(
        name,
        null,
        `table collation ${table.collation} dropped: comparisons follow the database's default`,
      );
    converted.comment = this.fitComment(name, null, table.comment, 2048);
    for (const column of converted.columns)
      column.comment = this.fitComment(name, column.name, column.comment, 1024);
    converted.indexes = this.convertIndexes(table, converted);
    for (const index of converted.indexes)
      if (index.type === 'primary')
        for (const column of converted.columns)
          if (index.columns.includes(column.name)) column.is_nullable = false;
    this.numbering(converted);
    this.fitKeys(converted);
    const checks = [...this.convertChecks(table, name), ...extraChecks];
    if (checks.length > 0 || table.checks !== undefined) converted.checks = checks;
    return converted;
  }

  private get limit(): NameLimit {
    return NAME_LIMITS[this.target];
  }

  /** The target's name of a source table: MySQL has no schemas, so `sales.orders` becomes `sales_orders`. */
  private tableName(source: string): string {
    const known = this.tableNames.get(source);
    if (known !== undefined) return known;
    const [schema, bare] = splitTableName(source);
    let name = source;
    let why = '';
    if (this.target === 'mysql' && schema !== null) {
      name = `${schema}_${bare}`;
      why = 'MySQL has no schemas inside a database (one database holds every table)';
    }
    const [targetSchema, targetBare] = splitTableName(name);
    const taken = new Set([...this.tableNames.values()].map((other) => other.toLowerCase()));
    let fitted = uniqueName(targetBare, this.limit, new Set(), false);
    let full = targetSchema === null ? fitted : `${targetSchema}.${fitted}`;
    for (let n = 2; taken.has(full.toLowerCase()); n++) {
      fitted = withSuffix(targetBare, `_${n}`, this.limit);
      full = targetSchema === null ? fitted : `${targetSchema}.${fitted}`;
    }
    if (fitted !== targetBare)
      why = why || `${DRIVER_TITLES[this.target]} names have at most ${this.limit.max} ${this.limit.unit}`;
    if (full !== source) this.warn(source, null, `table named ${full}: ${why || 'the name is taken'}`);
    this.tableNames.set(source, full);
    return full;
  }

  private fitComment(table: string, column: string | null, comment: string | null, mysqlLimit: number) {
    if (comment === null || this.target !== 'mysql' || comment.length <= mysqlLimit) return comment;
    this.warn(table, column, `comment cut to ${mysqlLimit} characters (MySQL's limit)`);
    return comment.slice(0, mysqlLimit);
  }

  private convertColumn(place: ColumnPlace, sequenceUsers: Map<string, number>, checks: Check[]): Column {
    const { column } = place;
    const portable = this.readType(place);
    const type = this.writeType(portable, place, checks);
    const converted: Column = {
      ...column,
      driver_data_type_name: type.name,
      driver_data_type_params: type.params,
      is_unsigned: type.unsigned === true,
      default: null,
    };
    delete converted.enum_name;
    delete converted.collation;
    if (column.collation !== undefined)
      place.warn(
        `collation ${column.collation} dropped: comparisons and sorting follow the database's default`,
      );
    if (column.enum_name !== undefined && type.name === 'enum' && this.target === 'pgsql')
      converted.enum_name = column.enum_name;
    // Numbering: a serial type, an identity or AUTO_INCREMENT column, or a PostgreSQL `nextval(…)` default.
    const sequence = /\bnextval\s*\(\s*'((?:[^']|'')+)'/i.exec(column.default ?? '')?.[1];
    const numbered =
      column.is_auto_increment || /serial$/.test(column.driver_data_type_name) || sequence !== undefined;
    converted.is_auto_increment = numbered;
    if (sequence !== undefined && (sequenceUsers.get(sequence) ?? 0) > 1)
      place.warn(
        `numbered by the sequence ${sequence}, which ${(sequenceUsers.get(sequence) ?? 0) - 1} other column(s) share: each table now numbers its own rows`,
      );
    if (!numbered && column.default !== null)
      converted.default = this.convertDefault(column.default, portable, type, place);
    if (column.is_primary_key) converted.is_nullable = false;
    return converted;
  }

  // ---- types ----

  /** The source column's type, described apart from its driver. */
  private readType(place: ColumnPlace): Portable {
    const { column } = place;
    const name = column.driver_data_type_name.toLowerCase();
    const params = column.driver_data_type_params ?? {};
    if (params.array === true) {
      place.warn(
        `${this.sourceType(column)} is an array: kept as ${this.target === 'mysql' ? 'a JSON array' : 'JSON text'}, its element type is not checked`,
      );
      return this.target === 'mysql' ? { kind: 'json' } : { kind: 'string', fixed: false, length: null };
    }
    const length = typeof params.length === 'number' ? params.length : null;
    switch (this.source) {
      case 'pgsql':
        return readPgType(name, params, length, place.warn);
      case 'mysql':
        return readMysqlType(name, params, length, column.is_unsigned, place.warn);
      case 'sqlsrv':
        return readSqlsrvType(name, params, length, place.warn);
    }
  }

  private sourceType(column: Column): string {
    return DIALECTS[this.source].type('t', column);
  }

  private writeType(portable: Portable, place: ColumnPlace, checks: Check[]): TargetType {
    const writers: Record<Driver, (p: Portable, place: ColumnPlace, checks: Check[]) => TargetType> = {
      pgsql: (p, c, k) => this.pgType(p, c, k),
      mysql: (p, c) => this.mysqlType(p, c),
      sqlsrv: (p, c, k) => this.sqlsrvType(p, c, k),
    };
    return writers[this.target](portable, place, checks);
  }

  private pgType(p: Portable, place: ColumnPlace, checks: Check[]): TargetType {
    const precision = (value: number) => {
      if (value > 6) place.warn(`fractional seconds cut from ${value} to 6 digits (PostgreSQL's most)`);
      return value >= 6 ? null : { precision: value };
    };
    switch (p.kind) {
      case 'integer':
        if (p.bytes === 8 && p.unsigned) place.warn(UNSIGNED_BIGINT_LOSS);
        return { name: { 2: 'smallint', 4: 'integer', 8: 'bigint' }[signedBytes(p)], params: null };
      case 'decimal':
        return {
          name: 'numeric',
          params: p.precision === null ? null : { precision: p.precision, scale: p.scale },
        };
      case 'float':
        return { name: p.double ? 'double precision' : 'real', params: null };
      case 'boolean':
        return { name: 'boolean', params: null };
      case 'bits':
        return { name: p.varying ? 'bit varying' : 'bit', params: { length: p.length } };
      case 'string':
        if (p.length === null) return { name: 'text', params: null };
        return {
          name: p.fixed ? 'character' : 'character varying',
          params: { length: Math.max(1, p.length) },
        };
      case 'binary':
        return { name: 'bytea', params: null };
      case 'date':
        return { name: 'date', params: null };
      case 'year':
        return { name: 'smallint', params: null };
      case 'time':
        return { name: p.zone ? 'time with time zone' : 'time', params: precision(p.precision) };
      case 'datetime':
        if (p.zone === 'offset')
          place.warn(
            'the offset of each value is not kept (timestamp with time zone keeps the instant, in UTC)',
          );
        return {
          name: p.zone === 'none' ? 'timestamp' : 'timestamp with time zone',
          params: precision(p.precision),
        };
      case 'json':
        return { name: 'jsonb', params: null };
      case 'xml':
        return { name: 'xml', params: null };
      case 'uuid':
        return { name: 'uuid', params: null };
      case 'enum':
        if (p.set) {
          place.warn('a SET of values becomes text: its members are not checked (MySQL only has SET)');
          return { name: 'text', params: null };
        }
        // PostgreSQL enum labels have at most 63 bytes; longer values are checked on text instead.
        if (p.values.every((value) => new TextEncoder().encode(value).length <= 63))
          return { name: 'enum', params: { values: p.values } };
        checks.push(this.inCheck(place, p.values));
        return { name: 'text', params: null };
      case 'spatial':
        place.warn(
          `${p.shape} kept as WKB bytes in bytea: no spatial operators, index or SRID (PostgreSQL needs PostGIS for geometry)`,
        );
        return { name: 'bytea', params: null };
      case 'textual':
        return p.length === null
          ? { name: 'text', params: null }
          : { name: 'character varying', params: { length: p.length } };
    }
  }

  private mysqlType(p: Portable, place: ColumnPlace): TargetType {
    const precision = (value: number) => {
      if (value > 6) place.warn(`fractional seconds cut from ${value} to 6 digits (MySQL's most)`);
      return value === 0 ? null : { precision: Math.min(6, value) };
    };
    switch (p.kind) {
      case 'integer':
        return {
          name: { 1: 'tinyint', 2: 'smallint', 3: 'mediumint', 4: 'int', 8: 'bigint' }[p.bytes],
          params: null,
          unsigned: p.unsigned,
        };
      case 'decimal': {
        let { precision: digits, scale } = p;
        if (digits === null) {
          place.warn(
            'unbounded numeric becomes decimal(65,30): at most 35 digits before the point and 30 after',
          );
          return { name: 'decimal', params: { precision: 65, scale: 30 } };
        }
        if (scale > 30 || digits > 65) {
          const integerDigits = Math.min(digits - scale, 65);
          scale = Math.min(scale, 30, 65 - integerDigits);
          digits = Math.min(65, integerDigits + scale);
          place.warn(
            `decimal(${p.precision},${p.scale}) becomes decimal(${digits},${scale}) (MySQL's most is 65 digits, 30 after the point)`,
          );
        }
        return { name: 'decimal', params: { precision: digits, scale } };
      }
      case 'float':
        return { name: p.double ? 'double' : 'float', params: null };
      case 'boolean':
        return { name: 'boolean', params: null };
      case 'bits':
        if (p.varying)
          place.warn(
            `bit varying(${p.length}) becomes bit(${Math.min(p.length, 64)}): shorter strings are padded with leading zeros`,
          );
        if (p.length <= 64) return { name: 'bit', params: { length: p.length } };
        place.warn(
          `bit(${p.length}) kept as bytes in varbinary(${Math.ceil(p.length / 8)}) (MySQL's BIT has at most 64)`,
        );
        return { name: 'varbinary', params: { length: Math.ceil(p.length / 8) } };
      case 'string':
        return this.mysqlString(p.fixed, p.length, place);
      case 'binary':
        if (p.length === null) {
          if (place.keyed) {
            place.warn(
              'unbounded bytes in a key become varbinary(255): longer values do not fit (MySQL keys need a length)',
            );
            return { name: 'varbinary', params: { length: 255 } };
          }
          return { name: 'longblob', params: null };
        }
        if (p.fixed && p.length <= 255) return { name: 'binary', params: { length: p.length } };
        if (p.length <= 8000) return { name: 'varbinary', params: { length: p.length } };
        return { name: 'longblob', params: null };
      case 'date':
        return { name: 'date', params: null };
      case 'year':
        return { name: 'year', params: null };
      case 'time':
        if (p.zone) place.warn('time with time zone becomes time: the zone of each value is not kept');
        return { name: 'time', params: precision(p.precision) };
      case 'datetime':
        if (p.zone !== 'none')
          place.warn(
            `${p.zone === 'utc' ? 'time zone' : 'offset'} not kept: datetime holds the time as written (write UTC), and MySQL's TIMESTAMP only reaches 2038`,
          );
        return { name: 'datetime', params: precision(p.precision) };
      case 'json':
        return { name: 'json', params: null };
      case 'xml':
        place.warn('xml becomes longtext: the XML is not checked');
        return { name: 'longtext', params: null };
      case 'uuid':
        return { name: 'char', params: { length: 36 } };
      case 'enum':
        return { name: p.set ? 'set' : 'enum', params: { values: p.values } };
      case 'spatial':
        place.warn(`spatial ${p.shape}: values must be rewritten as MySQL geometry (WKT or WKB)`);
        return {
          name: ['point', 'polygon', 'linestring'].includes(p.shape) ? p.shape : 'geometry',
          params: null,
        };
      case 'textual':
        return this.mysqlString(false, p.length, place);
    }
  }

  private mysqlString(fixed: boolean, length: number | null, place: ColumnPlace): TargetType {
    // InnoDB keys hold at most 3072 bytes (768 utf8mb4 characters); TEXT cannot be a key or foreign key.
    if (place.keyed && (length === null || length > 768)) {
      const fitted = 255;
      place.warn(
        `${length === null ? 'unbounded text' : `varchar(${length})`} in a key becomes varchar(${fitted}): longer values do not fit (MySQL keys take at most 3072 bytes)`,
      );
      return { name: 'varchar', params: { length: fitted } };
    }
    if (length !== null && fixed && length <= 255) return { name: 'char', params: { length } };
    if (length !== null && (length <= 768 || (length <= 16_383 && !place.indexed)))
      return { name: 'varchar', params: { length } };
    if (length !== null && length <= 16_383) return { name: 'text', params: null };
    if (length !== null && length <= 4_194_303) return { name: 'mediumtext', params: null };
    return { name: 'longtext', params: null };
  }

  private sqlsrvType(p: Portable, place: ColumnPlace, checks: Check[]): TargetType {
    const precision = (value: number) => (value === 7 ? null : { precision: value });
    // SQL Server keys and indexes cannot hold a `max` type and take at most 900 bytes (450 nvarchar characters).
    const inIndex = place.keyed || place.indexed;
    const text = (length: number | null, fixed = false): TargetType => {
      if (length !== null && length <= 4000)
        return { name: fixed ? 'nchar' : 'nvarchar', params: { length: Math.max(1, length) } };
      if (inIndex) {
        place.warn(
          `${length === null ? 'unbounded text' : `text of ${length} characters`} in a key or index becomes nvarchar(450): longer values do not fit (SQL Server keys take at most 900 bytes)`,
        );
        return { name: 'nvarchar', params: { length: 450 } };
      }
      return { name: 'nvarchar', params: { length: 'max' } };
    };
    switch (p.kind) {
      case 'integer':
        if (p.bytes === 8 && p.unsigned) place.warn(UNSIGNED_BIGINT_LOSS);
        if (p.bytes === 1 && p.unsigned) return { name: 'tinyint', params: null };
        return { name: { 2: 'smallint', 4: 'int', 8: 'bigint' }[signedBytes(p)], params: null };
      case 'decimal': {
        if (p.precision === null) {
          place.warn(
            'unbounded numeric becomes decimal(38,10): at most 28 digits before the point and 10 after',
          );
          return { name: 'decimal', params: { precision: 38, scale: 10 } };
        }
        let { precision: digits, scale } = p;
        if (digits > 38) {
          const integerDigits = Math.min(digits - scale, 38);
          scale = Math.min(scale, 38 - integerDigits);
          digits = integerDigits + scale;
          place.warn(
            `decimal(${p.precision},${p.scale}) becomes decimal(${digits},${scale}) (SQL Server's most is 38 digits)`,
          );
        }
        return { name: 'decimal', params: { precision: digits, scale } };
      }
      case 'float':
        return { name: p.double ? 'float' : 'real', params: null };
      case 'boolean':
        return { name: 'bit', params: null };
      case 'bits':
        if (p.length === 1 && !p.varying) return { name: 'bit', params: null };
        place.warn(
          `bit(${p.length}) kept as bytes in varbinary(${Math.ceil(p.length / 8)}) (SQL Server has no bit strings)`,
        );
        return { name: 'varbinary', params: { length: Math.ceil(p.length / 8) } };
      case 'string':
        return text(p.length, p.fixed);
      case 'binary':
        if (p.length !== null && p.length <= 8000)
          return { name: p.fixed ? 'binary' : 'varbinary', params: { length: Math.max(1, p.length) } };
        if (inIndex) {
          place.warn('unbounded bytes in a key or index become varbinary(900): longer values do not fit');
          return { name: 'varbinary', params: { length: 900 } };
        }
        return { name: 'varbinary', params: { length: 'max' } };
      case 'date':
        return { name: 'date', params: null };
      case 'year':
        return { name: 'smallint', params: null };
      case 'time':
        if (p.zone) place.warn('time with time zone becomes time: the zone of each value is not kept');
        return { name: 'time', params: precision(p.precision) };
      case 'datetime':
        return { name: p.zone === 'none' ? 'datetime2' : 'datetimeoffset', params: precision(p.precision) };
      case 'json': {
        // SQL Server 2022 has no JSON type: the text is checked instead.
        const column = this.targetColumn(place);
        checks.push({
          name: `CK_${splitTableName(place.table.name)[1]}_${column}_json`,
          expression: `ISJSON(${DIALECTS.sqlsrv.ident(column)}) = 1`,
        });
        return text(null);
      }
      case 'xml':
        return { name: 'xml', params: null };
      case 'uuid':
        return { name: 'uniqueidentifier', params: null };
      case 'enum': {
        const longest = Math.max(1, ...p.values.map((value) => value.length));
        if (p.set) {
          place.warn('a SET of values becomes nvarchar: its members are not checked (SQL Server has no SET)');
          return text(p.values.reduce((sum, value) => sum + value.length + 1, 0));
        }
        checks.push(this.inCheck(place, p.values));
        return text(longest);
      }
      case 'spatial':
        place.warn(`spatial ${p.shape}: values must be rewritten as SQL Server geometry (WKT or WKB)`);
        return { name: 'geometry', params: null };
      case 'textual':
        return text(p.length);
    }
  }

  private targetColumn(place: ColumnPlace): string {
    return this.columnNames.get(place.table.name)?.get(place.column.name) ?? place.column.name;
  }

  /** A CHECK that keeps an enum's values on a text column (`col IN ('a', 'b')`). */
  private inCheck(place: ColumnPlace, values: string[]): Check {
    const dialect = DIALECTS[this.target];
    const bare = splitTableName(place.table.name)[1];
    const column = this.targetColumn(place);
    return {
      name: this.target === 'sqlsrv' ? `CK_${bare}_${column}` : `${bare}_${column}_check`,
      expression: `${dialect.ident(column)} IN (${values.map(dialect.string).join(', ')})`,
    };
  }

  // ---- defaults ----

  private convertDefault(
    text: string,
    portable: Portable,
    type: TargetType,
    place: ColumnPlace,
  ): string | null {
    const parsed = readDefault(text, this.source);
    const dropped = (why: string) => {
      place.warn(`default ${text} dropped: ${why}`);
      return null;
    };
    const dialect = DIALECTS[this.target];
    const wrap = (value: string) =>
      this.target === 'mysql' && /text|blob|json|geometry|point|polygon|linestring/.test(type.name)
        ? `(${value})`
        : value;
    switch (parsed.kind) {
      case 'null':
        return null;
      case 'now':
        return this.nowDefault(portable, type) ?? dropped(`no current-time default fits ${type.name}`);
      case 'uuid':
        if (portable.kind !== 'uuid' && portable.kind !== 'string')
          return dropped(`no generated UUID fits ${type.name}`);
        if (parsed.ordered)
          place.warn(`default ${text} becomes a random UUID: values are no longer time-ordered`);
        return { pgsql: 'gen_random_uuid()', mysql: '(uuid())', sqlsrv: 'NEWID()' }[this.target];
      case 'boolean':
        if (portable.kind === 'boolean') return this.booleanLiteral(parsed.value);
        return wrap(parsed.value ? '1' : '0');
      case 'number':
        if (portable.kind === 'boolean' && /^[01]$/.test(parsed.text))
          return this.booleanLiteral(parsed.text === '1');
        if (portable.kind === 'string' || portable.kind === 'enum') return wrap(dialect.string(parsed.text));
        return wrap(parsed.text);
      case 'bits':
        if (this.target === 'pgsql' && portable.kind === 'bits') return `B'${parsed.value}'`;
        if (this.target === 'mysql' && portable.kind === 'bits') return `b'${parsed.value}'`;
        if (portable.kind === 'bits' || portable.kind === 'boolean')
          return portable.kind === 'boolean'
            ? this.booleanLiteral(/1/.test(parsed.value))
            : String(Number.parseInt(parsed.value, 2));
        return dropped(`a bit string does not fit ${type.name}`);
      case 'string': {
        const value = parsed.value;
        if (portable.kind === 'boolean') {
          const truth = /^(t|true|y|yes|on|1)$/i.test(value)
            ? true
            : /^(f|false|n|no|off|0)$/i.test(value)
              ? false
              : null;
          return truth === null ? dropped('not a boolean') : this.booleanLiteral(truth);
        }
        if (/^0000-00-00/.test(value) && this.target !== 'mysql')
          return dropped(`${DRIVER_TITLES[this.target]} has no zero date`);
        if (this.source === 'pgsql' && place.column.driver_data_type_params?.array === true) {
          if (value === '{}') return wrap(dialect.string('[]'));
          return dropped('an array literal is no JSON');
        }
        return wrap(dialect.string(value));
      }
      case 'sequence':
        return null;
      case 'expression':
        return dropped(`the expression has no translation for ${DRIVER_TITLES[this.target]}`);
    }
  }

  private booleanLiteral(value: boolean): string {
    if (this.target === 'pgsql') return value ? 'true' : 'false';
    return value ? '1' : '0';
  }

  private nowDefault(portable: Portable, type: TargetType): string | null {
    const digits = type.params?.precision;
    if (portable.kind === 'datetime') {
      if (this.target === 'pgsql') return 'CURRENT_TIMESTAMP';
      if (this.target === 'mysql') return digits ? `CURRENT_TIMESTAMP(${digits})` : 'CURRENT_TIMESTAMP';
      return type.name === 'datetimeoffset' ? 'SYSDATETIMEOFFSET()' : 'SYSDATETIME()';
    }
    if (portable.kind === 'date')
      return { pgsql: 'CURRENT_DATE', mysql: '(CURRENT_DATE)', sqlsrv: 'CONVERT(date, SYSDATETIME())' }[
        this.target
      ];
    if (portable.kind === 'time' && !portable.zone)
      return { pgsql: 'LOCALTIME', mysql: '(CURRENT_TIME)', sqlsrv: 'CONVERT(time, SYSDATETIME())' }[
        this.target
      ];
    return null;
  }

  // ---- numbering ----

  /**
   * Numbered columns in the target: PostgreSQL identity (smallint, integer, bigint), MySQL AUTO_INCREMENT
   * (one per table, first column of a key), SQL Server IDENTITY (one per table). A column that cannot be
   * numbered there loses its numbering with a warning.
   */
  private numbering(table: DocumentTable): void {
    let numbered = 0;
    for (const column of table.columns) {
      if (!column.is_auto_increment) continue;
      const integer = ['smallint', 'integer', 'bigint', 'int', 'tinyint', 'mediumint'].includes(
        column.driver_data_type_name,
      );
      let why: string | null = null;
      if (!integer) why = `${DRIVER_TITLES[this.target]} numbers integer columns only`;
      else if (this.target !== 'pgsql' && numbered > 0)
        why = `${DRIVER_TITLES[this.target]} numbers one column per table`;
      if (why !== null) {
        column.is_auto_increment = false;
        this.warn(table.name, column.name, `no longer numbered by the database: ${why}`);
        continue;
      }
      numbered += 1;
      column.is_nullable = false;
      column.default = null;
      // MySQL numbers only a column that leads an index (pagila's payment key is (payment_date, payment_id)):
      // an index of its own keeps the numbering and loses nothing.
      if (this.target === 'mysql' && !table.indexes.some((index) => index.columns[0] === column.name))
        table.indexes.push({
          uuid: `${table.uuid}:numbered:${column.name}`,
          name: `${splitTableName(table.name)[1]}_${column.name}_idx`,
          type: 'index',
          columns: [column.name],
        });
    }
  }

  // ---- keys and indexes ----

  /**
   * Keys within the target's bytes per key (InnoDB 3072 with 4 bytes per utf8mb4 character; SQL Server 900
   * for the clustered primary key, 1700 for others, 2 bytes per nvarchar character): the string columns of
   * a key that passes it share what is left, the shortest keeping their length, each cut one warned.
   */
  private fitKeys(table: DocumentTable): void {
    if (this.target === 'pgsql') return;
    const perCharacter = this.target === 'mysql' ? 4 : 2;
    const stringTypes = ['char', 'varchar', 'nchar', 'nvarchar'];
    for (const index of table.indexes) {
      const budget = this.target === 'mysql' ? 3072 : index.type === 'primary' ? 900 : 1700;
      const columns = index.columns
        .map((name) => table.columns.find((column) => column.name === name))
        .filter((column) => column !== undefined);
      const lengthOf = (column: Column) => column.driver_data_type_params?.length;
      const strings = columns
        .filter(
          (column) =>
            stringTypes.includes(column.driver_data_type_name) && typeof lengthOf(column) === 'number',
        )
        .sort((a, b) => (lengthOf(a) as number) - (lengthOf(b) as number));
      const others = columns
        .filter((column) => !strings.includes(column))
        .reduce((sum, column) => sum + keyBytes(column), 0);
      let characters = Math.floor((budget - others) / perCharacter);
      if (strings.reduce((sum, column) => sum + (lengthOf(column) as number), 0) <= characters) continue;
      strings.forEach((column, position) => {
        const length = lengthOf(column) as number;
        const fitted = Math.max(1, Math.min(length, Math.floor(characters / (strings.length - position))));
        characters -= fitted;
        if (fitted === length) return;
        column.driver_data_type_params = { ...column.driver_data_type_params, length: fitted };
        this.warn(
          table.name,
          column.name,
          `${column.driver_data_type_name}(${length}) becomes ${column.driver_data_type_name}(${fitted}): key ${index.name} must fit ${DRIVER_TITLES[this.target]}'s ${budget} bytes; longer values do not fit`,
        );
      });
    }
  }

  /** The table's keys as index records (column flags made explicit), with methods the target has. */
  private convertIndexes(source: DocumentTable, table: DocumentTable): Index[] {
    const columnNames = this.columnNames.get(source.name) ?? new Map<string, string>();
    const methods = DRIVER_INDEX_METHODS[this.target];
    const indexes: Index[] = [];
    for (const key of tableKeys(source)) {
      const index: Index = {
        uuid: key.uuid.startsWith('flag:') ? `${source.uuid}:${key.uuid}` : key.uuid,
        name: key.name,
        type: key.type,
        columns: key.columns.map((name) => columnNames.get(name) ?? name),
      };
      if (key.is_constraint === true && this.target === 'pgsql') index.is_constraint = true;
      if (key.note !== undefined) index.note = key.note;
      // MySQL indexes a JSON column only through a generated column.
      const json = index.columns.find(
        (name) => table.columns.find((column) => column.name === name)?.driver_data_type_name === 'json',
      );
      if (this.target === 'mysql' && json !== undefined) {
        this.warn(
          table.name,
          json,
          `index ${key.name} dropped: MySQL indexes JSON only through a generated column`,
        );
        // A key made from a column flag would come back from the flag.
        const flagged = table.columns.find((column) => column.name === json);
        if (flagged && index.columns.length === 1) {
          flagged.is_index = false;
          flagged.is_unique_key = false;
        }
        continue;
      }
      if (key.method !== undefined && key.method !== 'btree') {
        if ((methods as readonly string[]).includes(key.method)) index.method = key.method;
        else
          this.warn(
            table.name,
            null,
            `index ${key.name}: ${key.method} index becomes a plain (btree) index (${DRIVER_TITLES[this.target]} has no ${key.method} indexes)`,
          );
      }
      if (this.target === 'sqlsrv' && index.type === 'unique')
        for (const name of index.columns)
          if (table.columns.find((column) => column.name === name)?.is_nullable)
            this.warn(
              table.name,
              name,
              `unique key ${key.name}: SQL Server lets only one row hold NULL in it`,
            );
      indexes.push(index);
    }
    return indexes;
  }

  /** Key, index, constraint and check names made valid and unique where the target needs them to be. */
  private nameKeys(tables: DocumentTable[], relationships: Relationship[]): void {
    // PostgreSQL: indexes share a schema's namespace with tables; SQL Server: constraints share the schema's
    // object names; MySQL: foreign keys are named once per database.
    const schemaNames = new Map<string, Set<string>>();
    const namesOf = (table: string) => {
      const schema = splitTableName(table)[0] ?? '';
      let names = schemaNames.get(schema);
      if (!names) {
        names = new Set();
        schemaNames.set(schema, names);
      }
      return names;
    };
    for (const table of tables) namesOf(table.name).add(splitTableName(table.name)[1].toLowerCase());
    for (const table of tables) {
      const bare = splitTableName(table.name)[1];
      const tableNames = new Set<string>();
      for (const index of table.indexes) {
        let wanted = index.name;
        if (index.type === 'primary')
          wanted = { pgsql: `${bare}_pkey`, mysql: 'PRIMARY', sqlsrv: `PK_${bare}` }[this.target];
        const schemaWide = this.target === 'pgsql' || (this.target === 'sqlsrv' && index.type !== 'index');
        const used = schemaWide ? namesOf(table.name) : tableNames;
        // A name another table's index has (MySQL's and SQL Server's are per table) gets the table's name first.
        const taken = used.has(cut(wanted, this.limit).toLowerCase());
        const name = uniqueName(taken && schemaWide ? `${bare}_${wanted}` : wanted, this.limit, used, true);
        if (name !== wanted)
          this.warn(
            table.name,
            null,
            `${index.type === 'index' ? 'index' : `${index.type} key`} ${index.name} named ${name}: ${this.renameReason(wanted, taken)}`,
          );
        index.name = name;
      }
      const checkNames = this.target === 'pgsql' ? new Set<string>() : namesOf(table.name);
      for (const check of table.checks ?? []) {
        const taken = checkNames.has(cut(check.name, this.limit).toLowerCase());
        const name = uniqueName(check.name, this.limit, checkNames, true);
        if (name !== check.name)
          this.warn(
            table.name,
            null,
            `check ${check.name} named ${name}: ${this.renameReason(check.name, taken)}`,
          );
        check.name = name;
      }
    }
    // Foreign keys: one name per constraint (a composite key is one relationship per column pair).
    const renamed = new Map<string, string>();
    const perTable = new Map<string, Set<string>>();
    const mysqlForeignKeys = new Set<string>();
    for (const relationship of relationships) {
      if (relationship.name === null) continue;
      const group = `${relationship.source_table}\u0000${relationship.target_table}\u0000${relationship.name}`;
      let name = renamed.get(group);
      if (name === undefined) {
        let used: Set<string>;
        if (this.target === 'pgsql') {
          used = perTable.get(relationship.source_table) ?? new Set();
          perTable.set(relationship.source_table, used);
        } else used = this.target === 'mysql' ? mysqlForeignKeys : namesOf(relationship.source_table);
        const taken = used.has(cut(relationship.name, this.limit).toLowerCase());
        name = uniqueName(relationship.name, this.limit, used, true);
        if (name !== relationship.name)
          this.warn(
            relationship.source_table,
            null,
            `foreign key ${relationship.name} named ${name}: ${this.renameReason(relationship.name, taken)}`,
          );
        renamed.set(group, name);
      }
      relationship.name = name;
    }
  }

  private renameReason(wanted: string, taken: boolean): string {
    const scope =
      this.target === 'pgsql'
        ? 'PostgreSQL names indexes once per schema'
        : this.target === 'mysql'
          ? 'MySQL names foreign keys and checks once per database'
          : 'SQL Server names constraints once per schema';
    const long = cut(wanted, this.limit) !== wanted;
    const length = `${DRIVER_TITLES[this.target]} names have at most ${this.limit.max} ${this.limit.unit}`;
    return long && taken ? `${length}, and ${scope}` : long ? length : scope;
  }

  // ---- relationships and checks ----

  private convertRelationships(relationships: Relationship[], tables: DocumentTable[]): Relationship[] {
    const exists = new Set(tables.map((table) => table.name));
    return relationships.flatMap((relationship) => {
      const sourceTable = this.tableNames.get(relationship.source_table) ?? relationship.source_table;
      const targetTable = this.tableNames.get(relationship.target_table) ?? relationship.target_table;
      if (!exists.has(sourceTable) || !exists.has(targetTable)) return [];
      const converted: Relationship = {
        ...relationship,
        source_table: sourceTable,
        target_table: targetTable,
        source_column:
          this.columnNames.get(relationship.source_table)?.get(relationship.source_column) ??
          relationship.source_column,
        target_column:
          this.columnNames.get(relationship.target_table)?.get(relationship.target_column) ??
          relationship.target_column,
        on_delete: this.referentialAction(relationship.on_delete, sourceTable, relationship, 'ON DELETE'),
        on_update: this.referentialAction(relationship.on_update, sourceTable, relationship, 'ON UPDATE'),
      };
      return [converted];
    });
  }

  /**
   * SQL Server refuses a foreign key whose cascading action (CASCADE, SET NULL, SET DEFAULT) would make a
   * second path of cascades between two tables, or a cycle (a self-reference included): such an action is
   * dropped (NO ACTION), keys in schema order, with a warning — a trigger can do what it did.
   */
  private singleCascadePaths(relationships: Relationship[]): void {
    const constraints = new Map<string, Relationship[]>();
    for (const relationship of relationships) {
      const key =
        relationship.name === null
          ? relationship.uuid
          : `${relationship.source_table}\u0000${relationship.target_table}\u0000${relationship.name}`;
      constraints.set(key, [...(constraints.get(key) ?? []), relationship]);
    }
    for (const action of ['on_delete', 'on_update'] as const) {
      const edges: [string, string][] = [];
      for (const pairs of constraints.values()) {
        const first = pairs[0] as Relationship;
        const value = first[action];
        if (value === null || !/^(cascade|set null|set default)$/i.test(value.trim())) continue;
        const edge: [string, string] = [first.target_table, first.source_table];
        if (!cascadePathsRepeat([...edges, edge])) {
          edges.push(edge);
          continue;
        }
        for (const pair of pairs) pair[action] = null;
        this.warn(
          first.source_table,
          first.source_column,
          `foreign key ${first.name ?? `to ${first.target_table}`}: ${action === 'on_delete' ? 'ON DELETE' : 'ON UPDATE'} ${value.toUpperCase()} dropped: SQL Server refuses a second path of cascades (or a cycle) from ${first.target_table}; a trigger can do it`,
        );
      }
    }
  }

  private referentialAction(
    action: string | null,
    table: string,
    relationship: Relationship,
    clause: string,
  ): string | null {
    if (action === null) return null;
    const normal = action.toLowerCase().replace(/\s+/g, ' ');
    if (normal === 'set default' && this.target === 'mysql') {
      this.warn(
        table,
        relationship.source_column,
        `foreign key ${relationship.name ?? ''} ${clause} SET DEFAULT dropped (InnoDB refuses it)`.replace(
          '  ',
          ' ',
        ),
      );
      return null;
    }
    // SQL Server has no RESTRICT; its NO ACTION (the default, as the importer reads it) checks at once, as
    // RESTRICT does.
    if ((normal === 'restrict' || normal === 'no action') && this.target === 'sqlsrv') return null;
    return action;
  }

  private convertChecks(source: DocumentTable, table: string): Check[] {
    const columns = this.columnNames.get(source.name) ?? new Map<string, string>();
    const checks: Check[] = [];
    for (const check of source.checks ?? []) {
      // MariaDB's own json_valid check of a json column: the target's JSON type (or ISJSON check) keeps it.
      if (this.source === 'mysql' && /^json_valid\s*\(\s*`?[^`()]+`?\s*\)$/i.test(check.expression.trim()))
        continue;
      const expression = translateCheck(check.expression, this.source, this.target, columns);
      if (expression === null) {
        this.warn(
          table,
          null,
          `check ${check.name} (${check.expression}) dropped: its condition has no sure translation for ${DRIVER_TITLES[this.target]}`,
        );
        continue;
      }
      checks.push({ name: check.name, expression });
    }
    return checks;
  }
}

const UNSIGNED_BIGINT_LOSS = 'bigint unsigned becomes bigint: values above 9223372036854775807 do not fit';

/** The bytes of the smallest signed integer (2, 4 or 8; no driver but MySQL has a signed byte) that holds every value. */
function signedBytes(p: { bytes: 1 | 2 | 3 | 4 | 8; unsigned: boolean }): 2 | 4 | 8 {
  if (p.bytes <= 2) return p.bytes === 2 && p.unsigned ? 4 : 2;
  if (p.bytes <= 4) return p.bytes === 4 && p.unsigned ? 8 : 4;
  return 8;
}

// ---- reading source types ----

function readPgType(
  name: string,
  params: DataTypeParams,
  length: number | null,
  warn: (message: string) => void,
): Portable {
  const fractional = params.precision ?? 6;
  switch (name) {
    case 'smallint':
    case 'smallserial':
      return { kind: 'integer', bytes: 2, unsigned: false };
    case 'integer':
    case 'serial':
      return { kind: 'integer', bytes: 4, unsigned: false };
    case 'bigint':
    case 'bigserial':
      return { kind: 'integer', bytes: 8, unsigned: false };
    case 'numeric': {
      if (params.precision === undefined) return { kind: 'decimal', precision: null, scale: 0 };
      const scale = params.scale ?? 0;
      // A negative scale rounds to tens, hundreds…: the same numbers fit a scale of 0 with more digits.
      return scale < 0
        ? { kind: 'decimal', precision: params.precision - scale, scale: 0 }
        : { kind: 'decimal', precision: params.precision, scale };
    }
    case 'money':
      return { kind: 'decimal', precision: 19, scale: 2 };
    case 'real':
      return { kind: 'float', double: false };
    case 'double precision':
      return { kind: 'float', double: true };
    case 'character varying':
      return { kind: 'string', fixed: false, length };
    case 'character':
      return { kind: 'string', fixed: true, length: length ?? 1 };
    case 'text':
      return { kind: 'string', fixed: false, length: null };
    case '"char"':
      return { kind: 'string', fixed: true, length: 1 };
    case 'name':
      return { kind: 'string', fixed: false, length: 63 };
    case 'bytea':
      return { kind: 'binary', fixed: false, length: null };
    case 'timestamp':
      return { kind: 'datetime', precision: fractional, zone: 'none' };
    case 'timestamp with time zone':
      return { kind: 'datetime', precision: fractional, zone: 'utc' };
    case 'date':
      return { kind: 'date' };
    case 'time':
      return { kind: 'time', precision: fractional, zone: false };
    case 'time with time zone':
      return { kind: 'time', precision: fractional, zone: true };
    case 'boolean':
      return { kind: 'boolean' };
    case 'enum':
      return { kind: 'enum', values: params.values ?? [], set: false };
    case 'bit':
      return { kind: 'bits', length: length ?? 1, varying: false };
    case 'bit varying':
      return { kind: 'bits', length: length ?? 64, varying: true };
    case 'uuid':
      return { kind: 'uuid' };
    case 'xml':
      return { kind: 'xml' };
    case 'json':
    case 'jsonb':
      return { kind: 'json' };
    case 'oid':
    case 'xid':
    case 'cid':
      return { kind: 'integer', bytes: 4, unsigned: true };
    case 'xid8':
      return { kind: 'integer', bytes: 8, unsigned: true };
  }
  const textual: Record<string, number | null> = {
    inet: 43,
    cidr: 43,
    macaddr: 17,
    macaddr8: 23,
    interval: 64,
    pg_lsn: 17,
  };
  const what = `${name}${name === 'interval' && params.fields ? ` ${params.fields}` : ''}`;
  if (['point', 'line', 'lseg', 'box', 'path', 'polygon', 'circle'].includes(name))
    return {
      kind: 'spatial',
      shape: { lseg: 'linestring', path: 'linestring', box: 'polygon' }[name] ?? name,
    };
  warn(`${what} kept as text: values are not checked, and ${name} operators and arithmetic are lost`);
  return { kind: 'textual', length: textual[name] ?? null };
}

function readMysqlType(
  name: string,
  params: DataTypeParams,
  length: number | null,
  unsigned: boolean,
  warn: (message: string) => void,
): Portable {
  const fractional = params.precision ?? 0;
  const integers: Record<string, 1 | 2 | 3 | 4 | 8> = {
    tinyint: 1,
    smallint: 2,
    mediumint: 3,
    int: 4,
    bigint: 8,
  };
  const bytes = integers[name];
  if (bytes !== undefined) return { kind: 'integer', bytes, unsigned };
  switch (name) {
    case 'serial':
      return { kind: 'integer', bytes: 8, unsigned: true };
    case 'decimal':
      return { kind: 'decimal', precision: params.precision ?? 10, scale: params.scale ?? 0 };
    case 'float':
      return { kind: 'float', double: false };
    case 'double':
      return { kind: 'float', double: true };
    case 'bit':
      return { kind: 'bits', length: length ?? 1, varying: false };
    case 'boolean':
      return { kind: 'boolean' };
    case 'date':
      return { kind: 'date' };
    case 'time':
      warn('MySQL TIME spans ±838 hours: only times of day (00:00 to 24:00) fit');
      return { kind: 'time', precision: fractional, zone: false };
    case 'datetime':
      return { kind: 'datetime', precision: fractional, zone: 'none' };
    case 'timestamp':
      return { kind: 'datetime', precision: fractional, zone: 'utc' };
    case 'year':
      return { kind: 'year' };
    case 'char':
      return { kind: 'string', fixed: true, length: length ?? 1 };
    case 'varchar':
      return { kind: 'string', fixed: false, length };
    case 'tinytext':
      return { kind: 'string', fixed: false, length: 255 };
    case 'text':
    case 'mediumtext':
    case 'longtext':
      return { kind: 'string', fixed: false, length: null };
    case 'binary':
      return { kind: 'binary', fixed: true, length: length ?? 1 };
    case 'varbinary':
      return { kind: 'binary', fixed: false, length };
    case 'tinyblob':
      return { kind: 'binary', fixed: false, length: 255 };
    case 'enum':
    case 'set':
      return { kind: 'enum', values: params.values ?? [], set: name === 'set' };
    case 'json':
      return { kind: 'json' };
  }
  if (/blob$/.test(name)) return { kind: 'binary', fixed: false, length: null };
  return { kind: 'spatial', shape: name };
}

function readSqlsrvType(
  name: string,
  params: DataTypeParams,
  length: number | null,
  warn: (message: string) => void,
): Portable {
  const fractional = params.precision ?? 7;
  switch (name) {
    case 'tinyint':
      return { kind: 'integer', bytes: 1, unsigned: true };
    case 'smallint':
      return { kind: 'integer', bytes: 2, unsigned: false };
    case 'int':
      return { kind: 'integer', bytes: 4, unsigned: false };
    case 'bigint':
      return { kind: 'integer', bytes: 8, unsigned: false };
    case 'bit':
      return { kind: 'boolean' };
    case 'decimal':
    case 'numeric':
      return { kind: 'decimal', precision: params.precision ?? 18, scale: params.scale ?? 0 };
    case 'money':
      return { kind: 'decimal', precision: 19, scale: 4 };
    case 'smallmoney':
      return { kind: 'decimal', precision: 10, scale: 4 };
    case 'float':
      return { kind: 'float', double: true };
    case 'real':
      return { kind: 'float', double: false };
    case 'date':
      return { kind: 'date' };
    case 'time':
      return { kind: 'time', precision: fractional, zone: false };
    case 'datetime2':
      return { kind: 'datetime', precision: fractional, zone: 'none' };
    case 'datetimeoffset':
      return { kind: 'datetime', precision: fractional, zone: 'offset' };
    case 'datetime':
      return { kind: 'datetime', precision: 3, zone: 'none' };
    case 'smalldatetime':
      return { kind: 'datetime', precision: 0, zone: 'none' };
    case 'char':
    case 'nchar':
      return { kind: 'string', fixed: true, length: length ?? 1 };
    case 'varchar':
    case 'nvarchar':
      return { kind: 'string', fixed: false, length: params.length === 'max' ? null : (length ?? 1) };
    case 'text':
    case 'ntext':
      return { kind: 'string', fixed: false, length: null };
    case 'sysname':
      return { kind: 'string', fixed: false, length: 128 };
    case 'binary':
      return { kind: 'binary', fixed: true, length: length ?? 1 };
    case 'varbinary':
      return { kind: 'binary', fixed: false, length: params.length === 'max' ? null : (length ?? 1) };
    case 'image':
      return { kind: 'binary', fixed: false, length: null };
    case 'rowversion':
      warn('rowversion becomes 8 plain bytes: the database no longer sets it on every write');
      return { kind: 'binary', fixed: true, length: 8 };
    case 'uniqueidentifier':
      return { kind: 'uuid' };
    case 'xml':
      return { kind: 'xml' };
    case 'geometry':
    case 'geography':
      return { kind: 'spatial', shape: name };
  }
  warn(`${name} kept as text: values are not checked, and ${name} methods are lost`);
  return { kind: 'textual', length: name === 'hierarchyid' ? 4000 : null };
}

// ---- defaults ----

type ParsedDefault =
  | { kind: 'null' }
  | { kind: 'now' }
  | { kind: 'uuid'; ordered: boolean }
  | { kind: 'boolean'; value: boolean }
  | { kind: 'number'; text: string }
  | { kind: 'bits'; value: string }
  | { kind: 'string'; value: string }
  | { kind: 'sequence' }
  | { kind: 'expression' };

const NOW =
  /^(now\(\)|current_timestamp(\(\d?\))?|localtimestamp(\(\d?\))?|transaction_timestamp\(\)|statement_timestamp\(\)|getdate\(\)|sysdatetime\(\)|sysdatetimeoffset\(\)|now\(\d?\))$/i;

/** A default as written by the source driver, read into what it means. */
function readDefault(text: string, source: Driver): ParsedDefault {
  let value = text.trim();
  for (;;) {
    const unwrapped = unwrapParentheses(value);
    // PostgreSQL casts: `'x'::character varying`, `'{}'::text[]`, `('now'::text)::date`.
    const cast = source === 'pgsql' ? /^(.*?)::[\w\s."]+(\(\d+(,\s*\d+)?\))?(\[\])?$/s.exec(unwrapped) : null;
    const next = cast ? (cast[1] ?? '').trim() : unwrapped;
    if (next === value) break;
    value = next;
  }
  if (/^null$/i.test(value)) return { kind: 'null' };
  if (NOW.test(value)) return { kind: 'now' };
  if (/^(current_date|curdate\(\))$/i.test(value)) return { kind: 'now' };
  if (/^(gen_random_uuid|uuid_generate_v4|uuid|newid)\(\)$/i.test(value))
    return { kind: 'uuid', ordered: false };
  if (/^(uuidv7|uuid_generate_v1|uuid_generate_v1mc|newsequentialid)\(\)$/i.test(value))
    return { kind: 'uuid', ordered: true };
  if (/^(true|false)$/i.test(value)) return { kind: 'boolean', value: value.toLowerCase() === 'true' };
  if (/^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/.test(value)) return { kind: 'number', text: value };
  if (/^nextval\s*\(/i.test(value)) return { kind: 'sequence' };
  const bits = /^[bB]'([01]*)'$/.exec(value);
  if (bits) return { kind: 'bits', value: bits[1] ?? '' };
  const string = readStringLiteral(value, source);
  if (string !== null) {
    if (source === 'pgsql' && /^now$/i.test(string)) return { kind: 'now' };
    return { kind: 'string', value: string };
  }
  return { kind: 'expression' };
}

function unwrapParentheses(text: string): string {
  let value = text.trim();
  while (value.startsWith('(') && value.endsWith(')') && closes(value)) value = value.slice(1, -1).trim();
  return value;
}

/** Whether the opening parenthesis at 0 closes at the end (not `(a) + (b)`), strings skipped. */
function closes(text: string): boolean {
  let depth = 0;
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (char === "'") quoted = !quoted;
    if (quoted) continue;
    if (char === '(') depth++;
    if (char === ')') depth--;
    if (depth === 0 && i < text.length - 1) return false;
  }
  return depth === 0;
}

/** The value of one string literal (`'it''s'`, MySQL `'a\\'b'`, SQL Server `N'…'`), or null. */
function readStringLiteral(text: string, source: Driver): string | null {
  const match = /^(?:N|_utf8mb4|_utf8|E)?'((?:[^'\\]|''|\\.)*)'$/is.exec(text);
  if (!match) return null;
  const body = match[1] ?? '';
  const backslashes = source === 'mysql' || /^E'/i.test(text);
  if (!backslashes) return body.replaceAll("''", "'");
  const escapes: Record<string, string> = { n: '\n', t: '\t', r: '\r', '0': '\0', b: '\b', Z: '\x1a' };
  return body.replaceAll("''", "'").replace(/\\(.)/gs, (_all, char: string) => escapes[char] ?? char);
}

// ---- CHECK conditions ----

type Token = {
  kind: 'string' | 'ident' | 'word' | 'number' | 'op' | 'open' | 'close' | 'comma' | 'lbracket' | 'rbracket';
  text: string;
};

const PORTABLE_WORDS = new Set(['and', 'or', 'not', 'is', 'null', 'in', 'between', 'like']);
const FUNCTIONS: Record<string, Record<Driver, string>> = {
  upper: { pgsql: 'upper', mysql: 'UPPER', sqlsrv: 'UPPER' },
  lower: { pgsql: 'lower', mysql: 'LOWER', sqlsrv: 'LOWER' },
  abs: { pgsql: 'abs', mysql: 'ABS', sqlsrv: 'ABS' },
  char_length: { pgsql: 'char_length', mysql: 'CHAR_LENGTH', sqlsrv: 'LEN' },
  len: { pgsql: 'char_length', mysql: 'CHAR_LENGTH', sqlsrv: 'LEN' },
};
const OPERATORS = new Set(['=', '<>', '!=', '<', '>', '<=', '>=', '+', '-', '*', '/']);

/**
 * A CHECK condition in the target's SQL, or null when it uses anything beyond comparisons, AND/OR/NOT,
 * IN, BETWEEN, LIKE without SQL Server's bracket patterns, IS NULL and a few functions every driver has —
 * a condition that might load but mean something else is dropped (and warned about) instead.
 */
export function translateCheck(
  expression: string,
  source: Driver,
  target: Driver,
  columns: Map<string, string>,
): string | null {
  const tokens = tokenize(expression, source);
  if (tokens === null) return null;
  const byLower = new Map([...columns].map(([name, renamed]) => [name.toLowerCase(), renamed]));
  const dialect = DIALECTS[target];
  const out: string[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i] as Token;
    const next = tokens[i + 1];
    switch (token.kind) {
      case 'string':
        if (source === 'sqlsrv' && /\[/.test(token.text) && out.at(-1)?.toUpperCase() === 'LIKE') return null;
        out.push(dialect.string(token.text));
        break;
      case 'number':
      case 'open':
      case 'close':
      case 'comma':
        out.push(token.text);
        break;
      case 'op':
        if (!OPERATORS.has(token.text)) return null;
        // `x = ANY (ARRAY[…])` (PostgreSQL's form of IN).
        if (token.text === '=' && next?.kind === 'word' && next.text.toLowerCase() === 'any') {
          const list = arrayList(tokens, i + 2);
          if (list === null) return null;
          out.push(
            `IN (${list.values.map((value) => (value.kind === 'string' ? dialect.string(value.text) : value.text)).join(', ')})`,
          );
          i = list.end;
          break;
        }
        // A sign (`BETWEEN -40 AND 240`) stays with its number.
        if (
          (token.text === '-' || token.text === '+') &&
          next?.kind === 'number' &&
          !afterOperand(out.at(-1))
        ) {
          out.push(token.text + next.text);
          i++;
          break;
        }
        out.push(token.text);
        break;
      case 'ident': {
        const column = byLower.get(token.text.toLowerCase());
        if (column === undefined) return null;
        out.push(dialect.ident(column));
        break;
      }
      case 'word': {
        const lower = token.text.toLowerCase();
        if (PORTABLE_WORDS.has(lower)) out.push(lower.toUpperCase());
        else if ((lower === 'true' || lower === 'false') && target !== 'sqlsrv')
          out.push(lower.toUpperCase());
        else if (FUNCTIONS[lower] && next?.kind === 'open') {
          out.push(`${FUNCTIONS[lower][target]}(`);
          i++;
        } else if (byLower.has(lower)) out.push(dialect.ident(byLower.get(lower) as string));
        else return null;
        break;
      }
      default:
        return null;
    }
  }
  return out.join(' ').replace(/\( /g, '(').replace(/ \)/g, ')').replace(/ ,/g, ',');
}

/** Whether the text written last ends an operand (a sign after it is a minus, not a number's sign). */
function afterOperand(last: string | undefined): boolean {
  if (last === undefined || last === '(' || last === ',' || OPERATORS.has(last)) return false;
  return !PORTABLE_WORDS.has(last.toLowerCase());
}

/** The values of `(ARRAY['a', 'b'])` starting at the token after ANY, and the index of its last token. */
function arrayList(tokens: Token[], start: number): { values: Token[]; end: number } | null {
  let i = start;
  let opened = 0;
  while (tokens[i]?.kind === 'open') {
    opened++;
    i++;
  }
  if (opened === 0 || tokens[i]?.text.toLowerCase() !== 'array' || tokens[i + 1]?.kind !== 'lbracket')
    return null;
  i += 2;
  const values: Token[] = [];
  while (tokens[i] && tokens[i]?.kind !== 'rbracket') {
    const token = tokens[i] as Token;
    if (token.kind === 'string' || token.kind === 'number') values.push(token);
    else if (token.kind !== 'comma') return null;
    i++;
  }
  i++;
  for (; opened > 0; opened--, i++) if (tokens[i]?.kind !== 'close') return null;
  return values.length === 0 ? null : { values, end: i - 1 };
}

/** Tokens of a condition, PostgreSQL `::type` casts left out; null when something is not understood. */
function tokenize(text: string, source: Driver): Token[] | null {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const rest = text.slice(i);
    const space = /^\s+/.exec(rest);
    if (space) {
      i += space[0].length;
      continue;
    }
    const string = /^(?:N(?='))?'((?:[^'\\]|''|\\.)*)'/s.exec(rest);
    if (string) {
      const body = string[1] ?? '';
      if (source !== 'mysql' && body.includes('\\')) return null;
      tokens.push({ kind: 'string', text: readStringLiteral(`'${body}'`, source) ?? body });
      i += string[0].length;
      continue;
    }
    const cast =
      source === 'pgsql'
        ? /^::\s*("[^"]+"|[A-Za-z_]\w*)(\s+(varying|precision|without time zone|with time zone))?(\s*\(\d+(,\s*\d+)?\))?(\[\])?/.exec(
            rest,
          )
        : null;
    if (cast) {
      i += cast[0].length;
      continue;
    }
    const quoted =
      (source === 'pgsql' && /^"((?:[^"]|"")+)"/.exec(rest)) ||
      (source === 'mysql' && /^`((?:[^`]|``)+)`/.exec(rest)) ||
      (source === 'sqlsrv' && /^\[((?:[^\]]|\]\])+)\]/.exec(rest));
    if (quoted) {
      tokens.push({
        kind: 'ident',
        text: (quoted[1] ?? '').replace(/""|``|\]\]/g, (pair) => pair[0] as string),
      });
      i += quoted[0].length;
      continue;
    }
    const number = /^\d+(\.\d+)?/.exec(rest);
    if (number) {
      tokens.push({ kind: 'number', text: number[0] });
      i += number[0].length;
      continue;
    }
    const word = /^[A-Za-z_]\w*/.exec(rest);
    if (word) {
      tokens.push({ kind: 'word', text: word[0] });
      i += word[0].length;
      continue;
    }
    const op = /^(<>|!=|<=|>=|::|[=<>+\-*/%|~^&!:@#])/.exec(rest);
    if (op) {
      tokens.push({ kind: 'op', text: op[0] });
      i += op[0].length;
      continue;
    }
    const single: Record<string, Token['kind']> = {
      '(': 'open',
      ')': 'close',
      ',': 'comma',
      '[': 'lbracket',
      ']': 'rbracket',
    };
    const kind = single[rest[0] as string];
    if (kind === undefined) return null;
    tokens.push({ kind, text: rest[0] as string });
    i += 1;
  }
  return tokens;
}

// ---- helpers ----

/** Per table: the columns in a primary or unique key or a relationship, and those in plain indexes. */
function keyedColumns(document: DiagramDocument): Map<string, { keyed: Set<string>; indexed: Set<string> }> {
  const places = new Map<string, { keyed: Set<string>; indexed: Set<string> }>();
  const of = (table: string) => {
    let entry = places.get(table);
    if (!entry) {
      entry = { keyed: new Set(), indexed: new Set() };
      places.set(table, entry);
    }
    return entry;
  };
  for (const table of document.tables)
    for (const key of tableKeys(table))
      for (const column of key.columns)
        of(table.name)[key.type === 'index' ? 'indexed' : 'keyed'].add(column);
  for (const relationship of document.relationships) {
    of(relationship.source_table).keyed.add(relationship.source_column);
    of(relationship.target_table).keyed.add(relationship.target_column);
  }
  return places;
}

/** How many columns each `nextval('…')` sequence numbers. */
function sequenceCounts(document: DiagramDocument): Map<string, number> {
  const counts = new Map<string, number>();
  for (const table of document.tables)
    for (const column of table.columns) {
      const sequence = /\bnextval\s*\(\s*'((?:[^']|'')+)'/i.exec(column.default ?? '')?.[1];
      if (sequence !== undefined) counts.set(sequence, (counts.get(sequence) ?? 0) + 1);
    }
  return counts;
}

/**
 * A foreign key's columns take the type of the columns it references where both are numbers: MySQL
 * refuses a key between `int` and `bigint`, and every value of the key is a value of the referenced
 * column, so nothing is lost.
 */
function alignKeyTypes(tables: DocumentTable[], relationships: Relationship[]): void {
  const column = (table: string, name: string) =>
    tables
      .find((candidate) => candidate.name === table)
      ?.columns.find((candidate) => candidate.name === name);
  const numeric = /^(tinyint|smallint|mediumint|int|integer|bigint|decimal|numeric)$/;
  for (const relationship of relationships) {
    const from = column(relationship.source_table, relationship.source_column);
    const to = column(relationship.target_table, relationship.target_column);
    if (!from || !to || !numeric.test(from.driver_data_type_name) || !numeric.test(to.driver_data_type_name))
      continue;
    from.driver_data_type_name = to.driver_data_type_name;
    from.driver_data_type_params =
      to.driver_data_type_params === null ? null : { ...to.driver_data_type_params };
    from.is_unsigned = to.is_unsigned;
  }
}

/** At most what a column that is no string takes in a key (a MySQL TEXT or BLOB: its 255 prefix). */
function keyBytes(column: Column): number {
  const name = column.driver_data_type_name;
  const length = column.driver_data_type_params?.length;
  if (/int$/.test(name)) return 8;
  if (/binary$/.test(name) && typeof length === 'number') return length;
  if (/text$/.test(name)) return 255 * 4;
  if (/blob$/.test(name)) return 255;
  return 17;
}

/** Whether the cascades `edges` (referenced table → referencing table) reach a table twice or go round. */
function cascadePathsRepeat(edges: [string, string][]): boolean {
  const next = new Map<string, string[]>();
  for (const [from, to] of edges) next.set(from, [...(next.get(from) ?? []), to]);
  for (const start of next.keys()) {
    const reached = new Set<string>();
    const path = new Set<string>([start]);
    const walk = (node: string): boolean => {
      for (const to of next.get(node) ?? []) {
        if (path.has(to) || reached.has(to)) return true;
        reached.add(to);
        path.add(to);
        if (walk(to)) return true;
        path.delete(to);
      }
      return false;
    };
    if (walk(start)) return true;
  }
  return false;
}

/** `name` cut to `limit` and made unique in `used` (case-insensitively) with `_2`, `_3`…; added to `used`. */
function uniqueName(name: string, limit: NameLimit, used: Set<string>, record: boolean): string {
  let candidate = cut(name, limit);
  for (let n = 2; used.has(candidate.toLowerCase()); n++) candidate = withSuffix(name, `_${n}`, limit);
  if (record) used.add(candidate.toLowerCase());
  return candidate;
}

function withSuffix(name: string, suffix: string, limit: NameLimit): string {
  return cut(name, { ...limit, max: limit.max - suffix.length }) + suffix;
}

/** At most `limit.max` characters, or UTF-8 bytes for PostgreSQL (never a broken character). */
function cut(name: string, limit: NameLimit): string {
  const characters = [...name];
  let text = characters.slice(0, limit.max).join('');
  if (limit.unit === 'bytes')
    while (new TextEncoder().encode(text).length > limit.max) text = [...text].slice(0, -1).join('');
  return text;
}
