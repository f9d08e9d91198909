// The healthcheck plugin (built-in): see plugin.ts.
import { createHealthcheckPlugin } from './plugin';

export default createHealthcheckPlugin();
