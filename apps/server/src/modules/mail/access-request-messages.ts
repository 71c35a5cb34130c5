import { USER_LANGUAGES, type UserLanguage } from '@partner-portal/contracts';
import { button, emailHtml, linkFallback, paragraph, quotation } from './layout.js';
import { fill, sharedTexts, type RenderedEmail } from './messages.js';

/**
 * The e-mails of access requests (modules/access-requests) in the six user languages, beside
 * messages.ts and in its style (texts as data with `{{name}}` fields, one layout): to the
 * userManagers a request is routed to, to the provider's sales contact, the sign-in reminder to an
 * address that already has an account, and the notice that a request was declined. What the
 * visitor typed (names, message) is text: the layout escapes it in HTML, and names are kept on one
 * line (a subject has no line breaks).
 */
interface AccessRequestTexts {
  managerSubject: string;
  managerIntro: string;
  managerMessage: string;
  managerAction: string;
  managerButton: string;
  salesSubject: string;
  salesIntro: string;
  salesLanguage: string;
  salesAction: string;
  reminderSubject: string;
  reminderIntro: string;
  reminderButton: string;
  reminderForgot: string;
  reminderIgnore: string;
  declineSubject: string;
  declineBody: string;
  declineContact: string;
}

const TEXTS: Record<UserLanguage, AccessRequestTexts> = {
  en: {
    managerSubject: '{{name}} asks for access to the Partner Portal',
    managerIntro:
      '{{name}} ({{email}}) asks for an account on the Partner Portal. The request comes to you as a user manager of {{organizationName}}.',
    managerMessage: 'Their message:',
    managerAction: 'Approve the request to send an invitation, or decline it, on the organization’s page in the Partner Portal.',
    managerButton: 'Review the request',
    salesSubject: 'Request for access to the Partner Portal from {{email}}',
    salesIntro:
      '{{name}} ({{email}}) asks for an account on the Partner Portal. No organization has verified the domain {{domain}}, so the request comes to you.',
    salesLanguage: 'Preferred language: {{language}}',
    salesAction: 'If the request is welcome, invite {{email}} into their organization in the Partner Portal.',
    reminderSubject: 'You already have a Partner Portal account',
    reminderIntro:
      'Someone asked for access to the Partner Portal with this e-mail address. You already have an account: sign in with this address.',
    reminderButton: 'Sign in',
    reminderForgot: 'Forgot your password? Choose “Forgot your password?” on the sign-in page.',
    reminderIgnore: 'If you did not ask for access, you can ignore this e-mail.',
    declineSubject: 'Your request for access to the Partner Portal',
    declineBody: 'Your request for an account on the Partner Portal has been declined.',
    declineContact: 'If you think this is a mistake, please contact the administrator of your organization.',
  },
  nl: {
    managerSubject: '{{name}} vraagt toegang tot het Partner Portal',
    managerIntro:
      '{{name}} ({{email}}) vraagt een account aan op het Partner Portal. Je ontvangt dit verzoek als gebruikersbeheerder van {{organizationName}}.',
    managerMessage: 'Bericht:',
    managerAction:
      'Keur het verzoek goed om een uitnodiging te versturen, of wijs het af, op de pagina van de organisatie in het Partner Portal.',
    managerButton: 'Verzoek bekijken',
    salesSubject: 'Verzoek om toegang tot het Partner Portal van {{email}}',
    salesIntro:
      '{{name}} ({{email}}) vraagt een account aan op het Partner Portal. Geen enkele organisatie heeft het domein {{domain}} geverifieerd, daarom komt het verzoek bij jou.',
    salesLanguage: 'Voorkeurstaal: {{language}}',
    salesAction: 'Is het verzoek welkom, nodig {{email}} dan uit in de eigen organisatie in het Partner Portal.',
    reminderSubject: 'Je hebt al een account voor het Partner Portal',
    reminderIntro:
      'Iemand heeft met dit e-mailadres toegang tot het Partner Portal gevraagd. Je hebt al een account: meld je aan met dit adres.',
    reminderButton: 'Aanmelden',
    reminderForgot: 'Wachtwoord vergeten? Kies „Wachtwoord vergeten?” op de aanmeldpagina.',
    reminderIgnore: 'Heb je geen toegang gevraagd? Dan kun je deze e-mail negeren.',
    declineSubject: 'Je verzoek om toegang tot het Partner Portal',
    declineBody: 'Je verzoek om een account op het Partner Portal is afgewezen.',
    declineContact: 'Denk je dat dit een vergissing is? Neem dan contact op met de beheerder van je organisatie.',
  },
  de: {
    managerSubject: '{{name}} bittet um Zugang zum Partner Portal',
    managerIntro:
      '{{name}} ({{email}}) bittet um ein Konto im Partner Portal. Sie erhalten diese Anfrage als Benutzerverwalter von {{organizationName}}.',
    managerMessage: 'Nachricht:',
    managerAction:
      'Genehmigen Sie die Anfrage, um eine Einladung zu senden, oder lehnen Sie sie ab – auf der Seite der Organisation im Partner Portal.',
    managerButton: 'Anfrage ansehen',
    salesSubject: 'Zugangsanfrage zum Partner Portal von {{email}}',
    salesIntro:
      '{{name}} ({{email}}) bittet um ein Konto im Partner Portal. Keine Organisation hat die Domain {{domain}} verifiziert, daher geht die Anfrage an Sie.',
    salesLanguage: 'Bevorzugte Sprache: {{language}}',
    salesAction: 'Wenn die Anfrage willkommen ist, laden Sie {{email}} in die eigene Organisation im Partner Portal ein.',
    reminderSubject: 'Sie haben bereits ein Partner-Portal-Konto',
    reminderIntro:
      'Jemand hat mit dieser E-Mail-Adresse Zugang zum Partner Portal angefragt. Sie haben bereits ein Konto: Melden Sie sich mit dieser Adresse an.',
    reminderButton: 'Anmelden',
    reminderForgot: 'Passwort vergessen? Wählen Sie auf der Anmeldeseite „Passwort vergessen?“.',
    reminderIgnore: 'Wenn Sie keinen Zugang angefragt haben, können Sie diese E-Mail ignorieren.',
    declineSubject: 'Ihre Anfrage für den Zugang zum Partner Portal',
    declineBody: 'Ihre Anfrage für ein Konto im Partner Portal wurde abgelehnt.',
    declineContact: 'Wenn Sie das für einen Irrtum halten, wenden Sie sich bitte an den Administrator Ihrer Organisation.',
  },
  fr: {
    managerSubject: "{{name}} demande l'accès au Partner Portal",
    managerIntro:
      '{{name}} ({{email}}) demande un compte sur le Partner Portal. Vous recevez cette demande en tant que gestionnaire des utilisateurs de {{organizationName}}.',
    managerMessage: 'Son message :',
    managerAction: "Approuvez la demande pour envoyer une invitation, ou refusez-la, sur la page de l'organisation dans le Partner Portal.",
    managerButton: 'Voir la demande',
    salesSubject: "Demande d'accès au Partner Portal de {{email}}",
    salesIntro:
      "{{name}} ({{email}}) demande un compte sur le Partner Portal. Aucune organisation n'a vérifié le domaine {{domain}} ; la demande vous est donc adressée.",
    salesLanguage: 'Langue préférée : {{language}}',
    salesAction: 'Si la demande est la bienvenue, invitez {{email}} dans son organisation sur le Partner Portal.',
    reminderSubject: 'Vous avez déjà un compte Partner Portal',
    reminderIntro:
      "Quelqu'un a demandé l'accès au Partner Portal avec cette adresse e-mail. Vous avez déjà un compte : connectez-vous avec cette adresse.",
    reminderButton: 'Se connecter',
    reminderForgot: 'Mot de passe oublié ? Choisissez « Mot de passe oublié ? » sur la page de connexion.',
    reminderIgnore: "Si vous n'avez pas demandé d'accès, vous pouvez ignorer cet e-mail.",
    declineSubject: "Votre demande d'accès au Partner Portal",
    declineBody: 'Votre demande de compte sur le Partner Portal a été refusée.',
    declineContact: "Si vous pensez qu'il s'agit d'une erreur, contactez l'administrateur de votre organisation.",
  },
  es: {
    managerSubject: '{{name}} solicita acceso al Partner Portal',
    managerIntro:
      '{{name}} ({{email}}) solicita una cuenta en el Partner Portal. Recibes esta solicitud como gestor de usuarios de {{organizationName}}.',
    managerMessage: 'Su mensaje:',
    managerAction: 'Aprueba la solicitud para enviar una invitación, o recházala, en la página de la organización en el Partner Portal.',
    managerButton: 'Ver la solicitud',
    salesSubject: 'Solicitud de acceso al Partner Portal de {{email}}',
    salesIntro:
      '{{name}} ({{email}}) solicita una cuenta en el Partner Portal. Ninguna organización ha verificado el dominio {{domain}}, por eso la solicitud te llega a ti.',
    salesLanguage: 'Idioma preferido: {{language}}',
    salesAction: 'Si la solicitud es bienvenida, invita a {{email}} a su organización en el Partner Portal.',
    reminderSubject: 'Ya tienes una cuenta del Partner Portal',
    reminderIntro:
      'Alguien ha solicitado acceso al Partner Portal con esta dirección de correo. Ya tienes una cuenta: inicia sesión con esta dirección.',
    reminderButton: 'Iniciar sesión',
    reminderForgot: '¿Has olvidado tu contraseña? Elige «¿Has olvidado tu contraseña?» en la página de inicio de sesión.',
    reminderIgnore: 'Si no has solicitado acceso, puedes ignorar este correo.',
    declineSubject: 'Tu solicitud de acceso al Partner Portal',
    declineBody: 'Tu solicitud de una cuenta en el Partner Portal ha sido rechazada.',
    declineContact: 'Si crees que se trata de un error, ponte en contacto con el administrador de tu organización.',
  },
  'pt-BR': {
    managerSubject: '{{name}} pede acesso ao Partner Portal',
    managerIntro:
      '{{name}} ({{email}}) pede uma conta no Partner Portal. Você recebe este pedido como gestor de usuários de {{organizationName}}.',
    managerMessage: 'Mensagem:',
    managerAction: 'Aprove o pedido para enviar um convite, ou recuse-o, na página da organização no Partner Portal.',
    managerButton: 'Ver o pedido',
    salesSubject: 'Pedido de acesso ao Partner Portal de {{email}}',
    salesIntro:
      '{{name}} ({{email}}) pede uma conta no Partner Portal. Nenhuma organização verificou o domínio {{domain}}, por isso o pedido chegou a você.',
    salesLanguage: 'Idioma preferido: {{language}}',
    salesAction: 'Se o pedido for bem-vindo, convide {{email}} para a organização dele no Partner Portal.',
    reminderSubject: 'Você já tem uma conta do Partner Portal',
    reminderIntro: 'Alguém pediu acesso ao Partner Portal com este endereço de e-mail. Você já tem uma conta: entre com este endereço.',
    reminderButton: 'Entrar',
    reminderForgot: 'Esqueceu sua senha? Escolha “Esqueceu sua senha?” na página de entrada.',
    reminderIgnore: 'Se você não pediu acesso, pode ignorar este e-mail.',
    declineSubject: 'Seu pedido de acesso ao Partner Portal',
    declineBody: 'Seu pedido de uma conta no Partner Portal foi recusado.',
    declineContact: 'Se você acha que isso é um engano, entre em contato com o administrador da sua organização.',
  },
};

