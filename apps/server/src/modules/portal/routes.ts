import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { featuresSchema, notificationSchema, portalConfigurationSchema, tileSchema } from '@partner-portal/contracts';
import * as service from './service.js';
import { problems } from '../../http/route-kit.js';

/** The home page: tiles, notifications, feature flags, site configuration. */
export const portalRoutes: FastifyPluginAsyncZod = async (app) => {
  const { services } = app;

  app.get(
    '/api/portal',
    {
      schema: {
        tags: ['portal'],
        summary:
          'The tiles the signed-in user may open (coming_soon tiles included, to be shown inactive), plus the user-management tile for managers',
        response: { 200: z.array(tileSchema), ...problems(401) },
      },
    },
    async (request) => service.tilesFor(services.db, await services.sessions.require(request)),
  );

  app.get(
    '/api/portal/notifications',
    {
      schema: {
        tags: ['portal'],
        summary: 'Active portal warning messages, in the user’s language',
        response: { 200: z.array(notificationSchema), ...problems(401) },
      },
    },
    async (request) => service.notifications(services.db, await services.sessions.require(request)),
  );

  app.get(
    '/api/portal/profit-calculator',
    {
      schema: {
        tags: ['portal'],
        summary: 'Messages of the farmer profit calculator (answered in the notifications shape; none are kept yet, so the list is empty)',
        response: { 200: z.array(notificationSchema), ...problems(401) },
      },
    },
    async (request) => {
      await services.sessions.require(request);
      return [];
    },
  );

  app.get(
    '/api/portal/application/features',
    {
      schema: { tags: ['portal'], summary: 'Feature flags of the portal', response: { 200: featuresSchema, ...problems(401) } },
    },
    async (request) => {
      await services.sessions.require(request);
      return service.features(services.db);
    },
  );

  app.get(
    '/api/portal/configuration',
    {
      schema: {
        tags: ['portal'],
        summary: 'Site settings shown before login (privacy statement, licence agreement, sales contact, login video); no login needed',
        response: {
          200: portalConfigurationSchema,
        },
      },
    },
    async () => service.configuration(services.config),
  );
};
