// The files plugin (built-in): read_file, list_files, search_files, write_file, edit_file inside the allowed roots,
// and the changes/list, changes/show, changes/undo client methods; see plugin.ts.
import { createFilesPlugin } from './plugin';

export default createFilesPlugin();
