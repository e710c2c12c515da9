/**
 * The server's modules, registered by app.ts in this order. To add one: create modules/<name>/index.ts
 * exporting a ServerModule (routes in `plugin`, own tables in `migrations`, CRUD hooks in `screenHooks`)
 * and add it to this list.
 */
import type { ServerModule } from '../context.js';
import auth from './auth/index.js';
import merchant from './merchant/index.js';
import resource from './resource/index.js';
import system from './system/index.js';
import shell from './shell/index.js';
import site from './site/index.js';
import profile from './profile/index.js';
import dashboard from './dashboard/index.js';
// Business modules (issue 4, business engineer): ledger, employee, order, statistic, settlement, banner, msgcenter, export.
import { BUSINESS_MODULES } from './business.js';

export const MODULES: ServerModule[] = [auth, system, resource, merchant, site, profile, shell, dashboard, ...BUSINESS_MODULES];