/** A visitor's request as the e-mails show it. */
export interface RequesterDetails {
  firstName: string;
  lastName: string;
  email: string;
  message: string | null;
}

/** A block of a message: a paragraph, someone's quoted words, or the message's one action. */
type Block = { p: string } | { quote: string } | { action: string; link: string };

/** Text typed by a visitor, on one line: control characters and line breaks become spaces. */
function oneLine(value: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is removed
  return value.replace(/[\u0000-\u001f\u007f\u2028\u2029]+/g, ' ').trim();
}

function textsFor(language: string): AccessRequestTexts {
  return (USER_LANGUAGES as readonly string[]).includes(language) ? TEXTS[language as UserLanguage] : TEXTS.en;
}

function greeting(language: string, firstName: string | null | undefined): string {
  const shared = sharedTexts(language);
  const name = firstName ? oneLine(firstName) : '';
  return name ? fill(shared.greetingByName, { firstName: name }) : shared.greeting;
}

/** One message from its blocks: plain text and HTML in the one layout, with the action's link written out below. */
function render(language: string, subject: string, blocks: Block[]): RenderedEmail {
  const shared = sharedTexts(language);
  const action = blocks.find((b): b is { action: string; link: string } => 'action' in b);
  const text = blocks.map((b) => ('p' in b ? b.p : 'quote' in b ? b.quote.replace(/^/gm, '> ') : b.link));
  const html = blocks.map((b) => ('p' in b ? paragraph(b.p) : 'quote' in b ? quotation(b.quote) : button(b.action, b.link)));
  return {
    subject,
    text: [...text, `— ${shared.signature}`].join('\n\n') + '\n',
    html: emailHtml(language, shared.signature, action ? [...html, linkFallback(shared.linkFallback, action.link)] : html),
  };
}

