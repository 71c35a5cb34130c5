import { USER_LANGUAGES, type UserLanguage } from '@partner-portal/contracts';
import { button, emailHtml, linkFallback, paragraph } from './layout.js';

/**
 * The e-mails of the portal in the six user languages (docs/product.md: the recipient's language,
 * multipart text and HTML). Pure functions: the caller sends the result with the mailer.
 */
export interface RenderedEmail {
  subject: string;
  text: string;
  html: string;
}

/**
 * The texts of one language, as data: `{{name}}` marks where fill() puts a value in. `greeting`
 * opens a message to someone whose first name is unknown, `greetingByName` one to `{{firstName}}`.
 */
interface Texts {
  greeting: string;
  greetingByName: string;
  resetSubject: string;
  resetIntro: string;
  resetButton: string;
  resetExpiry: string;
  resetIgnore: string;
  inviteSubject: string;
  inviteIntro: string;
  inviteIntroExternal: string;
  inviteButton: string;
  inviteExpiry: string;
  linkFallback: string;
  signature: string;
}

const TEXTS: Record<UserLanguage, Texts> = {
  en: {
    greeting: 'Hello,',
    greetingByName: 'Dear {{firstName}},',
    resetSubject: 'Reset your Partner Portal password',
    resetIntro: 'We received a request to reset the password of your Partner Portal account.',
    resetButton: 'Choose a new password',
    resetExpiry: 'This link works once and expires in one hour.',
    resetIgnore: 'If you did not ask for this, you can ignore this e-mail; your password stays as it is.',
    inviteSubject: 'You are invited to the Partner Portal of {{organizationName}}',
    inviteIntro:
      '{{inviterName}} invites you to join {{organizationName}} on the Partner Portal: all relevant applications for partners and dealers in one place.',
    inviteIntroExternal: 'You will sign in with your company account.',
    inviteButton: 'Accept the invitation',
    inviteExpiry: 'The invitation expires after two weeks. If it has expired, ask your administrator to send it again.',
    linkFallback: 'If the button does not work, copy this link into your browser:',
    signature: 'Partner Portal',
  },
  nl: {
    greeting: 'Hallo,',
    greetingByName: 'Beste {{firstName}},',
    resetSubject: 'Stel je wachtwoord voor het Partner Portal opnieuw in',
    resetIntro: 'We hebben een verzoek ontvangen om het wachtwoord van je Partner Portal-account opnieuw in te stellen.',
    resetButton: 'Kies een nieuw wachtwoord',
    resetExpiry: 'Deze link werkt één keer en verloopt na één uur.',
    resetIgnore: 'Heb je dit niet aangevraagd? Dan kun je deze e-mail negeren; je wachtwoord blijft ongewijzigd.',
    inviteSubject: 'Je bent uitgenodigd voor het Partner Portal van {{organizationName}}',
    inviteIntro:
      '{{inviterName}} nodigt je uit om lid te worden van {{organizationName}} op het Partner Portal: alle relevante applicaties voor partners en dealers op één plek.',
    inviteIntroExternal: 'Je meldt je aan met je bedrijfsaccount.',
    inviteButton: 'Uitnodiging accepteren',
    inviteExpiry: 'De uitnodiging verloopt na twee weken. Is hij verlopen, vraag je beheerder dan om hem opnieuw te versturen.',
    linkFallback: 'Werkt de knop niet? Kopieer dan deze link naar je browser:',
    signature: 'Partner Portal',
  },
  de: {
    greeting: 'Guten Tag,',
    greetingByName: 'Hallo {{firstName}},',
    resetSubject: 'Setzen Sie Ihr Partner-Portal-Passwort zurück',
    resetIntro: 'Wir haben eine Anfrage erhalten, das Passwort Ihres Partner-Portal-Kontos zurückzusetzen.',
    resetButton: 'Neues Passwort wählen',
    resetExpiry: 'Dieser Link funktioniert einmal und läuft nach einer Stunde ab.',
    resetIgnore: 'Wenn Sie das nicht angefordert haben, können Sie diese E-Mail ignorieren; Ihr Passwort bleibt unverändert.',
    inviteSubject: 'Sie sind zum Partner Portal von {{organizationName}} eingeladen',
    inviteIntro:
      '{{inviterName}} lädt Sie ein, {{organizationName}} im Partner Portal beizutreten: alle relevanten Anwendungen für Partner und Händler an einem Ort.',
    inviteIntroExternal: 'Sie melden sich mit Ihrem Firmenkonto an.',
    inviteButton: 'Einladung annehmen',
    inviteExpiry: 'Die Einladung läuft nach zwei Wochen ab. Ist sie abgelaufen, bitten Sie Ihren Administrator, sie erneut zu senden.',
    linkFallback: 'Falls die Schaltfläche nicht funktioniert, kopieren Sie diesen Link in Ihren Browser:',
    signature: 'Partner Portal',
  },
  fr: {
    greeting: 'Bonjour,',
    greetingByName: 'Bonjour {{firstName}},',
    resetSubject: 'Réinitialisez votre mot de passe du Partner Portal',
    resetIntro: 'Nous avons reçu une demande de réinitialisation du mot de passe de votre compte Partner Portal.',
    resetButton: 'Choisir un nouveau mot de passe',
    resetExpiry: "Ce lien ne fonctionne qu'une fois et expire dans une heure.",
    resetIgnore: "Si vous n'êtes pas à l'origine de cette demande, ignorez cet e-mail ; votre mot de passe reste inchangé.",
    inviteSubject: 'Vous êtes invité(e) au Partner Portal de {{organizationName}}',
    inviteIntro:
      '{{inviterName}} vous invite à rejoindre {{organizationName}} sur le Partner Portal : toutes les applications utiles aux partenaires et revendeurs, au même endroit.',
    inviteIntroExternal: 'Vous vous connecterez avec votre compte professionnel.',
    inviteButton: "Accepter l'invitation",
    inviteExpiry: "L'invitation expire au bout de deux semaines. Si elle a expiré, demandez à votre administrateur de la renvoyer.",
    linkFallback: 'Si le bouton ne fonctionne pas, copiez ce lien dans votre navigateur :',
    signature: 'Partner Portal',
  },
  es: {
    greeting: 'Hola:',
    greetingByName: 'Hola {{firstName}}:',
    resetSubject: 'Restablece tu contraseña del Partner Portal',
    resetIntro: 'Hemos recibido una solicitud para restablecer la contraseña de tu cuenta del Partner Portal.',
    resetButton: 'Elegir una contraseña nueva',
    resetExpiry: 'Este enlace funciona una sola vez y caduca en una hora.',
    resetIgnore: 'Si no lo has solicitado, puedes ignorar este correo; tu contraseña no cambiará.',
    inviteSubject: 'Te han invitado al Partner Portal de {{organizationName}}',
    inviteIntro:
      '{{inviterName}} te invita a unirte a {{organizationName}} en el Partner Portal: todas las aplicaciones relevantes para socios y distribuidores en un solo lugar.',
    inviteIntroExternal: 'Iniciarás sesión con tu cuenta de empresa.',
    inviteButton: 'Aceptar la invitación',
    inviteExpiry: 'La invitación caduca a las dos semanas. Si ha caducado, pide a tu administrador que la vuelva a enviar.',
    linkFallback: 'Si el botón no funciona, copia este enlace en tu navegador:',
    signature: 'Partner Portal',
  },
  'pt-BR': {
    greeting: 'Olá,',
    greetingByName: 'Olá, {{firstName}},',
    resetSubject: 'Redefina sua senha do Partner Portal',
    resetIntro: 'Recebemos uma solicitação para redefinir a senha da sua conta do Partner Portal.',
    resetButton: 'Escolher uma nova senha',
    resetExpiry: 'Este link funciona uma única vez e expira em uma hora.',
    resetIgnore: 'Se você não fez essa solicitação, pode ignorar este e-mail; sua senha continua a mesma.',
    inviteSubject: 'Você foi convidado para o Partner Portal de {{organizationName}}',
    inviteIntro:
      '{{inviterName}} convida você a participar de {{organizationName}} no Partner Portal: todos os aplicativos relevantes para parceiros e revendedores em um só lugar.',
    inviteIntroExternal: 'Você vai entrar com a conta da sua empresa.',
    inviteButton: 'Aceitar o convite',
    inviteExpiry: 'O convite expira após duas semanas. Se ele tiver expirado, peça ao seu administrador que o envie novamente.',
    linkFallback: 'Se o botão não funcionar, copie este link no seu navegador:',
    signature: 'Partner Portal',
  },
};

