// Reads the SVG back with a real XML parser (any warning or error fails the test), as a plain tree the
// tests can search.
import { DOMParser } from '@xmldom/xmldom';

export interface SvgNode {
  name: string;
  attributes: Record<string, string>;
  children: SvgNode[];
  /** Text content of the element and its descendants, entities decoded. */
  text: string;
}

/** Characters outside XML 1.0's Char production (xmldom accepts them, a browser's XML parser does not). */
const NOT_XML_CHARACTER =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding the characters XML forbids is the point
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
/** An ampersand that starts no entity or character reference (xmldom accepts it in text). */
const BARE_AMPERSAND = /&(?!(?:amp|lt|gt|quot|apos|#\d+|#x[0-9a-fA-F]+);)/;

export function parseSvg(svg: string): SvgNode {
  if (NOT_XML_CHARACTER.test(svg)) throw new Error('the SVG holds a character XML does not allow');
  if (BARE_AMPERSAND.test(svg)) throw new Error('the SVG holds an unescaped &');
  const parser = new DOMParser({
    onError: (level, message) => {
      // U+FFFD is what the renderer writes in place of characters XML forbids; xmldom merely notes it.
      if (level === 'warning' && message.startsWith('Unicode replacement character')) return;
      throw new Error(`XML ${level}: ${message}`);
    },
  });
  const document = parser.parseFromString(svg, 'image/svg+xml');
  return toNode(document.documentElement as unknown as DomElement);
}

interface DomElement {
  nodeType: number;
  nodeName: string;
  textContent: string | null;
  attributes: ArrayLike<{ name: string; value: string }>;
  childNodes: ArrayLike<DomElement>;
}

function toNode(element: DomElement): SvgNode {
  const attributes: Record<string, string> = {};
  for (const attribute of Array.from(element.attributes)) attributes[attribute.name] = attribute.value;
  const children = Array.from(element.childNodes)
    .filter((child) => child.nodeType === 1)
    .map(toNode);
  return { name: element.nodeName, attributes, children, text: element.textContent ?? '' };
}

/** Every element of the tree, the root first. */
export function allElements(root: SvgNode): SvgNode[] {
  const out: SvgNode[] = [root];
  for (const child of root.children) out.push(...allElements(child));
  return out;
}

export function classesOf(node: SvgNode): string[] {
  return (node.attributes['class'] ?? '').split(' ').filter((name) => name !== '');
}

/** Elements carrying every one of the classes. */
export function withClass(root: SvgNode, ...classes: string[]): SvgNode[] {
  return allElements(root).filter((node) => classes.every((name) => classesOf(node).includes(name)));
}

/** The text of the element's own <title> child ('' when it has none). */
export function titleOf(node: SvgNode): string {
  return node.children.find((child) => child.name === 'title')?.text ?? '';
}