/**
 * `fill` for these texts: a value that ends a sentence with its own full stop ("Farmtech B.V.")
 * takes the place of the sentence's, so the sentence does not end with two.
 */
function fillSentence(text: string, vars: Record<string, string>): string {
  return fill(
    text.replace(/\{\{(\w+)\}\}\./g, (field, name: string) => (vars[name]?.endsWith('.') ? `{{${name}}}` : field)),
    vars,
  );
}

function requesterVars(requester: RequesterDetails): Record<string, string> {
  return { name: oneLine(`${requester.firstName} ${requester.lastName}`), email: requester.email };
}

function messageBlocks(t: AccessRequestTexts, message: string | null): Block[] {
  const words = message?.trim();
  return words ? [{ p: t.managerMessage }, { quote: words }] : [];
}

/** To a userManager the request is routed to; link: the organization's "Domains and sign-in", $PUBLIC_URL/manage-organization/{organizationId}#identity. */
export function accessRequestManagerEmail(input: {
  language: string;
  firstName: string | null;
  requester: RequesterDetails;
  organizationName: string;
  link: string;
}): RenderedEmail {
  const t = textsFor(input.language);
  const vars = { ...requesterVars(input.requester), organizationName: input.organizationName };
  return render(input.language, fillSentence(t.managerSubject, vars), [
    { p: greeting(input.language, input.firstName) },
    { p: fillSentence(t.managerIntro, vars) },
    ...messageBlocks(t, input.requester.message),
    { p: t.managerAction },
    { action: t.managerButton, link: input.link },
  ]);
}

