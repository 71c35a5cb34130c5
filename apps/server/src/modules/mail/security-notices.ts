import type { Logger } from 'pino';
import { USER_LANGUAGES, type UserLanguage } from '@partner-portal/contracts';
import type { Config } from '../../config.js';
import type { Queryable } from '../../db/client.js';
import { emailHtml, labelledLink, paragraph } from './layout.js';
import type { Mailer } from './mailer.js';
import type { RenderedEmail } from './messages.js';
import { findRecipient } from './queries.js';

/**
 * Security notices: the user hears of every change to how they sign in (second factors, the
 * password), in their language (en, nl, de, fr, es, pt-BR), as text and HTML, in the one layout of every
 * e-mail (layout.ts). `sendSecurityNotice` sends one; `securityNoticeEmail` renders it.
 */
export type SecurityNotice = 'factor-added' | 'factor-removed' | 'password-changed' | 'factors-reset';

interface NoticeTexts {
  greeting: (firstName: string) => string;
  subjects: Record<SecurityNotice, string>;
  bodies: Record<SecurityNotice, string>;
  notYou: string;
  link: string;
  signature: string;
}

const TEXTS: Record<UserLanguage, NoticeTexts> = {
  en: {
    greeting: (n) => (n ? `Dear ${n},` : 'Hello,'),
    subjects: {
      'factor-added': 'A second factor was added to your Partner Portal account',
      'factor-removed': 'A second factor was removed from your Partner Portal account',
      'password-changed': 'Your Partner Portal password was changed',
      'factors-reset': 'The second factors of your Partner Portal account were reset',
    },
    bodies: {
      'factor-added': 'An authenticator app was just set up as a second factor for signing in to your account.',
      'factor-removed': 'An authenticator app was just removed from the second factors of your account.',
      'password-changed': 'The password of your account was just changed.',
      'factors-reset':
        'An administrator of your organization just removed all second factors of your account. At your next sign-in you may be asked to set up a new one.',
    },
    notYou: 'If this was not you, change your password at once and contact your administrator.',
    link: 'Sign in:',
    signature: 'Partner Portal',
  },
  nl: {
    greeting: (n) => (n ? `Beste ${n},` : 'Hallo,'),
    subjects: {
      'factor-added': 'Er is een tweede factor toegevoegd aan je Partner Portal-account',
      'factor-removed': 'Er is een tweede factor verwijderd van je Partner Portal-account',
      'password-changed': 'Je wachtwoord voor het Partner Portal is gewijzigd',
      'factors-reset': 'De tweede factoren van je Partner Portal-account zijn opnieuw ingesteld',
    },
    bodies: {
      'factor-added': 'Er is zojuist een authenticator-app ingesteld als tweede factor om je aan te melden bij je account.',
      'factor-removed': 'Er is zojuist een authenticator-app verwijderd uit de tweede factoren van je account.',
      'password-changed': 'Het wachtwoord van je account is zojuist gewijzigd.',
      'factors-reset':
        'Een beheerder van je organisatie heeft zojuist alle tweede factoren van je account verwijderd. Bij je volgende aanmelding kan je worden gevraagd een nieuwe in te stellen.',
    },
    notYou: 'Was jij dit niet? Wijzig dan direct je wachtwoord en neem contact op met je beheerder.',
    link: 'Aanmelden:',
    signature: 'Partner Portal',
  },
  de: {
    greeting: (n) => (n ? `Hallo ${n},` : 'Guten Tag,'),
    subjects: {
      'factor-added': 'Ihrem Partner-Portal-Konto wurde ein zweiter Faktor hinzugefügt',
      'factor-removed': 'Von Ihrem Partner-Portal-Konto wurde ein zweiter Faktor entfernt',
      'password-changed': 'Ihr Partner-Portal-Passwort wurde geändert',
      'factors-reset': 'Die zweiten Faktoren Ihres Partner-Portal-Kontos wurden zurückgesetzt',
    },
    bodies: {
      'factor-added': 'Soeben wurde eine Authenticator-App als zweiter Faktor für die Anmeldung an Ihrem Konto eingerichtet.',
      'factor-removed': 'Soeben wurde eine Authenticator-App aus den zweiten Faktoren Ihres Kontos entfernt.',
      'password-changed': 'Das Passwort Ihres Kontos wurde soeben geändert.',
      'factors-reset':
        'Ein Administrator Ihrer Organisation hat soeben alle zweiten Faktoren Ihres Kontos entfernt. Bei Ihrer nächsten Anmeldung werden Sie möglicherweise gebeten, einen neuen einzurichten.',
    },
    notYou: 'Wenn Sie das nicht waren, ändern Sie sofort Ihr Passwort und wenden Sie sich an Ihren Administrator.',
    link: 'Anmelden:',
    signature: 'Partner Portal',
  },
  fr: {
    greeting: (n) => (n ? `Bonjour ${n},` : 'Bonjour,'),
    subjects: {
      'factor-added': 'Un second facteur a été ajouté à votre compte Partner Portal',
      'factor-removed': 'Un second facteur a été retiré de votre compte Partner Portal',
      'password-changed': 'Le mot de passe de votre compte Partner Portal a été modifié',
      'factors-reset': 'Les seconds facteurs de votre compte Partner Portal ont été réinitialisés',
    },
    bodies: {
      'factor-added': "Une application d'authentification vient d'être configurée comme second facteur de connexion à votre compte.",
      'factor-removed': "Une application d'authentification vient d'être retirée des seconds facteurs de votre compte.",
      'password-changed': "Le mot de passe de votre compte vient d'être modifié.",
      'factors-reset':
        "Un administrateur de votre organisation vient de supprimer tous les seconds facteurs de votre compte. À votre prochaine connexion, il pourra vous être demandé d'en configurer un nouveau.",
    },
    notYou: "Si ce n'était pas vous, changez immédiatement votre mot de passe et contactez votre administrateur.",
    link: 'Se connecter :',
    signature: 'Partner Portal',
  },
  es: {
    greeting: (n) => (n ? `Hola, ${n}:` : 'Hola:'),
    subjects: {
      'factor-added': 'Se ha añadido un segundo factor a tu cuenta de Partner Portal',
      'factor-removed': 'Se ha quitado un segundo factor de tu cuenta de Partner Portal',
      'password-changed': 'Se ha cambiado la contraseña de tu cuenta de Partner Portal',
      'factors-reset': 'Se han restablecido los segundos factores de tu cuenta de Partner Portal',
    },
    bodies: {
      'factor-added': 'Se acaba de configurar una aplicación de autenticación como segundo factor para iniciar sesión en tu cuenta.',
      'factor-removed': 'Se acaba de quitar una aplicación de autenticación de los segundos factores de tu cuenta.',
      'password-changed': 'Se acaba de cambiar la contraseña de tu cuenta.',
      'factors-reset':
        'Un administrador de tu organización acaba de quitar todos los segundos factores de tu cuenta. En tu próximo inicio de sesión puede que se te pida configurar uno nuevo.',
    },
    notYou: 'Si no has sido tú, cambia tu contraseña de inmediato y ponte en contacto con tu administrador.',
    link: 'Iniciar sesión:',
    signature: 'Partner Portal',
  },
  'pt-BR': {
    greeting: (n) => (n ? `Olá, ${n},` : 'Olá,'),
    subjects: {
      'factor-added': 'Um segundo fator foi adicionado à sua conta do Partner Portal',
      'factor-removed': 'Um segundo fator foi removido da sua conta do Partner Portal',
      'password-changed': 'Sua senha do Partner Portal foi alterada',
      'factors-reset': 'Os segundos fatores da sua conta do Partner Portal foram redefinidos',
    },
    bodies: {
      'factor-added': 'Um aplicativo autenticador acabou de ser configurado como segundo fator para entrar na sua conta.',
      'factor-removed': 'Um aplicativo autenticador acabou de ser removido dos segundos fatores da sua conta.',
      'password-changed': 'A senha da sua conta acabou de ser alterada.',
      'factors-reset':
        'Um administrador da sua organização acabou de remover todos os segundos fatores da sua conta. No seu próximo acesso, talvez seja solicitado que você configure um novo.',
    },
    notYou: 'Se não foi você, altere sua senha imediatamente e entre em contato com o seu administrador.',
    link: 'Entrar:',
    signature: 'Partner Portal',
  },
};

