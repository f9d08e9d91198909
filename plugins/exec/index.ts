// The exec plugin (built-in): the agent's shell commands; see plugin.ts.
import { createExecPlugin } from './plugin';

export default createExecPlugin();
