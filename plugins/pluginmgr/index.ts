// The pluginmgr plugin (built-in): installs and removes third-party plugins for the agent and over HTTP; see plugin.ts.
import { createPluginmgr } from './plugin';

export default createPluginmgr();
