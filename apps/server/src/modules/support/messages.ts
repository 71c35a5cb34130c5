import { USER_LANGUAGES, type UserLanguage } from '@partner-portal/contracts';
import { emailHtml, paragraph, quotation } from '../mail/layout.js';
import { fill, sharedTexts, type RenderedEmail } from '../mail/messages.js';

/**
 * The e-mail a member receives when a support session as them starts (modules/support), in the
 * six user languages, in the style of mail/messages.ts (texts as data with `{{name}}` fields, the
 * one layout). The supporter's reason is their own words: quoted, escaped by the layout.
 */
interface SupportTexts {
  subject: string;
  intro: string;
  reason: string;
  limits: string;
  question: string;
}

const TEXTS: Record<UserLanguage, SupportTexts> = {
  en: {
    subject: '{{supporter}} is signed in to the Partner Portal as you for support',
    intro: '{{supporter}} ({{supporterEmail}}) has started a support session as you in the Partner Portal, for {{minutes}} minutes.',
    reason: 'The reason they gave:',
    limits:
      'During the session they see what you see and may act as you; they cannot change your password, second factors or sessions, nor make credentials. Every action is recorded in the audit trail, and your profile lists the session.',
    question: 'If you did not expect this, contact your organization’s administrator.',
  },
  nl: {
    subject: '{{supporter}} is voor ondersteuning als jou aangemeld bij het Partner Portal',
    intro:
      '{{supporter}} ({{supporterEmail}}) is een ondersteuningssessie als jou gestart in het Partner Portal, voor {{minutes}} minuten.',
    reason: 'De opgegeven reden:',
    limits:
      'Tijdens de sessie ziet deze persoon wat jij ziet en kan als jou handelen, maar kan je wachtwoord, tweede factoren en sessies niet wijzigen en geen inloggegevens aanmaken. Elke handeling wordt vastgelegd in het auditlogboek, en je profiel toont de sessie.',
    question: 'Had je dit niet verwacht? Neem dan contact op met de beheerder van je organisatie.',
  },
  de: {
    subject: '{{supporter}} ist für den Support als Sie im Partner Portal angemeldet',
    intro: '{{supporter}} ({{supporterEmail}}) hat im Partner Portal eine Support-Sitzung als Sie gestartet, für {{minutes}} Minuten.',
    reason: 'Der angegebene Grund:',
    limits:
      'Während der Sitzung sieht diese Person, was Sie sehen, und kann als Sie handeln; Ihr Passwort, Ihre zweiten Faktoren und Sitzungen kann sie nicht ändern und keine Zugangsdaten anlegen. Jede Aktion wird im Prüfprotokoll festgehalten, und Ihr Profil zeigt die Sitzung.',
    question: 'Wenn Sie das nicht erwartet haben, wenden Sie sich an die Administration Ihrer Organisation.',
  },
  fr: {
    subject: '{{supporter}} est connecté au Partner Portal en votre nom pour l’assistance',
    intro:
      '{{supporter}} ({{supporterEmail}}) a ouvert une session d’assistance en votre nom sur le Partner Portal, pour {{minutes}} minutes.',
    reason: 'Le motif indiqué :',
    limits:
      'Pendant la session, cette personne voit ce que vous voyez et peut agir en votre nom ; elle ne peut pas modifier votre mot de passe, vos seconds facteurs ni vos sessions, ni créer d’identifiants. Chaque action est consignée dans le journal d’audit, et votre profil affiche la session.',
    question: 'Si vous ne vous y attendiez pas, contactez l’administrateur de votre organisation.',
  },
  es: {
    subject: '{{supporter}} ha iniciado sesión en el Partner Portal como usted para darle soporte',
    intro:
      '{{supporter}} ({{supporterEmail}}) ha iniciado una sesión de soporte como usted en el Partner Portal, durante {{minutes}} minutos.',
    reason: 'El motivo indicado:',
    limits:
      'Durante la sesión ve lo que usted ve y puede actuar como usted; no puede cambiar su contraseña, sus segundos factores ni sus sesiones, ni crear credenciales. Cada acción queda registrada en el registro de auditoría, y su perfil muestra la sesión.',
    question: 'Si no lo esperaba, póngase en contacto con el administrador de su organización.',
  },
  'pt-BR': {
    subject: '{{supporter}} entrou no Partner Portal como você para prestar suporte',
    intro: '{{supporter}} ({{supporterEmail}}) iniciou uma sessão de suporte como você no Partner Portal, por {{minutes}} minutos.',
    reason: 'O motivo informado:',
    limits:
      'Durante a sessão, essa pessoa vê o que você vê e pode agir como você; não pode alterar sua senha, seus segundos fatores nem suas sessões, nem criar credenciais. Cada ação fica registrada na trilha de auditoria, e seu perfil mostra a sessão.',
    question: 'Se você não esperava isso, entre em contato com o administrador da sua organização.',
  },
};

function textsFor(language: string): SupportTexts {
  return (USER_LANGUAGES as readonly string[]).includes(language) ? TEXTS[language as UserLanguage] : TEXTS.en;
}

/** A name on one line (a subject has no line breaks). */
function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** To the member, as a support session as them starts. */
export function supportSessionStartedEmail(input: {
  language: string;
  firstName: string | null;
  supporterName: string;
  supporterEmail: string;
  minutes: number;
  reason: string;
}): RenderedEmail {
  const t = textsFor(input.language);
  const shared = sharedTexts(input.language);
  const vars = { supporter: oneLine(input.supporterName), supporterEmail: input.supporterEmail, minutes: String(input.minutes) };
  const hello = input.firstName ? fill(shared.greetingByName, { firstName: oneLine(input.firstName) }) : shared.greeting;
  const intro = fill(t.intro, vars);
  return {
    subject: fill(t.subject, vars),
    text: [hello, intro, t.reason, input.reason.replace(/^/gm, '> '), t.limits, t.question, `— ${shared.signature}`].join('\n\n') + '\n',
    html: emailHtml(input.language, shared.signature, [
      paragraph(hello),
      paragraph(intro),
      paragraph(t.reason),
      quotation(input.reason),
      paragraph(t.limits),
      paragraph(t.question),
    ]),
  };
}
