/** Where the runtime reads documents (a leaf module, so lazy widgets import it without the screen page). */
export const SCREEN_DETAIL_URL = '/api/blade-system/screen/detail';

/** Where the runtime reads dictionaries, in one batch (`?codes=a,b`, sorted). */
export const DICT_BATCH_URL = '/api/blade-system/dict/batch';
