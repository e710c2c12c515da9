export * from './dicts.js';
export * from './columns.js';
export * from './search.js';
export * from './list.js';
export * from './actions.js';
export * from './dialog.js';
