// A seeded, bounded fuzz of every operation in the OpenAPI description against the whole system started on
// free ports: each request takes an operation of the description (walked from its paths and methods, in
// turn) and breaks it in one to three ways: NUL characters and unpaired surrogates in path, query, headers
// and body, bodies nested 5,000 deep, bad percent-escapes, over-long headers and paths, invalid UTF-8,
// wrong content types and encodings, huge numbers, values of the wrong type, other methods and other
// people's tokens. No answer may be a 5xx, every error must have the spec's error shape, and every answer
// to a described operation must match its description. The requests are generated up front from the seed,
// so a failure replays with the seed it prints:
//   DSS_FUZZ_SEED=<seed> [DSS_FUZZ_ONLY=<request number>] npm test -- e2e/test/hostile-input-fuzz
// DSS_FUZZ_REQUESTS changes how many (default 2,400).
import { readFileSync } from 'node:fs';
import { type TestSystem, TestPeople, startTestSystem, twoTableShopPatch } from '@dss/system';
import { parse } from 'yaml';
import { assertMatchesOpenApi, OPENAPI_FILE } from '../support/openapi-validator';
import { type RawRequest, type RawResponse, rawExchange } from '../support/raw-http';
import { isExternalStack } from '../support/stack';

const REQUESTS = Math.max(1, Math.min(50_000, Number(process.env.DSS_FUZZ_REQUESTS) || 2_400));
const SEED = Number(process.env.DSS_FUZZ_SEED) || Math.floor(Math.random() * 2 ** 31) + 1;
const ONLY = process.env.DSS_FUZZ_ONLY === undefined ? null : Number(process.env.DSS_FUZZ_ONLY);
const CONCURRENCY = 6;

/** mulberry32: small, fast and the same on every machine. */
function randomSource(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (n: number) => Math.floor(next() * n),
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T,
    chance: (p: number) => next() < p,
  };
}
type Random = ReturnType<typeof randomSource>;

// ---- the description, walked ----------------------------------------------------------------------------

interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  schema: { type?: string; enum?: string[] };
}
interface Operation {
  method: string;
  template: string;
  operationId: string;
  parameters: Parameter[];
  /** The request body examples of the description (JSON objects), when it takes a body. */
  bodies: object[];
}

type Json = Record<string, unknown>;

function describedOperations(): Operation[] {
  const document = parse(readFileSync(OPENAPI_FILE, 'utf8')) as Json;
  const resolve = (node: unknown): Json => {
    let current = node as Json;
    for (let hops = 0; typeof current?.$ref === 'string' && hops < 20; hops++) {
      current = (current.$ref as string)
        .slice(2)
        .split('/')
        .reduce<Json>((at, key) => at[key] as Json, document);
    }
    return current;
  };
  const operations: Operation[] = [];
  for (const [template, pathItem] of Object.entries(document.paths as Record<string, Json>)) {
    for (const method of ['get', 'post', 'put', 'patch', 'delete']) {
      const operation = pathItem[method] as Json | undefined;
      if (!operation) continue;
      const parameters = [
        ...((pathItem.parameters as unknown[]) ?? []),
        ...((operation.parameters as unknown[]) ?? []),
      ].map((node) => resolve(node) as unknown as Parameter);
      const content = (resolve(operation.requestBody)?.content as Json | undefined)?.['application/json'] as
        | Json
        | undefined;
      const examples = Object.values((content?.examples as Record<string, Json>) ?? {}).map(
        (example) => example.value as object,
      );
      operations.push({
        method: method.toUpperCase(),
        template,
        operationId: String(operation.operationId),
        parameters,
        bodies: content ? examples : [],
      });
    }
  }
  return operations;
}

// ---- what a hostile client sends --------------------------------------------------------------------------

const HOSTILE_TEXT = [
  '\u0000',
  'a\u0000b',
  '\ud800',
  'x\udfffy',
  '\udc00\ud800',
  '😀',
  '\u202e\ufeff',
  "'; DROP TABLE diagrams; --",
  `\${7*7}{{7*7}}%s%n`,
  '<script>alert(1)</script>',
  '\r\nX-Injected: 1',
  '',
  ' ',
  '\\',
  'a'.repeat(70_000),
  `CREATE TABLE a (id int DEFAULT ${'('.repeat(5_000)}1${')'.repeat(5_000)});`,
  `CREATE TABLE a (id int); ${'/*'.repeat(5_000)}`,
];

