// The sign-in page's script: a link's secret rides in the URL fragment (never sent by the browser itself);
// this posts it once, drops it from the address bar, and loads the page with the cookie it got. A link pasted into
// this same tab changes only the fragment (no reload), so a fragment arriving later signs in too.
export {};

const status = document.getElementById('signin-status');
let signingIn = false;

function say(text: string): void {
  if (status) status.textContent = text;
}

/** Signs in with the fragment's secret, when it holds one and no sign-in is under way. */
function signInFromFragment(): void {
  const match = /^#login=([A-Za-z0-9_-]+)$/.exec(location.hash);
  if (!match || signingIn) return;
  signingIn = true;
  history.replaceState(null, '', location.pathname);
  say('Signing in…');
  fetch('/api/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ secret: match[1] }) })
    .then(async (answer) => {
      if (answer.ok) return location.replace('/');
      const body = (await answer.json().catch(() => ({}))) as { error?: string };
      say(body.error || `Sign-in failed (${answer.status}).`);
      signingIn = false;
    })
    .catch((error: Error) => {
      say(`Sign-in failed: ${error.message}`);
      signingIn = false;
    });
}

addEventListener('hashchange', signInFromFragment);
signInFromFragment();
