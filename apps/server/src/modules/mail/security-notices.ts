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
export type SecurityNotice =
  | 'factor-added'
  | 'factor-removed'
  | 'password-changed'
  | 'factors-reset'
  /** a single sign-on connection now signs the user in, moved to another provider, or no longer signs them in ({connection}: its name) */
  | 'sso-connected'
  | 'sso-provider-changed'
  | 'sso-disconnected';

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
      'sso-connected': 'Your Partner Portal account now signs in through {connection}',
      'sso-provider-changed': 'How you sign in to the Partner Portal changed',
      'sso-disconnected': 'Your Partner Portal account no longer signs in through {connection}',
    },
    bodies: {
      'factor-added': 'An authenticator app was just set up as a second factor for signing in to your account.',
      'factor-removed': 'An authenticator app was just removed from the second factors of your account.',
      'password-changed': 'The password of your account was just changed.',
      'factors-reset':
        'An administrator of your organization just removed all second factors of your account. At your next sign-in you may be asked to set up a new one.',
      'sso-connected':
        "From now on you sign in to the Partner Portal through your organization's identity provider “{connection}” instead of with a password: type your e-mail address at the sign-in and you are taken there.",
      'sso-provider-changed':
        'The identity provider “{connection}” through which you sign in to the Partner Portal was changed by a manager of your organization. You may be asked to sign in there again.',
      'sso-disconnected':
        'The identity provider “{connection}” no longer signs you in to the Partner Portal. Choose a password with “Forgot password” on the sign-in page, or ask a manager of your organization.',
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
      'sso-connected': 'Je Partner Portal-account meldt zich nu aan via {connection}',
      'sso-provider-changed': 'Je manier van aanmelden bij het Partner Portal is gewijzigd',
      'sso-disconnected': 'Je Partner Portal-account meldt zich niet meer aan via {connection}',
    },
    bodies: {
      'factor-added': 'Er is zojuist een authenticator-app ingesteld als tweede factor om je aan te melden bij je account.',
      'factor-removed': 'Er is zojuist een authenticator-app verwijderd uit de tweede factoren van je account.',
      'password-changed': 'Het wachtwoord van je account is zojuist gewijzigd.',
      'factors-reset':
        'Een beheerder van je organisatie heeft zojuist alle tweede factoren van je account verwijderd. Bij je volgende aanmelding kan je worden gevraagd een nieuwe in te stellen.',
      'sso-connected':
        'Voortaan meld je je bij het Partner Portal aan via de identiteitsprovider “{connection}” van je organisatie in plaats van met een wachtwoord: typ je e-mailadres bij het aanmelden en je wordt erheen gestuurd.',
      'sso-provider-changed':
        'Een beheerder van je organisatie heeft de identiteitsprovider “{connection}” gewijzigd waarmee je je bij het Partner Portal aanmeldt. Mogelijk moet je je daar opnieuw aanmelden.',
      'sso-disconnected':
        'De identiteitsprovider “{connection}” meldt je niet meer aan bij het Partner Portal. Kies een wachtwoord via “Wachtwoord vergeten” op de aanmeldpagina, of vraag het een beheerder van je organisatie.',
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
      'sso-connected': 'Ihr Partner-Portal-Konto meldet sich jetzt über {connection} an',
      'sso-provider-changed': 'Ihre Anmeldung beim Partner Portal wurde geändert',
      'sso-disconnected': 'Ihr Partner-Portal-Konto meldet sich nicht mehr über {connection} an',
    },
    bodies: {
      'factor-added': 'Soeben wurde eine Authenticator-App als zweiter Faktor für die Anmeldung an Ihrem Konto eingerichtet.',
      'factor-removed': 'Soeben wurde eine Authenticator-App aus den zweiten Faktoren Ihres Kontos entfernt.',
      'password-changed': 'Das Passwort Ihres Kontos wurde soeben geändert.',
      'factors-reset':
        'Ein Administrator Ihrer Organisation hat soeben alle zweiten Faktoren Ihres Kontos entfernt. Bei Ihrer nächsten Anmeldung werden Sie möglicherweise gebeten, einen neuen einzurichten.',
      'sso-connected':
        'Ab jetzt melden Sie sich beim Partner Portal über den Identitätsanbieter „{connection}“ Ihrer Organisation an statt mit einem Passwort: Geben Sie bei der Anmeldung Ihre E-Mail-Adresse ein, und Sie werden dorthin weitergeleitet.',
      'sso-provider-changed':
        'Ein Manager Ihrer Organisation hat den Identitätsanbieter „{connection}“ geändert, über den Sie sich beim Partner Portal anmelden. Möglicherweise müssen Sie sich dort erneut anmelden.',
      'sso-disconnected':
        'Der Identitätsanbieter „{connection}“ meldet Sie nicht mehr beim Partner Portal an. Wählen Sie auf der Anmeldeseite mit „Passwort vergessen“ ein Passwort, oder wenden Sie sich an einen Manager Ihrer Organisation.',
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
      'sso-connected': 'Votre compte Partner Portal se connecte désormais via {connection}',
      'sso-provider-changed': 'Votre façon de vous connecter au Partner Portal a changé',
      'sso-disconnected': 'Votre compte Partner Portal ne se connecte plus via {connection}',
    },
    bodies: {
      'factor-added': "Une application d'authentification vient d'être configurée comme second facteur de connexion à votre compte.",
      'factor-removed': "Une application d'authentification vient d'être retirée des seconds facteurs de votre compte.",
      'password-changed': "Le mot de passe de votre compte vient d'être modifié.",
      'factors-reset':
        "Un administrateur de votre organisation vient de supprimer tous les seconds facteurs de votre compte. À votre prochaine connexion, il pourra vous être demandé d'en configurer un nouveau.",
      'sso-connected':
        "Désormais, vous vous connectez au Partner Portal via le fournisseur d'identité « {connection} » de votre organisation au lieu d'un mot de passe : saisissez votre adresse e-mail à la connexion et vous y serez redirigé.",
      'sso-provider-changed':
        "Un responsable de votre organisation a modifié le fournisseur d'identité « {connection} » par lequel vous vous connectez au Partner Portal. Il pourra vous être demandé de vous y reconnecter.",
      'sso-disconnected':
        "Le fournisseur d'identité « {connection} » ne vous connecte plus au Partner Portal. Choisissez un mot de passe avec « Mot de passe oublié » sur la page de connexion, ou adressez-vous à un responsable de votre organisation.",
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
      'sso-connected': 'Tu cuenta de Partner Portal inicia sesión ahora a través de {connection}',
      'sso-provider-changed': 'Ha cambiado cómo inicias sesión en el Partner Portal',
      'sso-disconnected': 'Tu cuenta de Partner Portal ya no inicia sesión a través de {connection}',
    },
    bodies: {
      'factor-added': 'Se acaba de configurar una aplicación de autenticación como segundo factor para iniciar sesión en tu cuenta.',
      'factor-removed': 'Se acaba de quitar una aplicación de autenticación de los segundos factores de tu cuenta.',
      'password-changed': 'Se acaba de cambiar la contraseña de tu cuenta.',
      'factors-reset':
        'Un administrador de tu organización acaba de quitar todos los segundos factores de tu cuenta. En tu próximo inicio de sesión puede que se te pida configurar uno nuevo.',
      'sso-connected':
        'A partir de ahora inicias sesión en el Partner Portal a través del proveedor de identidad «{connection}» de tu organización en lugar de con una contraseña: escribe tu dirección de correo al iniciar sesión y se te llevará allí.',
      'sso-provider-changed':
        'Un responsable de tu organización ha cambiado el proveedor de identidad «{connection}» con el que inicias sesión en el Partner Portal. Puede que se te pida volver a iniciar sesión allí.',
      'sso-disconnected':
        'El proveedor de identidad «{connection}» ya no te inicia sesión en el Partner Portal. Elige una contraseña con «He olvidado mi contraseña» en la página de inicio de sesión o pregunta a un responsable de tu organización.',
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
      'sso-connected': 'Sua conta do Partner Portal agora entra por {connection}',
      'sso-provider-changed': 'A forma como você entra no Partner Portal mudou',
      'sso-disconnected': 'Sua conta do Partner Portal não entra mais por {connection}',
    },
    bodies: {
      'factor-added': 'Um aplicativo autenticador acabou de ser configurado como segundo fator para entrar na sua conta.',
      'factor-removed': 'Um aplicativo autenticador acabou de ser removido dos segundos fatores da sua conta.',
      'password-changed': 'A senha da sua conta acabou de ser alterada.',
      'factors-reset':
        'Um administrador da sua organização acabou de remover todos os segundos fatores da sua conta. No seu próximo acesso, talvez seja solicitado que você configure um novo.',
      'sso-connected':
        'A partir de agora você entra no Partner Portal pelo provedor de identidade “{connection}” da sua organização em vez de usar uma senha: digite seu endereço de e-mail ao entrar e você será levado até lá.',
      'sso-provider-changed':
        'Um gestor da sua organização alterou o provedor de identidade “{connection}” pelo qual você entra no Partner Portal. Talvez seja solicitado que você entre lá novamente.',
      'sso-disconnected':
        'O provedor de identidade “{connection}” não faz mais o seu acesso ao Partner Portal. Escolha uma senha com “Esqueci minha senha” na página de acesso ou fale com um gestor da sua organização.',
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
  /** the name filled in for {connection} */
  connection?: string;
}): RenderedEmail {
  const t = textsFor(input.language);
  const filled = (text: string) => text.replaceAll('{connection}', input.connection ?? '');
  const paragraphs = [t.greeting(input.firstName ?? ''), filled(t.bodies[input.notice]), t.notYou];
  return {
    subject: filled(t.subjects[input.notice]),
    text: [...paragraphs, `${t.link} ${input.loginUrl}`, `— ${t.signature}`].join('\n\n') + '\n',
    html: emailHtml(input.language, t.signature, [...paragraphs.map(paragraph), labelledLink(t.link, input.loginUrl)]),
  };
}

