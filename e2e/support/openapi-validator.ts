// Checks a real response against the OpenAPI description of the API (services/gateway/openapi/openapi.yaml):
// finds the operation for a method and a concrete path or path template, picks the response for the status
// and the media type of Content-Type, checks the headers the description marks required, and validates the
// body with Ajv (JSON Schema 2020-12, the dialect of OpenAPI 3.1). Schema $refs are rewritten to point into
// one registered schema holding every component, so recursive and shared schemas compile once.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import Ajv2020, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { withCommonResponses } from '@dss/gateway';
import { parse } from 'yaml';

export const OPENAPI_FILE = path.join(
  __dirname,
  '..',
  '..',
  'services',
  'gateway',
  'openapi',
  'openapi.yaml',
);

/** Headers as fetch gives them, or as a plain record (Node's IncomingHttpHeaders, supertest). */
export type ResponseHeaders = Headers | Record<string, string | string[] | number | undefined>;

export interface MatchedResponse {
  operationId: string | undefined;
  method: string;
  pathTemplate: string;
  /** The key of `responses` that applied: the status itself, a range such as `4XX`, or `default`. */
  responseKey: string;
  /** The media type whose schema validated the body; null for a response without content (304). */
  mediaType: string | null;
}

type Json = Record<string, unknown>;

const COMPONENTS_ID = 'urn:dss:openapi:components';
const HTTP_METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);
/** OpenAPI keywords that are not JSON Schema; Ajv's strict mode must know them to accept them. */
const OPENAPI_ONLY_KEYWORDS = ['example', 'discriminator', 'xml', 'externalDocs'];

export class OpenApiValidator {
  private readonly ajv: Ajv2020;
  private readonly document: Json;
  private readonly templates: { template: string; pattern: RegExp; literalSegments: number }[];
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor(document: object) {
    this.document = document as Json;
    this.ajv = new Ajv2020({
      allErrors: true,
      strict: true,
      // Ordinary 2020-12 idioms of the description: `then: { required: [...] }` names properties declared
      // beside the `if`, and `if`/`allOf` fragments carry no `type` of their own.
      strictRequired: false,
      strictTypes: false,
      allowUnionTypes: true,
    });
    addFormats(this.ajv);
    for (const keyword of OPENAPI_ONLY_KEYWORDS) this.ajv.addKeyword(keyword);
    const schemas = ((this.document.components as Json | undefined)?.schemas ?? {}) as Json;
    this.ajv.addSchema({ $id: COMPONENTS_ID, $defs: rewriteSchemaRefs(schemas) });
    this.templates = Object.keys((this.document.paths ?? {}) as Json)
      .map((template) => ({
        template,
        pattern: new RegExp(
          `^${template
            .split(/\{[^}]+\}/)
            .map(escapeRegExp)
            .join('[^/]+')}$`,
        ),
        literalSegments: template.split('/').filter((segment) => segment && !segment.startsWith('{')).length,
      }))
      // Prefer the template with more literal segments when two match (`/a/b` over `/a/{id}`).
      .sort((a, b) => b.literalSegments - a.literalSegments);
  }

  /** Names of every component schema, each compiled once (throws when one is not valid JSON Schema). */
  compileAllComponentSchemas(): string[] {
    const names = Object.keys(((this.document.components as Json | undefined)?.schemas ?? {}) as Json);
    for (const name of names) this.validatorFor(`$defs/${name}`, { $ref: componentRef(name) });
    return names;
  }

  assertMatches(
    method: string,
    pathOrUrl: string,
    status: number,
    headers: ResponseHeaders,
    body: unknown,
  ): MatchedResponse {
    const pathTemplate = this.matchPath(pathOrUrl);
    const pathItem = (this.document.paths as Record<string, Json>)[pathTemplate]!;
    const operation = pathItem[method.toLowerCase()] as Json | undefined;
    if (!HTTP_METHODS.has(method.toLowerCase()) || !operation) {
      throw new Error(`OpenAPI: ${method.toUpperCase()} ${pathTemplate} is not described`);
    }
    const where = `${method.toUpperCase()} ${pathTemplate} → ${status}`;
    const responses = (operation.responses ?? {}) as Json;
    const responseKey = [String(status), `${String(status)[0]}XX`, 'default'].find((key) => key in responses);
    if (!responseKey) {
      throw new Error(
        `OpenAPI: ${where} is not a described response (described: ${Object.keys(responses).join(', ')})`,
      );
    }
    const response = this.resolve(responses[responseKey]);
    const problems = this.headerProblems(response, headers);
    const { mediaType, problems: bodyProblems } = this.bodyProblems(
      where,
      responseKey,
      response,
      headers,
      body,
    );
    problems.push(...bodyProblems);
    if (problems.length > 0) {
      throw new Error(
        `OpenAPI: ${where} (response ${responseKey}${mediaType ? `, ${mediaType}` : ''}) does not match the description:\n` +
          problems.map((problem) => `  - ${problem}`).join('\n'),
      );
    }
    return {
      operationId: operation.operationId as string | undefined,
      method: method.toUpperCase(),
      pathTemplate,
      responseKey,
      mediaType,
    };
  }

