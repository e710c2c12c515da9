/**
 * The canteen business modules (issue 4), in registration order. The ledger comes first: it owns the money
 * tables the others read and write through it. modules/index.ts spreads this list into MODULES.
 */
import type { ServerModule } from '../context.js';
import ledger from './ledger/index.js';
import employee from './employee/index.js';
import order from './order/index.js';
import statistic from './statistic/index.js';
import settlement from './settlement/index.js';
import banner from './banner/index.js';
import msgcenter from './msgcenter/index.js';
import exportModule from './export/index.js';

export const BUSINESS_MODULES: ServerModule[] = [ledger, employee, order, statistic, settlement, banner, msgcenter, exportModule];