/** JSON text put where a value was: huge and odd numbers, other types, nesting past every limit. */
const HOSTILE_JSON = [
  '1e400',
  '-1e400',
  '123456789012345678901234567890',
  '-0',
  '1e-400',
  '9007199254740993',
  '0.1e1',
  '[]',
  '{}',
  'null',
  'true',
  '"\\u0000"',
  '"\\ud800"',
  '"\\udfff\\ud800"',
  '{"__proto__": {"polluted": true}}',
  '{"constructor": {"prototype": {"polluted": true}}}',
  '[1, "a", null, {}, []]',
  nested('[', ']', 5_000),
  nested('{"a":', '}', 5_000, '1'),
  nested('[', ']', 63),
  nested('[', ']', 64),
  nested('[', ']', 65),
  JSON.stringify('a'.repeat(300_000)),
];

function nested(open: string, close: string, depth: number, inner = ''): string {
  return `${open.repeat(depth)}${inner}${close.repeat(depth)}`;
}

/** Whole bodies in place of the operation's. */
const HOSTILE_BODIES: (() => Buffer)[] = [
  () => Buffer.alloc(0),
  () => Buffer.from('null'),
  () => Buffer.from('[]'),
  () => Buffer.from('"text"'),
  () => Buffer.from('1e400'),
  () => Buffer.from('not json'),
  () => Buffer.from('{'),
  () => Buffer.from('{"a": 1,}'),
  () => Buffer.from(nested('[', ']', 5_000)),
  () => Buffer.from(`{"schema": ${nested('{"a":', '}', 5_000, '1')}}`),
  () => Buffer.from('{"a\\u0000": 1, "\\ud800": 2}'),
  () => Buffer.from('{"name": "a", "name": "b", "driver": "pgsql", "driver": 7}'),
  () => Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"name": "bom"}')]),
  () => Buffer.from('{"name": "utf16", "driver": "pgsql"}', 'utf16le'),
  () => Buffer.from([0xff, 0xfe, 0x00, 0x7b, 0x00, 0x7d]),
  () => Buffer.alloc(4 * 1024 * 1024 + 16, 0x20),
];

/** Bytes that are not UTF-8 (or are NUL), put inside a JSON string of the body. */
const RAW_BYTES = [
  [0xff],
  [0xc0, 0x80],
  [0xed, 0xa0, 0x80],
  [0xf8, 0x88, 0x80, 0x80, 0x80],
  [0xe2, 0x82],
  [0x00],
  [0x1b, 0x5b, 0x32, 0x4a],
];

const PATH_VALUES = [
  '%00',
  'a%00b',
  '%ZZ',
  '%',
  '%E0%A4%A',
  '%ED%A0%80',
  '%C0%80',
  '%FF',
  '%F0%9F%98%80',
  '..',
  '%2e%2e%2f%2e%2e',
  '%2F',
  'a'.repeat(5_000),
  'a'.repeat(20_000),
  '99999999999999999999999',
  '-1',
  '0',
  '1e400',
  '1.5',
  'NaN',
  '0x10',
  '%D9%A1',
  '00000000-0000-0000-0000-000000000000',
  'ZZZZZZZZ-ZZZZ-ZZZZ-ZZZZ-ZZZZZZZZZZZZ',
];

const CONTENT_TYPES = [
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/json; charset=utf-16',
  'application/json; charset=latin1',
  'application/json; charset=nonsense',
  'application/xml',
  'a/b/c;;;=',
  '',
  'application/json; boundary="\u00ff"',
];

const CONTENT_ENCODINGS = ['gzip', 'deflate', 'br', 'identity', 'x-unknown', 'gzip, gzip'];

interface Fixture {
  tokens: { writer: string; reader: string; viewer: string; stranger: string };
  diagram: string;
  ddlDiagram: string;
  proposal: string;
  strangersDiagram: string;
}

interface Generated {
  index: number;
  operation: Operation;
  /** What was done to the request, for the failure report. */
  mutations: string[];
  request: RawRequest;
}

