// The "New diagram" page script (served as /assets/new-diagram.js): a file chosen from disk is read into
// the SQL/DBML box (the form posts text, not a file), refused above the import's 200KB.
const MAX_BYTES = 200 * 1024;

function start(): void {
  const input = document.getElementById('source-file') as HTMLInputElement | null;
  const form = document.getElementById('new-diagram-form') as HTMLFormElement | null;
  const status = document.getElementById('source-file-status');
  if (!input || !form || !status) return;
  input.addEventListener('change', () => {
    const file = input.files?.[0];
    if (!file) return;
    if (file.size > MAX_BYTES) {
      status.textContent = `${file.name} is larger than 200KB, the most an import takes.`;
      return;
    }
    void file.text().then((text) => {
      (form.elements.namedItem('source') as HTMLTextAreaElement).value = text;
      const start = /\.dbml$/i.test(file.name) ? 'dbml' : 'sql';
      const radio = form.querySelector<HTMLInputElement>(`input[name="start"][value="${start}"]`);
      if (radio) radio.checked = true;
      status.textContent = `Read ${file.name}.`;
    });
  });
}

if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
else start();