/** `text` with each `{{name}}` replaced by `vars[name]`. */
export function fill(text: string, vars: Record<string, string>): string {
  return text.replace(/\{\{(\w+)\}\}/g, (field, name: string) => vars[name] ?? field);
}

function textsFor(language: string): Texts {
  return (USER_LANGUAGES as readonly string[]).includes(language) ? TEXTS[language as UserLanguage] : TEXTS.en;
}

function layout(
  language: string,
  paragraphsBefore: string[],
  action: { label: string; link: string },
  paragraphsAfter: string[],
  t: Texts,
): string {
  return emailHtml(language, t.signature, [
    ...paragraphsBefore.map(paragraph),
    button(action.label, action.link),
    ...paragraphsAfter.map(paragraph),
    linkFallback(t.linkFallback, action.link),
  ]);
}

function plain(paragraphs: string[], link: string, t: Texts, after: string[]): string {
  return [...paragraphs, link, ...after, `— ${t.signature}`].join('\n\n') + '\n';
}

/** The password reset e-mail; link: $PUBLIC_URL/reset-password?userId={userId}&code={code}. */
export function passwordResetEmail(input: { language: string; link: string; firstName?: string | null }): RenderedEmail {
  const t = textsFor(input.language);
  const greeting = input.firstName ? fill(t.greetingByName, { firstName: input.firstName }) : t.greeting;
  const before = [greeting, t.resetIntro];
  const after = [t.resetExpiry, t.resetIgnore];
  return {
    subject: t.resetSubject,
    text: plain(before, input.link, t, after),
    html: layout(input.language, before, { label: t.resetButton, link: input.link }, after, t),
  };
}