function generate(index: number, operation: Operation, random: Random, fixture: Fixture): Generated {
  const mutations: string[] = [];
  let method = operation.method;
  const pathValues: Record<string, string> = {};
  for (const parameter of operation.parameters.filter((p) => p.in === 'path')) {
    pathValues[parameter.name] =
      parameter.name === 'number'
        ? '1'
        : operation.template.startsWith('/proposals')
          ? fixture.proposal
          : random.pick([fixture.diagram, fixture.diagram, fixture.ddlDiagram, fixture.strangersDiagram]);
  }
  const query: [string, string][] = [];
  for (const parameter of operation.parameters.filter((p) => p.in === 'query')) {
    if (!random.chance(0.5)) continue;
    const value = parameter.schema.enum
      ? random.pick(parameter.schema.enum)
      : parameter.schema.type === 'integer'
        ? String(1 + random.int(2))
        : 'x';
    query.push([parameter.name, encodeURIComponent(value)]);
  }
  const token =
    random.pick([
      fixture.tokens.writer,
      fixture.tokens.writer,
      fixture.tokens.writer,
      fixture.tokens.reader,
      fixture.tokens.viewer,
      fixture.tokens.stranger,
    ]) ?? '';
  const headers: [string, Buffer | string][] = [['Authorization', `Bearer ${token}`]];
  let bodyValue: unknown =
    operation.bodies.length > 0 ? structuredClone(random.pick(operation.bodies)) : null;
  let bodyBytes: Buffer | null = null;
  let contentType: string | null = bodyValue === null ? null : 'application/json';
  let rawToken: string | null = null;
  let contentLength = true;
  let framing: number | null = null;

  const kinds = [
    'path',
    'path',
    'query',
    'query',
    'header',
    'header',
    'auth',
    'body-value',
    'body-value',
    'body-raw-token',
    'body-raw-token',
    'body-bytes',
    'body-whole',
    'content-type',
    'content-encoding',
    'method',
    'framing',
  ] as const;
  // Half the writes break only a value of an otherwise good body, so they reach the services behind the
  // gateway (validation, storage, the importer) instead of stopping at its first check.
  const deep = operation.bodies.length > 0 && random.chance(0.5);
  const count = deep ? 1 + random.int(2) : 1 + random.int(3);
  for (let m = 0; m < count; m++) {
    const kind = deep ? random.pick(['body-value', 'body-raw-token'] as const) : random.pick(kinds);
    switch (kind) {
      case 'path': {
        const names = Object.keys(pathValues);
        if (names.length === 0 || random.chance(0.2)) {
          const suffix = random.pick(['/', '//', '/x/y/z', '/%ZZ', '%00', '/..', `/${'a'.repeat(9_000)}`]);
          mutations.push(`path suffix ${JSON.stringify(suffix.slice(0, 20))}`);
          pathValues.__suffix = suffix;
        } else {
          const name = random.pick(names);
          const value = random.pick(PATH_VALUES);
          pathValues[name] = value;
          mutations.push(`path ${name}=${JSON.stringify(value.slice(0, 40))}`);
        }
        break;
      }
      case 'query': {
        const names = [...operation.parameters.filter((p) => p.in === 'query').map((p) => p.name), 'unknown'];
        const name = random.pick(names);
        const choice = random.int(6);
        if (choice === 0) query.push([name, 'a'], [name, 'b']);
        else if (choice === 1) query.push([`${name}[a]`, 'b']);
        else if (choice === 2) query.push([`${name}[]`, 'b']);
        else if (choice === 3) query.push([name, random.pick(PATH_VALUES)]);
        else if (choice === 4) query.push([name, percentEncode(random.pick(HOSTILE_TEXT))]);
        else for (let n = 0; n < 1_500; n++) query.push([`p${n}`, '1']);
        mutations.push(`query ${name} (${choice})`);
        break;
      }
      case 'header': {
        const choice = random.int(8);
        if (choice === 0) headers.push(['X-Long', 'a'.repeat(20_000)]);
        else if (choice === 1) headers.push(['X-Long', 'a'.repeat(8_000)]);
        else if (choice === 2) headers.push(['If-None-Match', random.pick(HOSTILE_TEXT).slice(0, 9_000)]);
        else if (choice === 3)
          headers.push(['Accept', random.pick(['*/*;q=x', 'text/markdown', '\u00ff', ''])]);
        else if (choice === 4) headers.push(['X-Request-Id', random.pick(HOSTILE_TEXT).slice(0, 9_000)]);
        else if (choice === 5) headers.push(['X-Bytes', Buffer.from(random.pick(RAW_BYTES))]);
        else if (choice === 6) for (let n = 0; n < 300; n++) headers.push([`X-Many-${n}`, String(n)]);
        else headers.push(['Expect', random.pick(['100-continue', 'nonsense'])]);
        mutations.push(`header (${choice})`);
        break;
      }
      case 'auth': {
        const value = random.pick([
          '',
          'Bearer',
          'Bearer ',
          'Basic YTpi',
          `Bearer ${'a'.repeat(9_000)}`,
          'Bearer a.b.c',
          'Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiIxIn0.',
          `Bearer ${token}x`,
          `Bearer ${token} ${token}`,
          `bearer ${token}`,
        ]);
        headers[0] = ['Authorization', value];
        mutations.push(`authorization ${JSON.stringify(value.slice(0, 30))}`);
        break;
      }
      case 'body-value': {
        if (bodyValue === null || typeof bodyValue !== 'object') bodyValue = {};
        const text = random.pick(HOSTILE_TEXT);
        const where = replaceSomewhere(bodyValue as Json, text, random);
        mutations.push(`body ${where} = ${JSON.stringify(text.slice(0, 30))}`);
        contentType ??= 'application/json';
        break;
      }
      case 'body-raw-token': {
        if (bodyValue === null || typeof bodyValue !== 'object') bodyValue = {};
        rawToken = random.pick(HOSTILE_JSON);
        const where = replaceSomewhere(bodyValue as Json, RAW_MARK, random);
        mutations.push(`body ${where} = ${rawToken.slice(0, 30)}`);
        contentType ??= 'application/json';
        break;
      }
      case 'body-bytes': {
        const text = JSON.stringify(bodyValue ?? { name: 'bytes' });
        const quote = text.indexOf('"', 2);
        const at = quote > 0 ? quote : 1;
        const bytes = random.pick(RAW_BYTES);
        bodyBytes = Buffer.concat([
          Buffer.from(text.slice(0, at)),
          Buffer.from(bytes),
          Buffer.from(text.slice(at)),
        ]);
        mutations.push(`body bytes ${bytes.map((b) => b.toString(16)).join(' ')}`);
        contentType ??= 'application/json';
        break;
      }
      case 'body-whole': {
        const which = random.int(HOSTILE_BODIES.length);
        bodyBytes = HOSTILE_BODIES[which]!();
        mutations.push(`body whole (${which})`);
        contentType ??= 'application/json';
        break;
      }
      case 'content-type': {
        contentType = random.pick(CONTENT_TYPES);
        mutations.push(`content-type ${JSON.stringify(contentType)}`);
        break;
      }
      case 'content-encoding': {
        const encoding = random.pick(CONTENT_ENCODINGS);
        headers.push(['Content-Encoding', encoding]);
        mutations.push(`content-encoding ${encoding}`);
        break;
      }
      case 'method': {
        method = random.pick(['PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD', 'GET', 'POST', 'TRACE']);
        mutations.push(`method ${method}`);
        break;
      }
      case 'framing': {
        // Applied to the finished body below, so that a later body mutation cannot leave it incomplete.
        framing = random.int(3);
        mutations.push(`framing (${framing})`);
        break;
      }
    }
  }

  let target = operation.template.replace(/\{(\w+)\}/g, (_all, name: string) => pathValues[name] ?? '');
  target = `/v1${target}${pathValues.__suffix ?? ''}`;
  if (query.length > 0) target += `?${query.map(([k, v]) => `${k}=${v}`).join('&')}`;
  if (bodyBytes === null && bodyValue !== null) {
    let text = JSON.stringify(bodyValue);
    if (rawToken !== null) text = text.replace(JSON.stringify(RAW_MARK), rawToken);
    bodyBytes = Buffer.from(text);
  }
  if (framing === 0) {
    headers.push(['Transfer-Encoding', 'chunked']);
    contentLength = false;
    bodyBytes = Buffer.from('zz\r\nnot a chunk\r\n0\r\n\r\n');
  } else if (framing === 1) {
    // Both framings at once, which HTTP/1.1 forbids (a request-smuggling shape).
    headers.push(['Transfer-Encoding', 'chunked']);
    const chunk: Buffer = bodyBytes ?? Buffer.from('{}');
    bodyBytes = Buffer.concat([
      Buffer.from(`${chunk.length.toString(16)}\r\n`),
      chunk,
      Buffer.from('\r\n0\r\n\r\n'),
    ]);
  } else if (framing === 2) {
    bodyBytes ??= Buffer.from('{}');
    headers.push(['Content-Length', String(bodyBytes.length + random.int(2))]);
  }
  if (contentType !== null && bodyBytes !== null) headers.push(['Content-Type', contentType]);
  return {
    index,
    operation,
    mutations,
    request: {
      method,
      target: Buffer.from(target, 'utf8'),
      headers,
      body: bodyBytes ?? undefined,
      contentLength,
    },
  };
}

