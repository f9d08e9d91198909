// The sign-in page's script: a link's secret rides in the URL fragment (never sent by the browser itself);
// this posts it once, drops it from the address bar, and loads the page with the cookie it got.
const status = document.getElementById('signin-status');
const match = /^#login=([A-Za-z0-9_-]+)$/.exec(location.hash);

if (match) {
  history.replaceState(null, '', location.pathname);
  status.textContent = 'Signing in…';
  fetch('/api/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ secret: match[1] }) })
    .then(async (answer) => {
      if (answer.ok) return location.replace('/');
      const body = await answer.json().catch(() => ({}));
      status.textContent = body.error || `Sign-in failed (${answer.status}).`;
    })
    .catch((error) => {
      status.textContent = `Sign-in failed: ${error.message}`;
    });
}
