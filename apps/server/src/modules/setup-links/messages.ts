import { USER_LANGUAGES, type UserLanguage } from '@partner-portal/contracts';
import { button, emailHtml, linkFallback, paragraph } from '../mail/layout.js';
import { fill, sharedTexts, type RenderedEmail } from '../mail/messages.js';

/**
 * The e-mails of setup links (modules/setup-links) in the six user languages, in the style of
 * mail/messages.ts (texts as data with `{{name}}` fields, the one layout): the link to the dealer's
 * IT person (in the maker's language), the one-time code that opens it, and the notice to the
 * link's maker that a step was done through it (in the maker's language).
 */
interface SetupTexts {
  linkSubject: string;
  linkIntro: string;
  linkCapabilities: string;
  linkExpiry: string;
  linkButton: string;
  linkIgnore: string;
  codeSubject: string;
  codeIntro: string;
  codeExpiry: string;
  stepSubject: string;
  stepIntro: string;
  stepButton: string;
  capability: Record<'domains' | 'sso' | 'scim' | 'audit_streams', string>;
  step: Record<SetupStep, string>;
}

/** What a setup link's holder completed, as its maker is told. */
export type SetupStep = 'domain_verified' | 'connection_created' | 'connection_switched_on' | 'scim_token_created';

const TEXTS: Record<UserLanguage, SetupTexts> = {
  en: {
    linkSubject: 'Set up sign-in for {{organizationName}} on the Partner Portal',
    linkIntro:
      '{{makerName}} asks you to set up the technical connection of {{organizationName}} to the Partner Portal. You need no account.',
    linkCapabilities: 'You can set up: {{capabilities}}.',
    linkExpiry: 'The link works until {{expiresAt}} (UTC). When you open it, a one-time code is sent to this address.',
    linkButton: 'Start the setup',
    linkIgnore: 'If you did not expect this e-mail, you can ignore it.',
    codeSubject: 'Your code for the Partner Portal setup: {{code}}',
    codeIntro: 'Enter this code on the setup page of {{organizationName}}: {{code}}',
    codeExpiry: 'The code works for 10 minutes. If you did not ask for it, you can ignore this e-mail.',
    stepSubject: 'Setup of {{organizationName}}: {{step}}',
    stepIntro: '{{email}} used the setup link you made for {{organizationName}}: {{step}}.',
    stepButton: 'Open the organization',
    capability: { domains: 'verified domains', sso: 'single sign-on', scim: 'SCIM provisioning', audit_streams: 'audit streams' },
    step: {
      domain_verified: 'the domain {{detail}} was verified',
      connection_created: 'the single sign-on connection {{detail}} was created',
      connection_switched_on: 'the single sign-on connection {{detail}} was switched on',
      scim_token_created: 'the SCIM token {{detail}} was created',
    },
  },
  nl: {
    linkSubject: 'Stel het aanmelden voor {{organizationName}} in op het Partner Portal',
    linkIntro:
      '{{makerName}} vraagt je de technische koppeling van {{organizationName}} met het Partner Portal in te stellen. Je hebt geen account nodig.',
    linkCapabilities: 'Je kunt instellen: {{capabilities}}.',
    linkExpiry: 'De link werkt tot {{expiresAt}} (UTC). Als je hem opent, wordt er een eenmalige code naar dit adres gestuurd.',
    linkButton: 'Instellen starten',
    linkIgnore: 'Verwachtte je deze e-mail niet? Dan kun je hem negeren.',
    codeSubject: 'Je code voor het instellen van het Partner Portal: {{code}}',
    codeIntro: 'Voer deze code in op de instelpagina van {{organizationName}}: {{code}}',
    codeExpiry: 'De code werkt 10 minuten. Heb je er niet om gevraagd? Dan kun je deze e-mail negeren.',
    stepSubject: 'Instellen van {{organizationName}}: {{step}}',
    stepIntro: '{{email}} gebruikte de instellink die je voor {{organizationName}} maakte: {{step}}.',
    stepButton: 'Organisatie openen',
    capability: { domains: 'geverifieerde domeinen', sso: 'single sign-on', scim: 'SCIM-provisioning', audit_streams: 'auditstromen' },
    step: {
      domain_verified: 'het domein {{detail}} is geverifieerd',
      connection_created: 'de single sign-on-koppeling {{detail}} is aangemaakt',
      connection_switched_on: 'de single sign-on-koppeling {{detail}} is ingeschakeld',
      scim_token_created: 'het SCIM-token {{detail}} is aangemaakt',
    },
  },
  de: {
    linkSubject: 'Anmeldung für {{organizationName}} im Partner Portal einrichten',
    linkIntro:
      '{{makerName}} bittet Sie, die technische Anbindung von {{organizationName}} an das Partner Portal einzurichten. Sie brauchen kein Konto.',
    linkCapabilities: 'Sie können einrichten: {{capabilities}}.',
    linkExpiry: 'Der Link gilt bis {{expiresAt}} (UTC). Wenn Sie ihn öffnen, wird ein Einmalcode an diese Adresse gesendet.',
    linkButton: 'Einrichtung starten',
    linkIgnore: 'Wenn Sie diese E-Mail nicht erwartet haben, können Sie sie ignorieren.',
    codeSubject: 'Ihr Code für die Einrichtung im Partner Portal: {{code}}',
    codeIntro: 'Geben Sie diesen Code auf der Einrichtungsseite von {{organizationName}} ein: {{code}}',
    codeExpiry: 'Der Code gilt 10 Minuten. Wenn Sie ihn nicht angefordert haben, können Sie diese E-Mail ignorieren.',
    stepSubject: 'Einrichtung von {{organizationName}}: {{step}}',
    stepIntro: '{{email}} hat den Einrichtungslink verwendet, den Sie für {{organizationName}} erstellt haben: {{step}}.',
    stepButton: 'Organisation öffnen',
    capability: { domains: 'verifizierte Domains', sso: 'Single Sign-on', scim: 'SCIM-Provisionierung', audit_streams: 'Audit-Streams' },
    step: {
      domain_verified: 'die Domain {{detail}} wurde verifiziert',
      connection_created: 'die Single-Sign-on-Verbindung {{detail}} wurde erstellt',
      connection_switched_on: 'die Single-Sign-on-Verbindung {{detail}} wurde eingeschaltet',
      scim_token_created: 'das SCIM-Token {{detail}} wurde erstellt',
    },
  },
  fr: {
    linkSubject: 'Configurez la connexion de {{organizationName}} au Partner Portal',
    linkIntro:
      '{{makerName}} vous demande de configurer la connexion technique de {{organizationName}} au Partner Portal. Vous n’avez pas besoin de compte.',
    linkCapabilities: 'Vous pouvez configurer : {{capabilities}}.',
    linkExpiry: 'Le lien fonctionne jusqu’au {{expiresAt}} (UTC). À son ouverture, un code à usage unique est envoyé à cette adresse.',
    linkButton: 'Commencer la configuration',
    linkIgnore: 'Si vous n’attendiez pas cet e-mail, vous pouvez l’ignorer.',
    codeSubject: 'Votre code pour la configuration du Partner Portal : {{code}}',
    codeIntro: 'Saisissez ce code sur la page de configuration de {{organizationName}} : {{code}}',
    codeExpiry: 'Le code fonctionne 10 minutes. Si vous ne l’avez pas demandé, vous pouvez ignorer cet e-mail.',
    stepSubject: 'Configuration de {{organizationName}} : {{step}}',
    stepIntro: '{{email}} a utilisé le lien de configuration que vous avez créé pour {{organizationName}} : {{step}}.',
    stepButton: 'Ouvrir l’organisation',
    capability: {
      domains: 'domaines vérifiés',
      sso: 'authentification unique',
      scim: 'provisionnement SCIM',
      audit_streams: 'flux d’audit',
    },
    step: {
      domain_verified: 'le domaine {{detail}} a été vérifié',
      connection_created: 'la connexion d’authentification unique {{detail}} a été créée',
      connection_switched_on: 'la connexion d’authentification unique {{detail}} a été activée',
      scim_token_created: 'le jeton SCIM {{detail}} a été créé',
    },
  },
  es: {
    linkSubject: 'Configure el inicio de sesión de {{organizationName}} en el Partner Portal',
    linkIntro:
      '{{makerName}} le pide que configure la conexión técnica de {{organizationName}} con el Partner Portal. No necesita una cuenta.',
    linkCapabilities: 'Puede configurar: {{capabilities}}.',
    linkExpiry: 'El enlace funciona hasta el {{expiresAt}} (UTC). Al abrirlo, se envía un código de un solo uso a esta dirección.',
    linkButton: 'Empezar la configuración',
    linkIgnore: 'Si no esperaba este correo, puede ignorarlo.',
    codeSubject: 'Su código para la configuración del Partner Portal: {{code}}',
    codeIntro: 'Introduzca este código en la página de configuración de {{organizationName}}: {{code}}',
    codeExpiry: 'El código funciona 10 minutos. Si no lo pidió, puede ignorar este correo.',
    stepSubject: 'Configuración de {{organizationName}}: {{step}}',
    stepIntro: '{{email}} usó el enlace de configuración que creó para {{organizationName}}: {{step}}.',
    stepButton: 'Abrir la organización',
    capability: {
      domains: 'dominios verificados',
      sso: 'inicio de sesión único',
      scim: 'aprovisionamiento SCIM',
      audit_streams: 'flujos de auditoría',
    },
    step: {
      domain_verified: 'se verificó el dominio {{detail}}',
      connection_created: 'se creó la conexión de inicio de sesión único {{detail}}',
      connection_switched_on: 'se activó la conexión de inicio de sesión único {{detail}}',
      scim_token_created: 'se creó el token SCIM {{detail}}',
    },
  },
  'pt-BR': {
    linkSubject: 'Configure o login de {{organizationName}} no Partner Portal',
    linkIntro:
      '{{makerName}} pede que você configure a conexão técnica de {{organizationName}} com o Partner Portal. Você não precisa de conta.',
    linkCapabilities: 'Você pode configurar: {{capabilities}}.',
    linkExpiry: 'O link funciona até {{expiresAt}} (UTC). Ao abri-lo, um código de uso único é enviado para este endereço.',
    linkButton: 'Iniciar a configuração',
    linkIgnore: 'Se você não esperava este e-mail, pode ignorá-lo.',
    codeSubject: 'Seu código para a configuração do Partner Portal: {{code}}',
    codeIntro: 'Digite este código na página de configuração de {{organizationName}}: {{code}}',
    codeExpiry: 'O código funciona por 10 minutos. Se você não o pediu, pode ignorar este e-mail.',
    stepSubject: 'Configuração de {{organizationName}}: {{step}}',
    stepIntro: '{{email}} usou o link de configuração que você criou para {{organizationName}}: {{step}}.',
    stepButton: 'Abrir a organização',
    capability: { domains: 'domínios verificados', sso: 'login único', scim: 'provisionamento SCIM', audit_streams: 'fluxos de auditoria' },
    step: {
      domain_verified: 'o domínio {{detail}} foi verificado',
      connection_created: 'a conexão de login único {{detail}} foi criada',
      connection_switched_on: 'a conexão de login único {{detail}} foi ativada',
      scim_token_created: 'o token SCIM {{detail}} foi criado',
    },
  },
};

