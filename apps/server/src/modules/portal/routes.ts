import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { featuresSchema, notificationSchema, portalConfigurationSchema, tileSchema } from '@partner-portal/contracts';
import type { Portal } from './service.js';
import { routes } from '../../http/route-kit.js';

const tags = ['portal'];

/** The home page: tiles, notifications, feature flags, site configuration. */
export const portalRoutes: FastifyPluginAsyncZod<{ portal: Portal }> = async (app, { portal }) => {
  const { sessions } = app.services;
  const route = routes(app, tags);
  /** A signed-in user's read: the list or object, or 401. */
  const forUser = (url: `/api/${string}`, summary: string, answer: z.ZodType, handler: (request: FastifyRequest) => Promise<unknown>) =>
    route(`GET ${url}`, { summary, response: { 200: answer }, problems: [401], handler });
  const tilesSummary =
    'The tiles the signed-in user may open (coming_soon tiles included, to be shown inactive), plus the user-management tile for managers';
  forUser('/api/portal', tilesSummary, z.array(tileSchema), async (request) => portal.tiles(await sessions.require(request)));

  const notificationsSummary = 'Active portal warning messages, in the user’s language';
  forUser('/api/portal/notifications', notificationsSummary, z.array(notificationSchema), async (request) =>
    portal.notifications(await sessions.require(request)),
  );

  const calculatorSummary =
    'Messages of the farmer profit calculator (answered in the notifications shape; none are kept yet, so the list is empty)';
  forUser('/api/portal/profit-calculator', calculatorSummary, z.array(notificationSchema), async (request) => {
    await sessions.require(request);
    return [];
  });

  forUser('/api/portal/application/features', 'Feature flags of the portal', featuresSchema, async (request) => {
    await sessions.require(request);
    return portal.features();
  });

  route('GET /api/portal/configuration', {
    summary: 'Site settings shown before login (privacy statement, licence agreement, sales contact, login video); no login needed',
    response: { 200: portalConfigurationSchema },
    handler: async () => portal.configuration(),
  });
};