  /** The path template for a template, a concrete path or a URL; the base path up to `/v1` and the query are dropped. */
  matchPath(pathOrUrl: string): string {
    let pathname = /^[a-z][a-z0-9+.-]*:\/\//i.test(pathOrUrl)
      ? new URL(pathOrUrl).pathname
      : pathOrUrl.split(/[?#]/)[0]!;
    const versionAt = pathname.search(/\/v1(\/|$)/);
    if (versionAt >= 0) pathname = pathname.slice(versionAt + 3);
    if (pathname.length > 1) pathname = pathname.replace(/\/+$/, '');
    if (pathname === '') pathname = '/';
    const exact = this.templates.find(({ template }) => template === pathname);
    const match = exact ?? this.templates.find(({ pattern }) => pattern.test(pathname));
    if (!match) throw new Error(`OpenAPI: no path of the description matches ${pathOrUrl}`);
    return match.template;
  }

  private headerProblems(response: Json, headers: ResponseHeaders): string[] {
    const problems: string[] = [];
    for (const [name, headerNode] of Object.entries((response.headers ?? {}) as Json)) {
      const header = this.resolve(headerNode);
      const value = headerValue(headers, name);
      if (value === undefined) {
        if (header.required === true) problems.push(`header ${name} is required but missing`);
        continue;
      }
      if (!header.schema) continue;
      const schema = header.schema as Json;
      const validate = this.validatorFor(`header:${JSON.stringify(schema)}`, rewriteSchemaRefs(schema));
      const typed =
        isNumericSchema(this.resolve(schema)) && /^-?\d+$/.test(value.trim()) ? Number(value) : value;
      if (!validate(typed)) problems.push(...describeErrors(validate.errors, `header ${name}`));
    }
    return problems;
  }

  private bodyProblems(
    where: string,
    responseKey: string,
    response: Json,
    headers: ResponseHeaders,
    body: unknown,
  ): { mediaType: string | null; problems: string[] } {
    const content = response.content as Record<string, Json> | undefined;
    if (!content || Object.keys(content).length === 0) {
      const empty = body === undefined || body === null || body === '' || isEmptyObject(body);
      return {
        mediaType: null,
        problems: empty ? [] : ['the response has a body, but the description gives it none'],
      };
    }
    const contentType = headerValue(headers, 'content-type');
    if (!contentType) return { mediaType: null, problems: ['header Content-Type is missing'] };
    const mediaType = contentType.split(';')[0]!.trim().toLowerCase();
    const key = pickMediaType(Object.keys(content), mediaType);
    if (!key) {
      return {
        mediaType,
        problems: [`Content-Type ${mediaType} is not one of ${Object.keys(content).join(', ')}`],
      };
    }
    let value = body;
    if (typeof body === 'string' && isJsonMediaType(key)) {
      try {
        value = JSON.parse(body);
      } catch {
        return { mediaType: key, problems: ['the body is not valid JSON'] };
      }
    }
    const schema = content[key]!.schema as Json | undefined;
    if (!schema) return { mediaType: key, problems: [] };
    const validate = this.validatorFor(`${where}|${responseKey}|${key}`, rewriteSchemaRefs(schema));
    return { mediaType: key, problems: validate(value) ? [] : describeErrors(validate.errors, 'body') };
  }

  private validatorFor(cacheKey: string, schema: unknown): ValidateFunction {
    let validate = this.compiled.get(cacheKey);
    if (!validate) {
      validate = this.ajv.compile(schema as Json);
      this.compiled.set(cacheKey, validate);
    }
    return validate;
  }

  /** Follows a non-schema `$ref` (responses, headers) inside the document. */
  private resolve(node: unknown): Json {
    let current = node as Json;
    for (let hops = 0; typeof current?.$ref === 'string'; hops++) {
      if (hops > 20) throw new Error(`OpenAPI: $ref cycle at ${String(current.$ref)}`);
      current = this.pointer(current.$ref as string);
    }
    return current;
  }

  private pointer(ref: string): Json {
    if (!ref.startsWith('#/')) throw new Error(`OpenAPI: only local $refs are supported, got ${ref}`);
    const keys = ref
      .slice(2)
      .split('/')
      .map((key) => decodeURIComponent(key).replace(/~1/g, '/').replace(/~0/g, '~'));
    const found = keys.reduce<unknown>((at, key) => (at as Json | undefined)?.[key], this.document);
    if (found === undefined) throw new Error(`OpenAPI: unresolved $ref ${ref}`);
    return found as Json;
  }
}

let defaultValidator: OpenApiValidator | undefined;

/** The validator for the description in this repository, built on first use. */
export function openApiValidator(): OpenApiValidator {
  // As the gateway serves it: with the answers every operation has in common (X-Request-Id, 5XX).
  defaultValidator ??= new OpenApiValidator(withCommonResponses(parse(readFileSync(OPENAPI_FILE, 'utf8'))));
  return defaultValidator;
}

/**
 * Throws an Error listing every mismatch between a response and the OpenAPI description: an undescribed
 * operation or status, a missing required header, an undescribed Content-Type, or a body that fails the
 * schema. `pathOrTemplate` may be `/diagrams/{uuid}/schema`, `/v1/diagrams/<uuid>/schema?format=ai` or a
 * full URL. A JSON body may be given parsed or as text.
 */
export function assertMatchesOpenApi(
  method: string,
  pathOrTemplate: string,
  status: number,
  headers: ResponseHeaders,
  body: unknown,
): MatchedResponse {
  return openApiValidator().assertMatches(method, pathOrTemplate, status, headers, body);
}

function componentRef(name: string): string {
  return `${COMPONENTS_ID}#/$defs/${name}`;
}

/** A deep copy with `#/components/schemas/<name>` refs pointing into the registered components schema. */
function rewriteSchemaRefs<T>(node: T): T {
  if (Array.isArray(node)) return node.map(rewriteSchemaRefs) as T;
  if (typeof node !== 'object' || node === null) return node;
  const copy: Json = {};
  for (const [key, value] of Object.entries(node as Json)) {
    if (key === '$ref' && typeof value === 'string' && value.startsWith('#/components/schemas/')) {
      copy[key] = componentRef(value.slice('#/components/schemas/'.length));
    } else {
      copy[key] = rewriteSchemaRefs(value);
    }
  }
  return copy as T;
}

function headerValue(headers: ResponseHeaders, name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(headers as Record<string, unknown>)) {
    if (key.toLowerCase() !== wanted || value === undefined) continue;
    return Array.isArray(value) ? value.join(', ') : String(value);
  }
  return undefined;
}

function pickMediaType(described: string[], actual: string): string | undefined {
  const exact = described.find((key) => key.toLowerCase() === actual);
  if (exact) return exact;
  const [type] = actual.split('/');
  return described.find((key) => key === `${type}/*`) ?? described.find((key) => key === '*/*');
}

function isJsonMediaType(mediaType: string): boolean {
  return /^application\/(?:[\w.+-]+\+)?json$/i.test(mediaType);
}

function isNumericSchema(schema: Json): boolean {
  const type = schema.type;
  return (
    type === 'integer' ||
    type === 'number' ||
    (Array.isArray(type) && (type.includes('integer') || type.includes('number')))
  );
}

function isEmptyObject(value: unknown): boolean {
  return (
    typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).length === 0
  );
}

function describeErrors(errors: ErrorObject[] | null | undefined, subject: string): string[] {
  return (errors ?? [])
    .filter((error) => !['if', 'allOf'].includes(error.keyword))
    .map((error) => {
      const at = error.instancePath === '' ? subject : `${subject} ${error.instancePath}`;
      const details = detailOf(error);
      return `${at}: ${error.message ?? error.keyword}${details ? ` (${details})` : ''}`;
    });
}

function detailOf(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  if (error.keyword === 'enum')
    return `allowed: ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
  if (error.keyword === 'const') return `expected ${JSON.stringify(params.allowedValue)}`;
  if (error.keyword === 'additionalProperties') return `property ${String(params.additionalProperty)}`;
  return '';
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