function textsFor(language: string): SetupTexts {
  return (USER_LANGUAGES as readonly string[]).includes(language) ? TEXTS[language as UserLanguage] : TEXTS.en;
}

type Block = { p: string } | { action: string; link: string };

function render(language: string, subject: string, blocks: Block[]): RenderedEmail {
  const shared = sharedTexts(language);
  const action = blocks.find((b): b is { action: string; link: string } => 'action' in b);
  const text = blocks.map((b) => ('p' in b ? b.p : b.link));
  const html = blocks.map((b) => ('p' in b ? paragraph(b.p) : button(b.action, b.link)));
  return {
    subject,
    text: [...text, `— ${shared.signature}`].join('\n\n') + '\n',
    html: emailHtml(language, shared.signature, action ? [...html, linkFallback(shared.linkFallback, action.link)] : html),
  };
}

/** To the address of a new setup link, in its maker's language: the link itself. */
export function setupLinkEmail(input: {
  language: string;
  makerName: string;
  organizationName: string;
  capabilities: readonly string[];
  expiresAt: Date;
  link: string;
}): RenderedEmail {
  const t = textsFor(input.language);
  const vars = {
    makerName: input.makerName,
    organizationName: input.organizationName,
    capabilities: input.capabilities.map((c) => t.capability[c as keyof SetupTexts['capability']] ?? c).join(', '),
    expiresAt: input.expiresAt.toISOString().slice(0, 16).replace('T', ' '),
  };
  return render(input.language, fill(t.linkSubject, vars), [
    { p: sharedTexts(input.language).greeting },
    { p: fill(t.linkIntro, vars) },
    { p: fill(t.linkCapabilities, vars) },
    { p: fill(t.linkExpiry, vars) },
    { action: t.linkButton, link: input.link },
    { p: t.linkIgnore },
  ]);
}

/** To the link's address: the one-time code that opens the setup session. */
export function setupCodeEmail(input: { language: string; organizationName: string; code: string }): RenderedEmail {
  const t = textsFor(input.language);
  const vars = { organizationName: input.organizationName, code: input.code };
  return render(input.language, fill(t.codeSubject, vars), [
    { p: sharedTexts(input.language).greeting },
    { p: fill(t.codeIntro, vars) },
    { p: t.codeExpiry },
  ]);
}

/** To the link's maker, in their language: a step was done through the link. */
export function setupStepEmail(input: {
  language: string;
  firstName: string | null;
  email: string;
  organizationName: string;
  step: SetupStep;
  detail: string;
  link: string;
}): RenderedEmail {
  const t = textsFor(input.language);
  const shared = sharedTexts(input.language);
  const step = fill(t.step[input.step], { detail: input.detail });
  const vars = { email: input.email, organizationName: input.organizationName, step };
  return render(input.language, fill(t.stepSubject, vars), [
    { p: input.firstName ? fill(shared.greetingByName, { firstName: input.firstName }) : shared.greeting },
    { p: fill(t.stepIntro, vars) },
    { action: t.stepButton, link: input.link },
  ]);
}