function textsFor(language: string): NoticeTexts {
  return (USER_LANGUAGES as readonly string[]).includes(language) ? TEXTS[language as UserLanguage] : TEXTS.en;
}

export function securityNoticeEmail(input: {
  notice: SecurityNotice;
  language: string;
  firstName?: string | null;
  loginUrl: string;
}): RenderedEmail {
  const t = textsFor(input.language);
  const paragraphs = [t.greeting(input.firstName ?? ''), t.bodies[input.notice], t.notYou];
  return {
    subject: t.subjects[input.notice],
    text: [...paragraphs, `${t.link} ${input.loginUrl}`, `— ${t.signature}`].join('\n\n') + '\n',
    html: emailHtml(input.language, t.signature, [...paragraphs.map(paragraph), labelledLink(t.link, input.loginUrl)]),
  };
}

/** Tells a user of a change to how they sign in (sendSecurityNotice, with its dependencies bound). */
export type SecurityNoticeSender = (userId: string, notice: SecurityNotice) => Promise<void>;

/** Tell the user by e-mail, in their language, of a change to how they sign in. Never fails the change. */
export async function sendSecurityNotice(
  deps: { db: Queryable; mailer: Mailer; config: Pick<Config, 'publicUrl'>; log: Logger },
  userId: string,
  notice: SecurityNotice,
): Promise<void> {
  try {
    const user = await findRecipient(deps.db, userId);
    if (!user) return;
    const message = securityNoticeEmail({
      notice,
      language: user.language_code,
      firstName: user.first_name,
      loginUrl: `${deps.config.publicUrl}/login`,
    });
    await deps.mailer.send({ to: user.email, ...message, kind: `security-notice:${notice}` });
  } catch (err) {
    deps.log.error({ err, notice }, 'security notice could not be sent');
  }
}
