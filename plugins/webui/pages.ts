// The two HTML pages: the app shell for a signed-in browser, and the sign-in page for everyone else.
// Neither holds inline script or style (the CSP forbids both); their scripts are files the plugin serves.
import type { Assets } from './assets';

/** The shell the app's script renders into. */
export function shellPage(assets: Assets): string {
  return page('HomeAgent', assets.entries['app.css'], assets.entries['app.js'], '<div id="app"></div>');
}

/** What a browser without a session sees: how to get a link; its script exchanges a link's secret when there is one. */
export function signInPage(assets: Assets): string {
  const body = [
    '<main id="signin">',
    '<h1>HomeAgent</h1>',
    '<p id="signin-status">This browser is not signed in.</p>',
    '<p>On the machine running homed, run <code>homectl webui open</code> and open the link it prints. A link works once, for ten minutes.</p>',
    '</main>',
  ].join('');
  return page('HomeAgent: sign in', assets.entries['app.css'], assets.entries['login.js'], body);
}

/** A refusal a person reads in the browser (no script, no style sheet: the page may be on a name this server refuses). */
export function refusalPage(status: number, message: string): string {
  const escaped = message.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
  return [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8">',
    `<title>HomeAgent: refused (${status})</title>`,
    `</head><body><h1>HomeAgent refused this request</h1><p>${escaped}</p></body></html>`,
  ].join('\n');
}

function page(title: string, css: string, script: string, body: string): string {
  return [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${title}</title>`,
    `<link rel="stylesheet" href="/assets/${css}">`,
    `<script type="module" src="/assets/${script}"></script>`,
    `</head><body>${body}</body></html>`,
  ].join('\n');
}
