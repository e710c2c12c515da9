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
// System management (issue 9): departments, posts, menus, dictionaries, parameters, regions, clients.
import client from './client/index.js';
import dept from './dept/index.js';
import dict from './dict/index.js';
import menu from './menu/index.js';
import param from './param/index.js';
import post from './post/index.js';
import region from './region/index.js';
// Access control (issue 10): roles and their grants, users, tenants.
import role from './role/index.js';
import tenant from './tenant/index.js';
import user from './user/index.js';
// Business modules (issue 4, business engineer): ledger, employee, order, statistic, settlement, banner, msgcenter, export.
import { BUSINESS_MODULES } from './business.js';
// Operations (issue 11): the server's own logs, notices, SMS, object storage, jobs.
import log from './log/index.js';
import notice from './notice/index.js';
import sms from './sms/index.js';
import oss from './oss/index.js';
import job from './job/index.js';
// Workflow (issue 12): the engine, deployments, work lists and the leave process.
import flow from './flow/index.js';
// The .xlsx import built-in of every document that offers it (after the modules serving their own).
import importModule from './import/index.js';

export const SYSTEM_MODULES: ServerModule[] = [menu, dict, dept, post, param, region, client, role, user, tenant];

export const MODULES: ServerModule[] = [log, auth, system, ...SYSTEM_MODULES, resource, merchant, site, profile, shell, dashboard, notice, sms, oss, ...BUSINESS_MODULES, job, flow, importModule];
