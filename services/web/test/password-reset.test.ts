// Password reset by email link against the whole system and a real SMTP server: the link sets a new
// password once, within its hour; unknown addresses get the same answer and no mail; links per account
// and requests per IP are limited.
import { linkIn, type Mailbox, startMailbox } from './support/mailbox';
import { createPerson, startWebTestSystem, WebClient, type WebTestSystem } from './support/web-system';

/** The page without what differs between any two answers (CSRF token). */
const answerOf = (text: string) => text.replace(/name="_csrf" value="[^"]*"/g, '');

describe('password reset', () => {
  let mailbox: Mailbox;
  let web: WebTestSystem;
  beforeAll(async () => {
    mailbox = await startMailbox();
    web = await startWebTestSystem({ DSS_SMTP_URL: mailbox.url, DSS_MAIL_FROM: 'DSS <dss@example.test>' });
  });
  afterAll(async () => {
    await web?.stop();
    await mailbox?.close();
  });

  async function requestReset(email: string) {
    const client = new WebClient(web.webUrl);
    const csrf = await client.csrfToken('/forgot-password');
    return client.request('/forgot-password', { form: { _csrf: csrf, email } });
  }

  it('should link to “forgot password” from the sign-in page', async () => {
    const { text } = await new WebClient(web.webUrl).request('/sign-in');
    expect(text).toContain('href="/forgot-password"');
  });

  it('should set a new password through the emailed link, once, ending the old sessions', async () => {
    const person = await createPerson(web, 'resets', 'editor');
    const before = new WebClient(web.webUrl);
    expect((await before.signIn(person.email)).response.status).toBe(303);

    const answer = await requestReset(person.email);
    expect(answer.response.status).toBe(200);
    const mail = await mailbox.next(person.email);
    expect(mail.text).toContain('From: DSS <dss@example.test>');
    const link = linkIn(mail, '/reset-password/');
    expect(link.startsWith(`${web.webUrl}/reset-password/`)).toBe(true);

    const client = new WebClient(web.webUrl);
    const path = new URL(link).pathname;
    const csrf = await client.csrfToken(path);
    const differ = await client.request(path, {
      form: { _csrf: csrf, password: 'brand new secret', confirm: 'other' },
    });
    expect(differ.response.status).toBe(400);
    const set = await client.request(path, {
      form: { _csrf: csrf, password: 'brand new secret', confirm: 'brand new secret' },
    });
    expect(set.response.status).toBe(303);
    expect(set.response.headers.get('location')).toBe('/sign-in?reset=done');

    // The old session ended; the old password no longer works; the new one does.
    expect((await before.request('/settings/tokens')).response.status).toBe(303);
    expect((await new WebClient(web.webUrl).signIn(person.email)).response.status).toBe(401);
    expect((await new WebClient(web.webUrl).signIn(person.email, 'brand new secret')).response.status).toBe(
      303,
    );

    // Single use.
    const again = await client.request(path, {
      form: { _csrf: csrf, password: 'third secret!', confirm: 'third secret!' },
    });
    expect(again.response.status).toBe(404);
  });

  it('should answer an unknown address exactly like a known one, and send it nothing', async () => {
    const person = await createPerson(web, 'resets', 'viewer');
    const known = await requestReset(person.email);
    const unknown = await requestReset('nobody@resets.test');
    expect(unknown.response.status).toBe(known.response.status);
    expect(answerOf(unknown.text)).toBe(answerOf(known.text));
    await mailbox.next(person.email);
    expect(mailbox.to('nobody@resets.test')).toEqual([]);
  });

  it('should send an address at most 3 links an hour, answering alike, and limit requests per IP', async () => {
    const person = await createPerson(web, 'resets', 'viewer');
    const answers: number[] = [];
    // Earlier tests of this file made 3 requests from this IP; the limit is 5 per 15 minutes.
    for (let index = 0; index < 3; index += 1)
      answers.push((await requestReset(person.email)).response.status);
    expect(answers).toEqual([200, 200, 429]);
    await mailbox.next(person.email, 1);
    expect(mailbox.to(person.email)).toHaveLength(2);
  });
});
