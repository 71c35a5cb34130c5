-- Dealers bring their own identity (README, "Verified domains, single sign-on per organization and
-- access requests"): the domains an organization proves by a DNS TXT record, the OpenID Connect
-- providers connected to an organization for its whole subtree, and the access requests of visitors.

-- A domain claimed by an organization. Many may claim a domain; only one may have verified it
-- (the partial unique index), and a verified domain serves the whole subtree of its organization.
-- Kept in ASCII (IDNA) form, lower case, without a trailing dot.
CREATE TABLE organization_domains (
  organization_id     uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  domain              text NOT NULL,
  verification_value  text NOT NULL,          -- the TXT record's value to publish (public, not a secret)
  verified_at         timestamptz,            -- null: not (or no longer) verified
  checked_at          timestamptz,            -- the last look at the record (the daily re-verification)
  created_at          timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, domain)
);
CREATE UNIQUE INDEX organization_domains_verified_once ON organization_domains (domain) WHERE verified_at IS NOT NULL;
CREATE INDEX organization_domains_domain_idx ON organization_domains (domain);

-- An organization's OpenID Connect identity provider, serving the organization and its subtree.
-- Accounts that sign in through it have users.external_idp = the connection's id (as text) and
-- users.external_subject = the provider's `sub`; the EXTERNAL_IDP_* variables' connection keeps
-- the id 'external' and is not a row.
CREATE TABLE sso_connections (
  id                    uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  organization_id       uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  name                  text NOT NULL,
  issuer                text NOT NULL,
  client_id             text NOT NULL,
  client_secret_sealed  text,                   -- compact JWE (sealed.ts); null: a public client with PKCE
  domains               text[] NOT NULL DEFAULT '{}',
  just_in_time          boolean NOT NULL DEFAULT false,
  created_at            timestamptz NOT NULL DEFAULT now(),
  updated_at            timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX sso_connections_organization_idx ON sso_connections (organization_id);
CREATE INDEX sso_connections_domains_idx ON sso_connections USING gin (domains);

-- A visitor's request for an account, routed to the organization that verified the address's
-- domain (or its nearest ancestor with userManagers); organization_id null: sent to sales.
CREATE TABLE access_requests (
  id               uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  email            text NOT NULL,
  first_name       text NOT NULL,
  last_name        text NOT NULL,
  message          text,
  language_code    text NOT NULL DEFAULT 'en',
  organization_id  uuid REFERENCES organizations(id) ON DELETE CASCADE,
  state            text NOT NULL DEFAULT 'PENDING' CHECK (state IN ('PENDING', 'APPROVED', 'DECLINED')),
  decided_by       uuid REFERENCES users(id) ON DELETE SET NULL,
  decided_at       timestamptz,
  invitation_id    uuid REFERENCES invitations(id) ON DELETE SET NULL,
  created_at       timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX access_requests_one_pending_per_email ON access_requests (lower(email)) WHERE state = 'PENDING';
CREATE INDEX access_requests_pending_idx ON access_requests (organization_id, created_at) WHERE state = 'PENDING';
