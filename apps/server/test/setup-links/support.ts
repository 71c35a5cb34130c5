import { expect } from 'vitest';
import { HttpClient, type HttpResponse } from '../support/http.js';
import type { TestPortal } from '../support/portal.js';

/**
 * What the setup link tests share: making a link through the API, and a dealer's IT person who
 * opens it — reads the link, asks for the code, takes it from the SMTP sink and trades it for the
 * setup session's cookie — with a browser's cookie jar of its own.
 */
export interface MadeLink {
  id: string;
  url: string;
  token: string;
  expires_at: string;
}

export async function makeLink(
  by: HttpClient,
  organizationId: string,
  body: { email: string; capabilities: string[]; expires_in_days?: number },
): Promise<MadeLink> {
  const res = await by.post(`/api/organizations/${organizationId}/setup-links`, { expires_in_days: 7, ...body });
  expect(res.status, res.text).toBe(201);
  return { ...res.body, token: new URL(res.body.url).pathname.split('/').pop()! };
}

/** The one-time code of the newest code e-mail to `email`. */
export async function codeFor(portal: TestPortal, email: string, after = 0): Promise<string> {
  const mail = await portal.smtp.waitFor(email, (m) => /\b\d{8}\b/.test(m.subject) && portal.smtp.to(email).indexOf(m) >= after);
  return /\b(\d{8})\b/.exec(mail.subject)![1]!;
}

/** A dealer's IT person with a browser of their own. */
export class ItPerson {
  readonly client: HttpClient;

  constructor(
    private readonly portal: TestPortal,
    readonly email: string,
  ) {
    this.client = new HttpClient(portal.url);
  }

  async askCode(token: string): Promise<HttpResponse> {
    return this.client.post(`/api/setup/${token}/code`);
  }

  async enterCode(token: string, code: string): Promise<HttpResponse> {
    return this.client.post(`/api/setup/${token}/session`, { code });
  }

  /** Ask for a code, read it from the e-mail, enter it: the setup session's cookie is in the jar. */
  async open(token: string): Promise<void> {
    const before = this.portal.smtp.to(this.email).length;
    expect((await this.askCode(token)).status).toBe(202);
    const code = await codeFor(this.portal, this.email, before);
    const opened = await this.enterCode(token, code);
    expect(opened.status, opened.text).toBe(204);
  }
}
