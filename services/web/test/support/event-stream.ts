// Reads a Server-Sent Events answer the way a browser's EventSource does (events split at blank lines,
// `event:`, `data:` and `id:` fields, comment lines kept apart), for the HTTP tests of the live routes.

export interface StreamEvent {
  event: string;
  data: unknown;
  id: string | null;
}

export interface EventStreamReader {
  response: Response;
  /** Everything read so far, comments and `retry:` lines included. */
  readonly text: string;
  /** The next event named `event` (after those already taken) that `accept` accepts. */
  next(event: string, accept?: (data: unknown) => boolean, timeoutMs?: number): Promise<StreamEvent>;
  /** Resolves when the server ended the answer. */
  readonly ended: Promise<void>;
  close(): void;
}

export async function openEventStream(
  url: string,
  headers: Record<string, string>,
): Promise<EventStreamReader> {
  const controller = new AbortController();
  const response = await fetch(url, { headers, signal: controller.signal });
  const events: StreamEvent[] = [];
  let text = '';
  let taken = 0;
  let wake: () => void = () => undefined;
  const ended = (async () => {
    if (!response.body) return;
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        const chunk = decoder.decode(value, { stream: true });
        text += chunk;
        buffer += chunk;
        let end = buffer.indexOf('\n\n');
        while (end >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const fields = new Map<string, string>();
          for (const line of block.split('\n')) {
            if (line.startsWith(':')) continue;
            const colon = line.indexOf(':');
            fields.set(line.slice(0, colon), line.slice(colon + 1).trimStart());
          }
          if (fields.has('data'))
            events.push({
              event: fields.get('event') ?? 'message',
              data: JSON.parse(fields.get('data')!),
              id: fields.get('id') ?? null,
            });
          wake();
          end = buffer.indexOf('\n\n');
        }
      }
    } catch {
      // Aborted by close().
    } finally {
      wake();
    }
  })();
  let finished = false;
  void ended.then(() => {
    finished = true;
  });
  return {
    response,
    get text() {
      return text;
    },
    ended,
    async next(event, accept = () => true, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        while (taken < events.length) {
          const candidate = events[taken++]!;
          if (candidate.event === event && accept(candidate.data)) return candidate;
        }
        if (finished) throw new Error(`the stream ended before a "${event}" event`);
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`no "${event}" event within ${timeoutMs} ms; read: ${text}`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, Math.min(left, 200));
          wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
      }
    },
    close() {
      controller.abort();
    },
  };
}
