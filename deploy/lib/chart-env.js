// The chart's per-component environment (the `dss.component.env` helper of charts/dss/templates/
// _component.tpl), computed without Helm: the one source of truth for which variables, with which values,
// each component gets. deploy/test checks the chart with it (every name is read by the service, none is
// missing) and scripts/e2e-containers.js runs each container with what it returns, so the container e2e
// runs the components exactly as the chart configures them, except where a pod's world differs from one
// machine's (Service names, Secrets), which the caller's `include` and its secret values supply.
//
// It interprets the helper's own text: `if` guards and `range` loops over the component's settings and the
// chart's values, `- name:` entries with a `value:` (literal or an action with printf, upper, include and
// quote) or a `valueFrom.secretKeyRef`. Anything else makes it throw, so a change to the helper that it
// cannot follow fails the chart tests instead of going unchecked.
const fs = require('node:fs');
const path = require('node:path');
const YAML = require('yaml');

const CHART_DIR = path.resolve(__dirname, '../../charts/dss');

function isMap(value) {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Helm's coalescing of a user values file over the chart's: maps merge, other values replace, null deletes. */
function coalesce(base, override) {
  if (!isMap(base) || !isMap(override)) return structuredClone(override);
  const out = structuredClone(base);
  for (const [key, value] of Object.entries(override)) {
    if (value === null) delete out[key];
    else out[key] = key in out ? coalesce(out[key], value) : structuredClone(value);
  }
  return out;
}

/** The chart's `dss.mergeInto`: maps merge key by key; anything else, false and empty values too, replaces. */
function mergeInto(base, over) {
  const out = structuredClone(base);
  for (const [key, value] of Object.entries(over)) {
    out[key] = isMap(value) && isMap(out[key]) ? mergeInto(out[key], value) : value;
  }
  return out;
}

/** values.yaml with each of `files` (paths under charts/dss, e.g. ci/kind-values.yaml) merged over it in order. */
function chartValues(files = []) {
  const read = (file) => YAML.parse(fs.readFileSync(path.resolve(CHART_DIR, file), 'utf8')) ?? {};
  return files.reduce((values, file) => coalesce(values, read(file)), read('values.yaml'));
}

/** Each component's settings as the templates see them: componentDefaults overlaid with its own entry. */
function componentSettings(values) {
  return Object.fromEntries(
    Object.entries(values.components).map(([name, own]) => [name, mergeInto(values.componentDefaults, own)]),
  );
}

/** The text of one `define` of a template file. */
function defineBody(text, name) {
  const lines = text.replace(/\{\{-?\s*\/\*[\s\S]*?\*\/\s*-?\}\}/g, '').split('\n');
  const start = lines.findIndex((line) => line.includes(`define "${name}"`));
  if (start < 0) throw new Error(`no define "${name}"`);
  const end = matchingEnd(lines, start);
  return lines.slice(start + 1, end).join('\n');
}

/** The helper's text, read from the chart. */
function envHelper() {
  return defineBody(
    fs.readFileSync(path.join(CHART_DIR, 'templates/_component.tpl'), 'utf8'),
    'dss.component.env',
  );
}

const OPENERS = /\{\{-?\s*(if|range|with|define|block)\b/g;
const ENDS = /\{\{-?\s*end\s*-?\}\}/g;

function matchingEnd(lines, openIndex) {
  let depth = 0;
  for (let index = openIndex; index < lines.length; index++) {
    depth += (lines[index].match(OPENERS) ?? []).length - (lines[index].match(ENDS) ?? []).length;
    if (depth === 0) return index;
  }
  throw new Error(`no {{ end }} for "${lines[openIndex].trim()}"`);
}

/** Splits template arguments on spaces outside quotes and parentheses. */
function splitArguments(text) {
  const parts = [];
  let current = '';
  let depth = 0;
  let quoted = false;
  for (const char of text.trim()) {
    if (char === '"' && current.at(-1) !== '\\') quoted = !quoted;
    if (!quoted && char === '(') depth++;
    if (!quoted && char === ')') depth--;
    if (!quoted && depth === 0 && /\s/.test(char)) {
      if (current) parts.push(current);
      current = '';
    } else current += char;
  }
  if (current) parts.push(current);
  return parts;
}

function lookup(node, keys) {
  for (const key of keys) node = isMap(node) ? node[key] : undefined;
  return node;
}

/** One template expression: a path, a variable, a literal, or printf/upper/include/dict, piped to quote. */
function evaluate(expression, scope) {
  const text = expression.trim();
  const piped = /^(.*?)\s*\|\s*quote$/.exec(text);
  if (piped) return String(evaluate(piped[1], scope));
  if (/^"(?:[^"\\]|\\.)*"$/.test(text)) return JSON.parse(text);
  if (/^-?\d+$/.test(text)) return Number(text);
  if (text.startsWith('(') && text.endsWith(')')) return evaluate(text.slice(1, -1), scope);
  if (text.startsWith('$root.Values.'))
    return lookup(scope.values, text.slice('$root.Values.'.length).split('.'));
  if (text.startsWith('$c.')) return lookup(scope.c, text.slice(3).split('.'));
  if (text === '.name') return scope.name;
  if (/^\$[a-z]+$/.test(text) && text in scope.variables) return scope.variables[text];
  const [head, ...args] = splitArguments(text);
  if (head === 'upper' && args.length === 1) return String(evaluate(args[0], scope)).toUpperCase();
  if (head === 'printf' && args.length >= 1) {
    const values = args.slice(1).map((arg) => evaluate(arg, scope));
    return String(evaluate(args[0], scope)).replace(/%[sv]/g, () => String(values.shift()));
  }
  if (head === 'dict') {
    const out = {};
    for (let i = 0; i + 1 < args.length; i += 2) out[evaluate(args[i], scope)] = evaluate(args[i + 1], scope);
    return out;
  }
  if (head === 'include' && args.length === 2) {
    const argument = evaluate(args[1], scope);
    return scope.include(evaluate(args[0], scope), isMap(argument) ? argument.name : undefined);
  }
  if (text === '$root') return scope.values;
  throw new Error(`the env interpreter does not understand "${text}"`);
}

function truthy(value) {
  if (Array.isArray(value)) return value.length > 0;
  if (isMap(value)) return Object.keys(value).length > 0;
  return Boolean(value);
}

/** A name or value field: literal text, or one action. */
function field(text, scope) {
  const trimmed = text.trim();
  const action = /^\{\{-?\s*(.+?)\s*-?\}\}$/.exec(trimmed);
  if (action) return String(evaluate(action[1], scope));
  if (/^".*"$/.test(trimmed)) return JSON.parse(trimmed);
  if (trimmed.includes('{{')) throw new Error(`the env interpreter does not understand "${trimmed}"`);
  return trimmed;
}

/**
 * The environment dss.component.env gives component `name` (settings `c`) under `values`, in the helper's
 * order: entries with a `value`, or a `secretKey` (and `optional`) for those read from the credentials
 * Secret. `include(template, componentName)` answers the helper's includes (dss.grpcTarget,
 * dss.componentName); by default it returns a placeholder, enough for names.
 */
function componentEnv(helper, { c, name, values, include = (template, of) => `<${template} ${of}>` }) {
  const entries = [];
  const lines = helper.split('\n');
  const run = (start, end, variables) => {
    const scope = { c, name, values, variables, include };
    for (let index = start; index < end; index++) {
      const line = lines[index];
      const block = /^\s*\{\{-?\s*(if|range)\s+(.+?)\s*-?\}\}\s*$/.exec(line);
      if (block) {
        const close = matchingEnd(lines, index);
        if (block[1] === 'if') {
          if (truthy(evaluate(block[2], scope))) run(index + 1, close, variables);
        } else {
          const loop = /^(\$[a-z]+)(?:,\s*(\$[a-z]+))?\s*:=\s*(.+)$/.exec(block[2]);
          if (!loop) throw new Error(`the env interpreter does not understand "${line.trim()}"`);
          const collection = evaluate(loop[3], scope);
          const items = Array.isArray(collection)
            ? collection.map((item, position) => [position, item])
            : isMap(collection)
              ? Object.entries(collection)
              : [];
          for (const [key, item] of items) {
            const bound = loop[2] ? { [loop[1]]: key, [loop[2]]: item } : { [loop[1]]: item };
            run(index + 1, close, { ...variables, ...bound });
          }
        }
        index = close;
        continue;
      }
      if (/\{\{-?\s*(else|with|define)\b/.test(line))
        throw new Error(`the env interpreter does not understand "${line.trim()}"`);
      const named = /^- name:\s*(.+?)\s*$/.exec(line);
      if (named) {
        const entry = { name: field(named[1], scope), source: line.trim() };
        const valueLine = lines[index + 1] ?? '';
        const value = /^\s+value:\s*(.+?)\s*$/.exec(valueLine);
        if (value) entry.value = field(value[1], scope);
        else if (/^\s+valueFrom:\s*$/.test(valueLine)) {
          let next = index + 2;
          const from = [];
          while (next < end && /^\s{4,}/.test(lines[next])) from.push(lines[next++].trim());
          const key = from.map((text) => /^key:\s*(.+)$/.exec(text)?.[1]).find(Boolean);
          if (!from.includes('secretKeyRef:') || !key)
            throw new Error(`the env interpreter does not understand the valueFrom of "${line.trim()}"`);
          entry.secretKey = field(key, scope);
          entry.optional = from.includes('optional: true');
        } else throw new Error(`no value or valueFrom after "${line.trim()}"`);
        entries.push(entry);
      }
    }
  };
  run(0, lines.length, {});
  return entries;
}

module.exports = { chartValues, coalesce, componentEnv, componentSettings, envHelper, isMap, mergeInto };