/**
 * The invitation e-mail; link: $PUBLIC_URL/invitation/{invitationId}?code={code}, or
 * $PUBLIC_URL/invitation-external-identity/{invitationId}?code={code} for external identities.
 */
export function invitationEmail(input: {
  language: string;
  link: string;
  organizationName: string;
  inviterName: string;
  isExternal: boolean;
}): RenderedEmail {
  const t = textsFor(input.language);
  const vars = { organizationName: input.organizationName, inviterName: input.inviterName };
  const before = [t.greeting, fill(t.inviteIntro, vars), ...(input.isExternal ? [t.inviteIntroExternal] : [])];
  const after = [t.inviteExpiry];
  return {
    subject: fill(t.inviteSubject, vars),
    text: plain(before, input.link, t, after),
    html: layout(input.language, before, { label: t.inviteButton, link: input.link }, after, t),
  };
}

// ---- shared with the other messages of this module (access-request-messages.ts) ----------------

/** The words every message in `language` shares (English for a language the portal does not speak). */
export function sharedTexts(language: string): Pick<Texts, 'greeting' | 'greetingByName' | 'linkFallback' | 'signature'> {
  return textsFor(language);
}

// ---- verified domains (modules/domains/recheck.ts) ----------------------------------------------

/** The e-mail to an organization's organizationManagers when a verified domain has lost its verification. */
interface DomainTexts {
  unverifiedSubject: string;
  unverifiedIntro: string;
  unverifiedSignIn: string;
  unverifiedAction: string;
  unverifiedButton: string;
}

