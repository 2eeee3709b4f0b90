// A real SMTP server in this process (smtp-server) that keeps every message it receives, so tests read
// the emails the web app sends through nodemailer. Listens on 127.0.0.1 only, without TLS or auth.
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  to: string[];
  /** The message as received (headers and body), quoted-printable soft breaks and escapes decoded. */
  text: string;
}

export interface Mailbox {
  url: string;
  messages: ReceivedMail[];
  /** The first message to `address` after the first `skip`, waiting up to `ms` for it. */
  next(address: string, skip?: number, ms?: number): Promise<ReceivedMail>;
  /** Messages to `address` so far. */
  to(address: string): ReceivedMail[];
  close(): Promise<void>;
}

export async function startMailbox(): Promise<Mailbox> {
  const messages: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        messages.push({
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address.toLowerCase()),
          text: decodeQuotedPrintable(Buffer.concat(chunks).toString('utf8')),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  const to = (address: string) => messages.filter((m) => m.to.includes(address.toLowerCase()));
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    to,
    async next(address, skip = 0, ms = 10_000) {
      const deadline = Date.now() + ms;
      while (to(address).length <= skip) {
        if (Date.now() > deadline) throw new Error(`no mail to ${address} within ${ms} ms`);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      return to(address)[skip]!;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function decodeQuotedPrintable(text: string): string {
  return text
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_match, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
}

/** The first link under `path` in a mail. */
export function linkIn(mail: ReceivedMail, path: string): string {
  const match = new RegExp(`https?://[^\\s]+${path}[A-Za-z0-9_-]+`).exec(mail.text);
  if (!match) throw new Error(`no ${path} link in the mail:\n${mail.text}`);
  return match[0];
}