const RAW_MARK = '\u0001raw\u0001';

/** encodeURIComponent that also encodes an unpaired surrogate (as its 3 bytes, which no decoder accepts). */
function percentEncode(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    const pair = unit >= 0xd800 && unit <= 0xdbff && /[\udc00-\udfff]/.test(text[i + 1] ?? '');
    const char = pair ? text.slice(i, i + 2) : text[i]!;
    if (pair) i++;
    if (unit >= 0xd800 && unit <= 0xdfff && !pair)
      out += [0xe0 | (unit >> 12), 0x80 | ((unit >> 6) & 0x3f), 0x80 | (unit & 0x3f)]
        .map((byte) => `%${byte.toString(16).toUpperCase()}`)
        .join('');
    else out += encodeURIComponent(char);
  }
  return out;
}

/** Puts `value` at a random place of the object tree (a member, an item, or a new member); answers where. */
function replaceSomewhere(root: Json, value: unknown, random: Random): string {
  let node: Json | unknown[] = root;
  let path = '';
  for (let depth = 0; depth < 8; depth++) {
    const keys: (string | number)[] = Array.isArray(node) ? node.map((_v, i) => i) : Object.keys(node);
    if (keys.length === 0 || random.chance(0.25)) break;
    const key = random.pick(keys);
    const child: unknown = (node as Json)[key as string];
    if (child === null || typeof child !== 'object' || random.chance(0.3)) {
      (node as Json)[key as string] = value;
      return `${path}.${key}`;
    }
    node = child as Json;
    path = `${path}.${key}`;
  }
  if (Array.isArray(node)) {
    node.push(value);
    return `${path}[+]`;
  }
  const key = random.pick(['name', 'title', 'driver', 'ddl', 'schema', 'message', 'extra']);
  node[key] = value;
  return `${path}.${key}`;
}