const DOMAIN_TEXTS: Record<UserLanguage, DomainTexts> = {
  en: {
    unverifiedSubject: '{{domain}} is no longer verified for {{organizationName}}',
    unverifiedIntro:
      'The Partner Portal no longer finds the TXT record at {{recordName}} that proves {{organizationName}} controls {{domain}}, so the domain has lost its verification.',
    unverifiedSignIn:
      'Signing in through the single sign-on connections that use {{domain}} has stopped until the domain is verified again.',
    unverifiedAction: 'Publish the record again, then choose Verify beside the domain on the organization’s page.',
    unverifiedButton: 'Open the organization',
  },
  nl: {
    unverifiedSubject: '{{domain}} is niet langer geverifieerd voor {{organizationName}}',
    unverifiedIntro:
      'Het Partner Portal vindt het TXT-record op {{recordName}} niet meer, dat aantoont dat {{organizationName}} {{domain}} beheert. Daardoor is het domein niet langer geverifieerd.',
    unverifiedSignIn:
      'Aanmelden via de single sign-on-koppelingen die {{domain}} gebruiken, werkt niet meer totdat het domein opnieuw is geverifieerd.',
    unverifiedAction: 'Publiceer het record opnieuw en kies daarna Verifiëren naast het domein op de pagina van de organisatie.',
    unverifiedButton: 'Organisatie openen',
  },
  de: {
    unverifiedSubject: '{{domain}} ist für {{organizationName}} nicht mehr verifiziert',
    unverifiedIntro:
      'Das Partner Portal findet den TXT-Eintrag unter {{recordName}} nicht mehr, der belegt, dass {{organizationName}} über {{domain}} verfügt. Die Domain ist daher nicht mehr verifiziert.',
    unverifiedSignIn:
      'Die Anmeldung über die Single-Sign-on-Verbindungen, die {{domain}} verwenden, ist gestoppt, bis die Domain wieder verifiziert ist.',
    unverifiedAction:
      'Veröffentlichen Sie den Eintrag erneut und wählen Sie dann auf der Seite der Organisation neben der Domain „Verifizieren“.',
    unverifiedButton: 'Organisation öffnen',
  },
  fr: {
    unverifiedSubject: "{{domain}} n'est plus vérifié pour {{organizationName}}",
    unverifiedIntro:
      "Le Partner Portal ne trouve plus l'enregistrement TXT {{recordName}} qui prouve que {{organizationName}} contrôle {{domain}} : le domaine a perdu sa vérification.",
    unverifiedSignIn:
      "La connexion par les connexions d'authentification unique qui utilisent {{domain}} est suspendue jusqu'à ce que le domaine soit de nouveau vérifié.",
    unverifiedAction: "Publiez de nouveau l'enregistrement, puis choisissez Vérifier à côté du domaine sur la page de l'organisation.",
    unverifiedButton: "Ouvrir l'organisation",
  },
  es: {
    unverifiedSubject: '{{domain}} ya no está verificado para {{organizationName}}',
    unverifiedIntro:
      'El Partner Portal ya no encuentra el registro TXT en {{recordName}} que demuestra que {{organizationName}} controla {{domain}}, así que el dominio ha perdido su verificación.',
    unverifiedSignIn:
      'El inicio de sesión mediante las conexiones de inicio de sesión único que usan {{domain}} se ha detenido hasta que el dominio se verifique de nuevo.',
    unverifiedAction: 'Vuelve a publicar el registro y elige Verificar junto al dominio en la página de la organización.',
    unverifiedButton: 'Abrir la organización',
  },
  'pt-BR': {
    unverifiedSubject: '{{domain}} não está mais verificado para {{organizationName}}',
    unverifiedIntro:
      'O Partner Portal não encontra mais o registro TXT em {{recordName}} que comprova que {{organizationName}} controla {{domain}}; por isso o domínio perdeu a verificação.',
    unverifiedSignIn:
      'O login pelas conexões de login único que usam {{domain}} foi interrompido até que o domínio seja verificado novamente.',
    unverifiedAction: 'Publique o registro novamente e escolha Verificar ao lado do domínio na página da organização.',
    unverifiedButton: 'Abrir a organização',
  },
};

