// The menu's pages and which one is in view (kept in the address's fragment, `#/plugins`, so a reload stays there).
// A page is a file app/pages/<name>.ts whose default export is a component taking `{ client, t }`; the menu lists
// the built ones in MENU's order, so a page joins the menu by existing.
import type { ComponentType } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import pages from 'homeagent:pages';
import type { Client } from './connection';
import type { T } from './i18n';

export interface PageProps {
  client: Client;
  t: T;
}
export type PageComponent = ComponentType<PageProps>;

/** The menu's order; each entry shows only when app/pages/<name>.ts exists. Its label is the string `menu.<name>`. */
const MENU = ['chat', 'plugins', 'settings', 'memory', 'knowledge', 'timers'];

export interface MenuEntry {
  name: string;
  component: PageComponent;
}

export const menu: MenuEntry[] = MENU.flatMap((name) => {
  const component = pages[name];
  return component ? [{ name, component }] : [];
});

function fromHash(): string {
  const name = /^#\/(\w+)/.exec(location.hash)?.[1];
  return menu.some((entry) => entry.name === name) ? (name as string) : (menu[0]?.name ?? 'chat');
}

/** The page in view and how to go to another. */
export function useRoute(): [string, (name: string) => void] {
  const [name, setName] = useState(fromHash);
  useEffect(() => {
    const follow = (): void => setName(fromHash());
    addEventListener('hashchange', follow);
    return () => removeEventListener('hashchange', follow);
  }, []);
  return [name, (next) => (location.hash = `#/${next}`)];
}