// ---- the checks ----------------------------------------------------------------------------------------

function problemWith(generated: Generated, response: RawResponse): string | null {
  const { status } = response;
  if (status >= 500) return `answered ${status}: ${response.body.toString('utf8').slice(0, 300)}`;
  const method = generated.request.method;
  if (status >= 400 && method !== 'HEAD') {
    let body: { error?: { code?: unknown; message?: unknown } };
    try {
      body = JSON.parse(response.body.toString('utf8'));
    } catch {
      return `answered ${status} with a body that is not JSON: ${response.body.toString('latin1').slice(0, 120)}`;
    }
    if (typeof body?.error?.code !== 'string' || typeof body.error.message !== 'string')
      return `answered ${status} without the error shape: ${response.body.toString('utf8').slice(0, 200)}`;
    if (!/^application\/json/.test(response.headers['content-type'] ?? ''))
      return `answered ${status} with Content-Type ${response.headers['content-type']}`;
  }
  // Answers to a described operation match its description (error bodies included).
  const target = generated.request.target.toString('utf8');
  if (method === generated.operation.method && method !== 'HEAD' && target.length < 4_000) {
    let described = true;
    try {
      // A doubled slash names no described path (the validator would read `/x//` as `/x`).
      described = !/\/\//.test(target.split('?')[0]!);
      if (described)
        assertMatchesOpenApi(method, target, status, response.headers, response.body.toString('utf8'));
    } catch (error) {
      const message = (error as Error).message;
      if (!/no path of the description matches|is not described/.test(message)) return message;
    }
  }
  return null;
}

function summary(generated: Generated): string {
  const target = generated.request.target.toString('latin1');
  return `#${generated.index} ${generated.request.method} ${target.slice(0, 120)}${target.length > 120 ? '…' : ''} [${generated.operation.operationId}: ${generated.mutations.join('; ')}]`;
}

// ---- the run -------------------------------------------------------------------------------------------

// It starts a system of its own (high rate limits, its own teams); a deployment's suite run skips it.
const describeOnOwnStack = isExternalStack() ? describe.skip : describe;