/** A verified domain lost its verification; link: $PUBLIC_URL/manage-organization/{organizationId}#identity, its "Domains and sign-in". */
export function domainUnverifiedEmail(input: {
  language: string;
  link: string;
  domain: string;
  recordName: string;
  organizationName: string;
  firstName?: string | null;
}): RenderedEmail {
  const t = textsFor(input.language);
  const d = (USER_LANGUAGES as readonly string[]).includes(input.language) ? DOMAIN_TEXTS[input.language as UserLanguage] : DOMAIN_TEXTS.en;
  const vars = { domain: input.domain, recordName: input.recordName, organizationName: input.organizationName };
  const greeting = input.firstName ? fill(t.greetingByName, { firstName: input.firstName }) : t.greeting;
  const before = [greeting, fill(d.unverifiedIntro, vars), fill(d.unverifiedSignIn, vars), d.unverifiedAction];
  return {
    subject: fill(d.unverifiedSubject, vars),
    text: plain(before, input.link, t, []),
    html: layout(input.language, before, { label: d.unverifiedButton, link: input.link }, [], t),
  };
}

// ---- single sign-on (modules/sso) -----------------------------------------------------------------

/** The texts of the notice that a single sign-on connection was added, in one language. */
interface SsoTexts {
  subject: string;
  intro: string;
  effect: string;
  check: string;
  button: string;
  changedSubject: string;
  changedIntro: string;
  removedSubject: string;
  removedIntro: string;
  membersTold: string;
}

