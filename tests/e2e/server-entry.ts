// Entry of the server the browser tests start: the product's own main (so a stray `pkill -f src/server/main.ts`
// elsewhere on the machine does not take the test server down with it).
import '../../src/server/main.js';