describeOnOwnStack('The API under a seeded fuzz of every described operation', () => {
  let system: TestSystem;
  let people: TestPeople;
  let fixture: Fixture;
  let port: number;

  beforeAll(async () => {
    system = await startTestSystem();
    port = Number(new URL(system.apiUrl).port);
    people = new TestPeople(system.grpc.accounts);
    const writer = await people.member({ team: 'fuzz', plan: 'enterprise', write: true });
    const reader = await people.member({ team: 'fuzz', plan: 'enterprise' });
    const viewer = await people.member({ team: 'fuzz', plan: 'enterprise', role: 'viewer' });
    const stranger = await people.member({ team: 'fuzz-other', plan: 'enterprise', write: true });
    const post = async (token: string, path: string, body: object) => {
      const response = await fetch(`${system.apiUrl}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      const text = await response.text();
      // A create from DDL answers 202 when its import outlasts the synchronous wait (a loaded machine).
      if (response.status !== 201 && response.status !== 202)
        throw new Error(`POST ${path}: ${response.status} ${text}`);
      const uuid = (JSON.parse(text) as { data: { uuid: string } }).data.uuid;
      if (response.status === 202) await importFinished(token, uuid);
      return uuid;
    };
    /** Polls the diagram (at most a minute) until its import is over, so the fixture is the same every run. */
    const importFinished = async (token: string, uuid: string) => {
      for (const started = Date.now(); Date.now() - started < 60_000; ) {
        const response = await fetch(`${system.apiUrl}/diagrams/${uuid}`, {
          headers: { authorization: `Bearer ${token}` },
        });
        const body = (await response.json()) as { data: { status: string } };
        if (body.data.status !== 'importing') return;
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
      throw new Error(`diagram ${uuid} was still importing after a minute`);
    };
    const create = (token: string, body: object) => post(token, '/diagrams', body);
    const diagram = await create(writer.token, {
      name: 'Fuzz',
      driver: 'pgsql',
      schema: twoTableShopPatch(),
    });
    const ddlDiagram = await create(writer.token, {
      name: 'Fuzz DDL',
      driver: 'mysql',
      ddl: 'CREATE TABLE a (id INT PRIMARY KEY, b_id INT); CREATE TABLE b (id INT PRIMARY KEY);',
    });
    const strangersDiagram = await create(stranger.token, {
      name: 'Other',
      driver: 'pgsql',
      schema: twoTableShopPatch(),
    });
    const proposal = await post(writer.token, `/diagrams/${diagram}/proposals`, {
      title: 'More',
      message: 'A column more',
      schema: { strategy: 'additive', tables: [{ name: 'orders', columns: [{ name: 'n', type: 'int' }] }] },
    });
    fixture = {
      tokens: { writer: writer.token, reader: reader.token, viewer: viewer.token, stranger: stranger.token },
      diagram,
      ddlDiagram,
      proposal,
      strangersDiagram,
    };
  }, 120_000);

  afterAll(async () => {
    people?.close();
    await system?.stop();
  });

  it(`answers no 5xx and only described answers and error shapes (${REQUESTS} requests, DSS_FUZZ_SEED to replay)`, async () => {
    const operations = describedOperations();
    // The walk found the description's operations (a broken walk must not pass by fuzzing nothing).
    expect(operations.length).toBeGreaterThanOrEqual(14);
    const random = randomSource(SEED);
    const requests = Array.from({ length: REQUESTS }, (_v, index) =>
      generate(index, operations[index % operations.length]!, random, fixture),
    ).filter((generated) => ONLY === null || generated.index === ONLY);

    const problems: string[] = [];
    const statuses = new Map<number, number>();
    let next = 0;
    const worker = async () => {
      while (next < requests.length && problems.length < 25) {
        const generated = requests[next++]!;
        let problem: string | null;
        try {
          const response = await rawExchange(port, generated.request);
          statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
          problem = problemWith(generated, response);
        } catch (error) {
          problem = `no answer: ${(error as Error).message}`;
        }
        if (problem) problems.push(`${summary(generated)}\n    ${problem}`);
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));

    const covered = new Set(requests.map((generated) => generated.operation.operationId));
    if (ONLY === null) expect([...covered].sort()).toEqual(operations.map((o) => o.operationId).sort());
    if (problems.length > 0)
      throw new Error(
        `fuzz seed ${SEED} (replay: DSS_FUZZ_SEED=${SEED} DSS_FUZZ_ONLY=<#> npm test -- e2e/test/hostile-input-fuzz): ` +
          `${problems.length} problem(s), statuses ${JSON.stringify(Object.fromEntries(statuses))}\n` +
          problems.join('\n'),
      );
    // Every request got an answer that was counted.
    expect([...statuses.values()].reduce((a, b) => a + b, 0)).toBe(requests.length);
  }, 240_000);
});