const SSO_TEXTS: Record<UserLanguage, SsoTexts> = {
  en: {
    subject: 'A single sign-on connection was added to {{organizationName}}',
    intro: '{{actorName}} connected the identity provider “{{connectionName}}” ({{issuer}}) to {{organizationName}} on the Partner Portal.',
    effect:
      'People of {{organizationName}} and its sub-organizations with an address of {{domains}} now sign in there instead of with a password.',
    check: 'If you did not expect this, review the connection in the organization’s settings.',
    button: 'Open the organization',
    changedSubject: 'The single sign-on connection “{{connectionName}}” of {{organizationName}} was changed',
    changedIntro:
      '{{actorName}} changed the identity provider connection “{{connectionName}}” ({{issuer}}) of {{organizationName}} on the Partner Portal.',
    removedSubject: 'The single sign-on connection “{{connectionName}}” of {{organizationName}} was switched off or removed',
    removedIntro:
      '{{actorName}} switched off or removed the identity provider connection “{{connectionName}}” ({{issuer}}) of {{organizationName}} on the Partner Portal. Addresses of {{domains}} sign in with a password again.',
    membersTold: 'Each member whose way of signing in changed has been told by e-mail.',
  },
  nl: {
    subject: 'Er is een single sign-on-koppeling toegevoegd aan {{organizationName}}',
    intro:
      '{{actorName}} heeft de identiteitsprovider “{{connectionName}}” ({{issuer}}) gekoppeld aan {{organizationName}} op het Partner Portal.',
    effect:
      'Mensen van {{organizationName}} en de suborganisaties met een adres van {{domains}} melden zich voortaan daar aan in plaats van met een wachtwoord.',
    check: 'Had je dit niet verwacht? Controleer de koppeling dan in de instellingen van de organisatie.',
    button: 'Organisatie openen',
    changedSubject: 'De single sign-on-koppeling “{{connectionName}}” van {{organizationName}} is gewijzigd',
    changedIntro:
      '{{actorName}} heeft de koppeling met identiteitsprovider “{{connectionName}}” ({{issuer}}) van {{organizationName}} op het Partner Portal gewijzigd.',
    removedSubject: 'De single sign-on-koppeling “{{connectionName}}” van {{organizationName}} is uitgeschakeld of verwijderd',
    removedIntro:
      '{{actorName}} heeft de koppeling met identiteitsprovider “{{connectionName}}” ({{issuer}}) van {{organizationName}} op het Partner Portal uitgeschakeld of verwijderd. Adressen van {{domains}} melden zich weer aan met een wachtwoord.',
    membersTold: 'Elk lid van wie de manier van aanmelden is veranderd, heeft een e-mail gekregen.',
  },
  de: {
    subject: 'Zu {{organizationName}} wurde eine Single-Sign-on-Verbindung hinzugefügt',
    intro:
      '{{actorName}} hat den Identitätsanbieter „{{connectionName}}“ ({{issuer}}) im Partner Portal mit {{organizationName}} verbunden.',
    effect:
      'Personen von {{organizationName}} und ihren Unterorganisationen mit einer Adresse von {{domains}} melden sich jetzt dort an statt mit einem Passwort.',
    check: 'Wenn Sie das nicht erwartet haben, prüfen Sie die Verbindung in den Einstellungen der Organisation.',
    button: 'Organisation öffnen',
    changedSubject: 'Die Single-Sign-on-Verbindung „{{connectionName}}“ von {{organizationName}} wurde geändert',
    changedIntro:
      '{{actorName}} hat die Verbindung zum Identitätsanbieter „{{connectionName}}“ ({{issuer}}) von {{organizationName}} im Partner Portal geändert.',
    removedSubject: 'Die Single-Sign-on-Verbindung „{{connectionName}}“ von {{organizationName}} wurde ausgeschaltet oder entfernt',
    removedIntro:
      '{{actorName}} hat die Verbindung zum Identitätsanbieter „{{connectionName}}“ ({{issuer}}) von {{organizationName}} im Partner Portal ausgeschaltet oder entfernt. Adressen von {{domains}} melden sich wieder mit einem Passwort an.',
    membersTold: 'Jedes Mitglied, dessen Anmeldung sich geändert hat, wurde per E-Mail informiert.',
  },
  fr: {
    subject: 'Une connexion d’authentification unique a été ajoutée à {{organizationName}}',
    intro:
      '{{actorName}} a connecté le fournisseur d’identité « {{connectionName}} » ({{issuer}}) à {{organizationName}} sur le Partner Portal.',
    effect:
      'Les personnes de {{organizationName}} et de ses sous-organisations dont l’adresse est de {{domains}} s’y connectent désormais au lieu d’utiliser un mot de passe.',
    check: 'Si vous ne vous y attendiez pas, vérifiez la connexion dans les paramètres de l’organisation.',
    button: 'Ouvrir l’organisation',
    changedSubject: 'La connexion d’authentification unique « {{connectionName}} » de {{organizationName}} a été modifiée',
    changedIntro:
      '{{actorName}} a modifié la connexion au fournisseur d’identité « {{connectionName}} » ({{issuer}}) de {{organizationName}} sur le Partner Portal.',
    removedSubject: 'La connexion d’authentification unique « {{connectionName}} » de {{organizationName}} a été désactivée ou supprimée',
    removedIntro:
      '{{actorName}} a désactivé ou supprimé la connexion au fournisseur d’identité « {{connectionName}} » ({{issuer}}) de {{organizationName}} sur le Partner Portal. Les adresses de {{domains}} se connectent de nouveau avec un mot de passe.',
    membersTold: 'Chaque membre dont la façon de se connecter a changé a été prévenu par e-mail.',
  },
  es: {
    subject: 'Se ha añadido una conexión de inicio de sesión único a {{organizationName}}',
    intro:
      '{{actorName}} ha conectado el proveedor de identidad «{{connectionName}}» ({{issuer}}) a {{organizationName}} en el Partner Portal.',
    effect:
      'Las personas de {{organizationName}} y sus suborganizaciones con una dirección de {{domains}} inician sesión ahora allí en lugar de con una contraseña.',
    check: 'Si no lo esperabas, revisa la conexión en la configuración de la organización.',
    button: 'Abrir la organización',
    changedSubject: 'Se ha cambiado la conexión de inicio de sesión único «{{connectionName}}» de {{organizationName}}',
    changedIntro:
      '{{actorName}} ha cambiado la conexión con el proveedor de identidad «{{connectionName}}» ({{issuer}}) de {{organizationName}} en el Partner Portal.',
    removedSubject: 'Se ha desactivado o eliminado la conexión de inicio de sesión único «{{connectionName}}» de {{organizationName}}',
    removedIntro:
      '{{actorName}} ha desactivado o eliminado la conexión con el proveedor de identidad «{{connectionName}}» ({{issuer}}) de {{organizationName}} en el Partner Portal. Las direcciones de {{domains}} vuelven a iniciar sesión con una contraseña.',
    membersTold: 'Cada miembro cuya forma de iniciar sesión ha cambiado ha recibido un correo.',
  },
  'pt-BR': {
    subject: 'Uma conexão de login único foi adicionada a {{organizationName}}',
    intro: '{{actorName}} conectou o provedor de identidade “{{connectionName}}” ({{issuer}}) a {{organizationName}} no Partner Portal.',
    effect:
      'Pessoas de {{organizationName}} e de suas suborganizações com um endereço de {{domains}} agora entram por lá em vez de usar uma senha.',
    check: 'Se você não esperava por isso, revise a conexão nas configurações da organização.',
    button: 'Abrir a organização',
    changedSubject: 'A conexão de login único “{{connectionName}}” de {{organizationName}} foi alterada',
    changedIntro:
      '{{actorName}} alterou a conexão com o provedor de identidade “{{connectionName}}” ({{issuer}}) de {{organizationName}} no Partner Portal.',
    removedSubject: 'A conexão de login único “{{connectionName}}” de {{organizationName}} foi desativada ou removida',
    removedIntro:
      '{{actorName}} desativou ou removeu a conexão com o provedor de identidade “{{connectionName}}” ({{issuer}}) de {{organizationName}} no Partner Portal. Endereços de {{domains}} voltam a entrar com uma senha.',
    membersTold: 'Cada membro cuja forma de entrar mudou foi avisado por e-mail.',
  },
};

