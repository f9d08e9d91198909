// Modules the asset build (scripts/build-webui.js) makes from the folders' contents.

/** Each file of app/strings/, by its name without `.ts`. */
declare module 'homeagent:strings' {
  import type { PageStrings } from './i18n';
  const strings: Record<string, PageStrings>;
  export default strings;
}

/** Each page of app/pages/ (its default export), by its name without `.ts`. */
declare module 'homeagent:pages' {
  import type { PageComponent } from './router';
  const pages: Record<string, PageComponent>;
  export default pages;
}
