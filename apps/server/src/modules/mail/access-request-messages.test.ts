import { describe, expect, it } from 'vitest';
import { USER_LANGUAGES } from '@partner-portal/contracts';
import {
  accessRequestDeclinedEmail,
  accessRequestManagerEmail,
  accessRequestReminderEmail,
  accessRequestSalesEmail,
  type RequesterDetails,
} from './access-request-messages.js';

const manageLink = 'http://localhost:3000/manage-organization/5f0c?x=1&y=2';
const loginLink = 'http://localhost:3000/login?lang=de';
const requester: RequesterDetails = { firstName: 'Anna', lastName: 'Berg', email: 'anna@dealer.example', message: 'Hello\nsecond line' };

function allFour(language: string) {
  return {
    manager: accessRequestManagerEmail({ language, firstName: 'Jan', requester, organizationName: 'Dealer Noord', link: manageLink }),
    sales: accessRequestSalesEmail({ language, requester, domain: 'dealer.example', requestedLanguage: 'de' }),
    reminder: accessRequestReminderEmail({ language, firstName: 'Piet', link: loginLink }),
    declined: accessRequestDeclinedEmail({ language, firstName: 'Anna' }),
  };
}

describe('access request e-mails', () => {
  it('exist in every user language, each with its own subjects, as text and HTML', () => {
    const subjects = new Set<string>();
    for (const language of USER_LANGUAGES) {
      const { manager, sales, reminder, declined } = allFour(language);
      for (const mail of [manager, sales, reminder, declined]) {
        expect(mail.html).toContain(`lang="${language}"`);
        expect(mail.text.trim().length).toBeGreaterThan(0);
        expect(mail.text).not.toMatch(/\{\{\w+\}\}/);
        expect(mail.html).not.toMatch(/\{\{\w+\}\}/);
        subjects.add(mail.subject);
      }
      // who asks, their address and their words reach the managers and sales
      for (const mail of [manager, sales]) {
        expect(mail.subject + mail.text).toContain('anna@dealer.example');
        expect(mail.text).toContain('Anna Berg');
        expect(mail.text).toContain('> Hello\n> second line');
        expect(mail.html).toContain('Hello\nsecond line');
      }
      expect(manager.text).toContain('Dealer Noord');
      expect(manager.text).toContain(manageLink);
      expect(manager.html).toContain('http://localhost:3000/manage-organization/5f0c?x=1&amp;y=2');
      expect(sales.text).toContain('dealer.example');
      expect(reminder.text).toContain(loginLink);
      expect(reminder.html).toContain(loginLink);
      expect(reminder.text).toContain('Piet');
      expect(declined.text).toContain('Anna');
    }
    expect(subjects.size).toBe(USER_LANGUAGES.length * 4);
  });

  it('escapes what the visitor typed in HTML and keeps names on one line', () => {
    const evil: RequesterDetails = {
      firstName: '<img src=x onerror=alert(1)>',
      lastName: 'Smith\r\nBcc: victim@example.com',
      email: 'evil@dealer.example',
      message: '<script>alert("x")</script> & more',
    };
    const manager = accessRequestManagerEmail({
      language: 'en',
      firstName: 'Jan',
      requester: evil,
      organizationName: 'A & B',
      link: manageLink,
    });
    expect(manager.html).not.toContain('<script>');
    expect(manager.html).not.toContain('<img');
    expect(manager.html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; more');
    expect(manager.html).toContain('A &amp; B');
    expect(manager.subject).not.toMatch(/[\r\n]/);
    expect(manager.subject).toContain('Smith Bcc: victim@example.com');
  });

  it('leaves out an empty message', () => {
    const manager = accessRequestManagerEmail({
      language: 'en',
      firstName: null,
      requester: { ...requester, message: null },
      organizationName: 'Dealer',
      link: manageLink,
    });
    expect(manager.text).not.toContain('Their message');
    expect(manager.html).not.toContain('<blockquote');
    expect(manager.text.startsWith('Hello,')).toBe(true);
  });

  it('speaks the recipient’s language and falls back to English', () => {
    expect(accessRequestDeclinedEmail({ language: 'de', firstName: 'Anna' }).subject).toBe(
      'Ihre Anfrage für den Zugang zum Partner Portal',
    );
    expect(accessRequestDeclinedEmail({ language: 'it', firstName: 'Anna' }).subject).toBe(
      accessRequestDeclinedEmail({ language: 'en', firstName: 'Anna' }).subject,
    );
  });

  it('ends a sentence with one full stop when the name it ends with has its own (“Farmtech B.V.”)', () => {
    for (const language of USER_LANGUAGES) {
      const manager = accessRequestManagerEmail({
        language,
        firstName: 'Jan',
        requester: { ...requester, lastName: 'Berg Jr.' },
        organizationName: 'Farmtech B.V.',
        link: manageLink,
      });
      const sales = accessRequestSalesEmail({ language, requester, domain: 'farmtech.example.', requestedLanguage: 'de' });
      for (const mail of [manager, sales]) {
        expect(mail.text, language).not.toMatch(/\.\./);
        expect(mail.html, language).not.toMatch(/\.\./);
        expect(mail.subject, language).not.toMatch(/\.\./);
      }
      expect(manager.text, language).toContain('Farmtech B.V.');
      // a name that does not end a sentence keeps its stop, and the sentence after it starts as before
      expect(manager.text, language).toContain('Anna Berg Jr.');
    }
    const english = accessRequestManagerEmail({
      language: 'en',
      firstName: 'Jan',
      requester,
      organizationName: 'Farmtech B.V.',
      link: manageLink,
    });
    expect(english.text).toContain('as a user manager of Farmtech B.V.\n');
    const plain = accessRequestManagerEmail({
      language: 'en',
      firstName: 'Jan',
      requester,
      organizationName: 'Farmtech',
      link: manageLink,
    });
    expect(plain.text).toContain('as a user manager of Farmtech.\n');
  });
});
