// The one rule for which palette a stylesheet's custom properties take, shared by every stylesheet of the
// web app: light by default; dark when the system prefers it, unless the person chose light (the toggle
// sets data-theme="light" on <html>); dark whenever they chose dark. Both declarations are plain lists of
// custom properties.
export function themed(light: string, dark: string): string {
  return `:root { ${light} }
@media (prefers-color-scheme: dark) { :root:not([data-theme="light"]) { ${dark} } }
:root[data-theme="dark"] { ${dark} }`;
}
