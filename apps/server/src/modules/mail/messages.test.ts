import { describe, expect, it } from 'vitest';
import { USER_LANGUAGES } from '@partner-portal/contracts';
import { domainUnverifiedEmail, invitationEmail, passwordResetEmail, ssoConnectionEmail } from './messages.js';

const link = 'http://localhost:3000/invitation/5f0c?code=abc&x=1';

describe('e-mail messages', () => {
  it('exist in every user language, with the link in text and HTML', () => {
    const subjects = new Set<string>();
    for (const language of USER_LANGUAGES) {
      const invite = invitationEmail({ language, link, organizationName: 'Dealer Noord', inviterName: 'Anna', isExternal: false });
      const reset = passwordResetEmail({ language, link, firstName: 'Jan' });
      for (const mail of [invite, reset]) {
        expect(mail.text).toContain(link);
        expect(mail.html).toContain('http://localhost:3000/invitation/5f0c?code=abc&amp;x=1');
        expect(mail.html).toContain(`lang="${language}"`);
      }
      expect(invite.subject).toContain('Dealer Noord');
      subjects.add(reset.subject);
    }
    expect(subjects.size).toBe(USER_LANGUAGES.length);
  });

  it('escapes names in HTML', () => {
    const mail = invitationEmail({ language: 'en', link, organizationName: '<script>x</script>', inviterName: 'A & B', isExternal: true });
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).toContain('&lt;script&gt;');
    expect(mail.html).toContain('A &amp; B');
    expect(mail.text).toContain('company account');
  });

  it('falls back to English for an unknown language', () => {
    expect(passwordResetEmail({ language: 'it', link }).subject).toBe(passwordResetEmail({ language: 'en', link }).subject);
  });

  it('tells of a domain that lost its verification in every user language, with the record and the organization’s page', () => {
    const page = 'http://localhost:3000/manage-organization/5f0c';
    const subjects = new Set<string>();
    for (const language of USER_LANGUAGES) {
      const mail = domainUnverifiedEmail({
        language,
        link: page,
        domain: 'dealer.example',
        recordName: '_partner-portal.dealer.example',
        organizationName: 'Dealer <Noord>',
        firstName: 'Jan',
      });
      expect(mail.subject).toContain('dealer.example');
      expect(mail.subject).toContain('Dealer <Noord>');
      expect(mail.text).toContain('_partner-portal.dealer.example');
      expect(mail.text).toContain(page);
      expect(mail.text).toContain('Jan');
      expect(mail.html).toContain(page);
      expect(mail.html).toContain('Dealer &lt;Noord&gt;');
      expect(mail.html).toContain(`lang="${language}"`);
      expect(mail.text).not.toContain('{{');
      subjects.add(mail.subject);
    }
    expect(subjects.size).toBe(USER_LANGUAGES.length);
  });

  it('tell the managers in every user language that a single sign-on connection was added', () => {
    const subjects = new Set<string>();
    for (const language of USER_LANGUAGES) {
      const mail = ssoConnectionEmail({
        change: 'added',
        language,
        link,
        firstName: 'Lisa',
        actorName: 'Anna <Admin>',
        organizationName: 'Dealer Noord',
        connectionName: 'Noord Entra ID',
        issuer: 'https://login.example/tenant/v2.0',
        domains: ['noord.example', 'noord.nl'],
      });
      expect(mail.subject).toContain('Dealer Noord');
      expect(mail.text).toContain('Noord Entra ID');
      expect(mail.text).toContain('@noord.example, @noord.nl');
      expect(mail.text).toContain(link);
      expect(mail.text).toContain('Lisa');
      expect(mail.html).toContain(`lang="${language}"`);
      expect(mail.html).toContain('Anna &lt;Admin&gt;');
      expect(mail.html).not.toContain('<Admin>');
      subjects.add(mail.subject);
    }
    expect(subjects.size).toBe(USER_LANGUAGES.length);
  });
});
