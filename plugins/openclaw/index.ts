// The openclaw plugin (built-in): OpenClaw skills for the agent; see plugin.ts.
import { createOpenclawPlugin } from './plugin';

export default createOpenclawPlugin();