/** Tells a user of a change to how they sign in, in the change's transaction (sendSecurityNotice, with its dependencies bound). */
export type SecurityNoticeSender = (userId: string, notice: SecurityNotice, tx: Queryable) => Promise<void>;

/**
 * Tell the user by e-mail, in their language, of a change to how they sign in. With `tx`, the
 * transaction of the change, the e-mail is written to the mail outbox in it and a failure fails the
 * change (a failed statement has broken the transaction anyway). Without it the e-mail is written
 * on its own and a failure is logged: it never fails the change.
 */
export async function sendSecurityNotice(
  deps: { db: Queryable; mailer: Mailer; config: Pick<Config, 'publicUrl'>; log: Logger },
  userId: string,
  notice: SecurityNotice,
  connection?: string,
  tx?: Queryable,
): Promise<void> {
  try {
    const user = await findRecipient(tx ?? deps.db, userId);
    if (!user) return;
    const message = securityNoticeEmail({
      notice,
      language: user.language_code,
      firstName: user.first_name,
      loginUrl: `${deps.config.publicUrl}/login`,
      ...(connection === undefined ? {} : { connection }),
    });
    await deps.mailer.enqueue({ to: user.email, ...message, kind: `security-notice:${notice}` }, tx ? { tx } : {});
  } catch (err) {
    if (tx) throw err;
    deps.log.error({ err, notice }, 'security notice could not be sent');
  }
}
