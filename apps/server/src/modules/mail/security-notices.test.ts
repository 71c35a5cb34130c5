import { describe, expect, it } from 'vitest';
import { USER_LANGUAGES } from '@partner-portal/contracts';
import { securityNoticeEmail, type SecurityNotice } from './security-notices.js';

const NOTICES: SecurityNotice[] = ['factor-added', 'factor-removed', 'password-changed', 'factors-reset'];

describe('security notices', () => {
  it('have a text of their own for every notice in every user language, as text and HTML', () => {
    for (const notice of NOTICES) {
      const subjects = new Set<string>();
      for (const language of USER_LANGUAGES) {
        const mail = securityNoticeEmail({ notice, language, firstName: 'Ann', loginUrl: 'https://portal.example.com/login' });
        subjects.add(mail.subject);
        expect(mail.text).toContain('https://portal.example.com/login');
        expect(mail.html).toContain(`<html lang="${language}">`);
      }
      expect(subjects.size).toBe(USER_LANGUAGES.length);
    }
  });

  it('escapes the name in HTML and falls back to English for an unknown language', () => {
    const mail = securityNoticeEmail({ notice: 'factor-added', language: 'xx', firstName: '<b>Eve</b>', loginUrl: 'https://p/login' });
    expect(mail.subject).toBe('A second factor was added to your Partner Portal account');
    expect(mail.html).toContain('&lt;b&gt;Eve&lt;/b&gt;');
    expect(mail.html).not.toContain('<b>Eve</b>');
  });
});
