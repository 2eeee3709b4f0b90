// Email through SMTP (nodemailer), configured by DSS_SMTP_URL and DSS_MAIL_FROM. Without DSS_SMTP_URL
// there is no mailer: invitation links are then only shown to the owner, and reset links go nowhere.
// Plain-text mail only, so nothing a user typed can become markup in a mail client.
import nodemailer from 'nodemailer';

export interface Mail {
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  send(mail: Mail): Promise<void>;
  close(): void;
}

export function createMailer(smtpUrl: string | undefined, from: string): Mailer | null {
  if (!smtpUrl) return null;
  const transport = nodemailer.createTransport(smtpUrl);
  return {
    async send(mail) {
      await transport.sendMail({ from, to: mail.to, subject: mail.subject, text: mail.text });
    },
    close() {
      transport.close();
    },
  };
}
