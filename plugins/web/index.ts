// The web plugin (built-in): web_fetch and web_search; see plugin.ts.
import { createWebPlugin } from './plugin';

export default createWebPlugin();
