// The timer plugin (built-in): timer_set, timer_list, timer_cancel; see plugin.ts.
import { createTimerPlugin } from './plugin';

export default createTimerPlugin();
