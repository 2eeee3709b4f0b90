// The file name an export is downloaded as, the same from the API and the web app.

/** A file name from the diagram's name: letters, digits, dots, dashes and underscores only. */
export function fileName(name: string): string {
  const cleaned = name
    .normalize('NFKD')
    .replace(/[^\w.-]+/g, '-')
    .replace(/^[-.]+|-+$/g, '')
    .slice(0, 80);
  return cleaned === '' ? 'diagram' : cleaned;
}

/** `<name>-v<n>.<extension>` (without `-v<n>` when no version is named). */
export function exportFileName(name: string, extension: string, version?: number): string {
  return `${fileName(name)}${version === undefined ? '' : `-v${version}`}.${extension}`;
}