/** To the provider's sales contact: a request whose domain no organization has verified. */
export function accessRequestSalesEmail(input: {
  language: string;
  requester: RequesterDetails;
  domain: string;
  requestedLanguage: string;
}): RenderedEmail {
  const t = textsFor(input.language);
  const vars = { ...requesterVars(input.requester), domain: input.domain, language: input.requestedLanguage };
  return render(input.language, fillSentence(t.salesSubject, vars), [
    { p: sharedTexts(input.language).greeting },
    { p: fillSentence(t.salesIntro, vars) },
    ...messageBlocks(t, input.requester.message),
    { p: fillSentence(t.salesLanguage, vars) },
    { p: fillSentence(t.salesAction, vars) },
  ]);
}

/** To an address that already has an account: how to sign in; link: $PUBLIC_URL/login. */
export function accessRequestReminderEmail(input: { language: string; firstName: string | null; link: string }): RenderedEmail {
  const t = textsFor(input.language);
  return render(input.language, t.reminderSubject, [
    { p: greeting(input.language, input.firstName) },
    { p: t.reminderIntro },
    { action: t.reminderButton, link: input.link },
    { p: t.reminderForgot },
    { p: t.reminderIgnore },
  ]);
}

/** To the visitor whose request a userManager declined. */
export function accessRequestDeclinedEmail(input: { language: string; firstName: string | null }): RenderedEmail {
  const t = textsFor(input.language);
  return render(input.language, t.declineSubject, [
    { p: greeting(input.language, input.firstName) },
    { p: t.declineBody },
    { p: t.declineContact },
  ]);
}