/**
 * The notice to an organization's organizationManagers that a single sign-on connection was added
 * (or switched on), changed, or switched off or removed; link: its manage page.
 */
export function ssoConnectionEmail(input: {
  change: 'added' | 'changed' | 'removed';
  language: string;
  link: string;
  firstName?: string | null;
  actorName: string;
  organizationName: string;
  connectionName: string;
  issuer: string;
  domains: readonly string[];
}): RenderedEmail {
  const t = textsFor(input.language);
  const s = (USER_LANGUAGES as readonly string[]).includes(input.language) ? SSO_TEXTS[input.language as UserLanguage] : SSO_TEXTS.en;
  const vars = {
    actorName: input.actorName,
    organizationName: input.organizationName,
    connectionName: input.connectionName,
    issuer: input.issuer,
    domains: input.domains.map((d) => `@${d}`).join(', '),
  };
  const greeting = input.firstName ? fill(t.greetingByName, { firstName: input.firstName }) : t.greeting;
  const texts = {
    added: { subject: s.subject, lines: [s.intro, s.effect] },
    changed: { subject: s.changedSubject, lines: [s.changedIntro, s.membersTold] },
    removed: { subject: s.removedSubject, lines: [s.removedIntro, s.membersTold] },
  }[input.change];
  const before = [greeting, ...texts.lines.map((line) => fill(line, vars))];
  const after = [s.check];
  return {
    subject: fill(texts.subject, vars),
    text: plain(before, input.link, t, after),
    html: layout(input.language, before, { label: s.button, link: input.link }, after, t),
  };
}
