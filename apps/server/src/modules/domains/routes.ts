import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  domainClaimRequestSchema,
  domainClaimResponseSchema,
  domainVerifyResponseSchema,
  organizationDomainParamsSchema,
  organizationDomainSchema,
  organizationIdParamsSchema,
} from '@partner-portal/contracts';
import { actorRoutes, noContent } from '../../http/route-kit.js';
import type { Domains } from './service.js';

/** Verified domains (docs/dealer-identity.md, "Verified domains"). HTTP only: the rules live in service.ts. */
export const domainRoutes: FastifyPluginAsyncZod<{ domains: Domains }> = async (app, options) => {
  const { domains } = options;
  const route = actorRoutes(app, ['domains']);

  route('GET /api/organizations/:organizationId/domains', {
    summary: 'The domains of an organization and of its ancestors: its own claims and its ancestors’, verified or not',
    description:
      'Any manager (userManager or organizationManager) of the organization. `organization_id` tells whose domain it is; ' +
      'the organization’s own carry `verification`, the TXT record to publish. `verified_at`: when the record was last found, or null.',
    params: organizationIdParamsSchema,
    response: { 200: z.array(organizationDomainSchema) },
    answer: (actor, { params }) => domains.list(actor, params.organizationId),
  });

  route('POST /api/organizations/:organizationId/domains', {
    summary: 'Claim an e-mail domain for an organization: the answer is the TXT record that proves control of it',
    description:
      'A manager (organizationManager) of the organization. The domain is kept lower-case in ASCII (IDNA) form without a trailing dot. ' +
      'Claiming it again answers the same record. 409 `domain_not_claimable` for a public mail provider’s domain, ' +
      '`domain_claimed` when another organization (ancestors and descendants included) has verified it.',
    params: organizationIdParamsSchema,
    body: domainClaimRequestSchema,
    response: { 201: domainClaimResponseSchema },
    answer: (actor, { params, body }) => domains.claim(actor, params.organizationId, body.domain),
  });

  route('POST /api/organizations/:organizationId/domains/:domain/verify', {
    summary: 'Verify a claimed domain: look for its TXT record at _partner-portal.<domain>',
    description:
      'A manager (organizationManager) of the organization. 409 `domain_verification_failed` when the record is not found or DNS does not answer; ' +
      '`domain_claimed` when another organization has verified the domain. DNS questions go to DNS_SERVERS when it is set, else to the system’s resolvers.',
    params: organizationDomainParamsSchema,
    response: { 200: domainVerifyResponseSchema },
    answer: (actor, { params }) => domains.verify(actor, params.organizationId, params.domain),
  });

  route('DELETE /api/organizations/:organizationId/domains/:domain', {
    summary: 'Remove one of the organization’s own domains',
    description:
      'A manager (organizationManager) of the organization. 404 for a domain the organization has not claimed (an ancestor’s included).',
    params: organizationDomainParamsSchema,
    response: { 204: noContent },
    answer: (actor, { params }) => domains.remove(actor, params.organizationId, params.domain),
  });
};
