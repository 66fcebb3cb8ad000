/**
 * /console/assets/console.js: progressive enhancement only, served from the console's own origin
 * (CSP `script-src 'self'`). For a user who chose no time zone (`<body data-time-zone="browser">`)
 * it rewrites every `<time datetime>` into the browser's zone, naming it (the short name in the
 * text, the IANA name as the tooltip). For a user who chose one (`data-time-zone="Europe/Berlin"`)
 * it rewrites only the times a page still renders in UTC. Without script times stay as rendered,
 * each naming its zone. A note's zone name (`data-zone-name`, "times in UTC") follows the times; a
 * date field's label does not, since the server reads what is typed in the zone the label names.
 *
 * A live page (`<main data-live-seconds="10">`: the overview, alerts, metrics, incidents) fetches
 * itself again on that period and swaps in the new content when it changed, so an outage shows
 * without a reload; it waits while the reader types in one of its forms or the tab is hidden, and
 * stops (saying so) when the session ends. Without script the page is what it was when loaded.
 *
 * On a phone, where the navigation is one line that scrolls sideways, the current page's link is
 * scrolled into that line.
 */
export const CONSOLE_JS = `(function () {
  'use strict';
  var main = document.getElementById('main');

  // Times: into the browser's zone (no zone chosen) or the chosen one (times still in UTC).
  var chosen = document.body && document.body.getAttribute('data-time-zone');
  var browser = chosen === 'browser';
  var zone = null, format = null;
  if (chosen) {
    try {
      zone = browser ? Intl.DateTimeFormat().resolvedOptions().timeZone : chosen;
      format = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone: zone, timeZoneName: 'short' });
    } catch (e) { zone = null; format = null; }
  }
  function rewriteTimes(root) {
    if (!zone || !format) return;
    var times = root.querySelectorAll('time[datetime]');
    for (var i = 0; i < times.length; i++) {
      var t = times[i];
      var iso = t.getAttribute('datetime');
      if (!iso || iso.indexOf('T') < 0) continue;
      if (!browser && !/UTC$/.test(t.textContent || '')) continue;
      var d = new Date(iso);
      if (isNaN(d.getTime())) continue;
      t.textContent = format.format(d);
      t.setAttribute('title', zone);
      t.setAttribute('data-zone', zone);
    }
    if (!browser) return;
    var notes = root.querySelectorAll('[data-zone-note]');
    for (var j = 0; j < notes.length; j++) notes[j].textContent = 'Times are shown in your browser\\u2019s time zone, ' + zone + '.';
    // "times in UTC" notes name the zone the times were just rewritten into (form labels keep UTC: fields are read in it).
    var names = root.querySelectorAll('[data-zone-name]');
    for (var k = 0; k < names.length; k++) names[k].textContent = zone;
  }

  // Live pages: the content is fetched again every few seconds and replaced when it changed, unless
  // the reader is typing in a form on it (their input is never thrown away) or the tab is hidden.
  var seconds = main ? Number(main.getAttribute('data-live-seconds')) : 0;
  var served = main && seconds > 0 ? main.innerHTML : null;
  rewriteTimes(document);

  // On a phone the navigation is one line that scrolls sideways: bring the current page's link into it.
  var navList = document.querySelector('nav.main ul');
  var current = navList && navList.querySelector('[aria-current=page]');
  if (current && navList.scrollWidth > navList.clientWidth) navList.scrollLeft = Math.max(0, current.offsetLeft - navList.offsetLeft - 16);
  if (!main || !(seconds > 0) || !window.fetch || !window.DOMParser) return;
  var editing = false;
  main.addEventListener('input', function () { editing = true; });
  main.addEventListener('change', function () { editing = true; });
  var note = document.createElement('p');
  note.className = 'live-note muted';
  note.setAttribute('role', 'status');
  note.setAttribute('data-live-note', '');
  note.textContent = 'This page updates itself every ' + seconds + ' seconds.';
  main.insertBefore(note, main.firstChild);
  var stopped = false;
  function busy() {
    if (editing || document.hidden) return true;
    var a = document.activeElement;
    return !!(a && main.contains(a) && /^(INPUT|SELECT|TEXTAREA)$/.test(a.tagName));
  }
  function refresh() {
    if (stopped || busy()) return;
    fetch(location.href, { credentials: 'same-origin', redirect: 'manual', headers: { 'X-Vigil-Live': '1' } }).then(function (res) {
      if (res.type === 'opaqueredirect' || res.status !== 200) {
        stopped = true;
        note.textContent = res.status === 0 || res.type === 'opaqueredirect' ? 'Updates stopped: your session ended. Reload to sign in again.' : 'Updates stopped (the server answered ' + res.status + '). Reload to try again.';
        return null;
      }
      return res.text();
    }).then(function (html) {
      if (html === null || html === undefined || busy()) return;
      var next = new DOMParser().parseFromString(html, 'text/html').getElementById('main');
      if (!next) return;
      var now = new Date();
      note.textContent = 'Updated at ' + now.toLocaleTimeString() + '; this page updates itself every ' + seconds + ' seconds.';
      if (next.innerHTML === served) return;
      served = next.innerHTML;
      var flash = main.querySelector('.flash');
      main.innerHTML = served;
      if (flash && !main.querySelector('.flash')) main.insertBefore(flash, main.firstChild);
      main.insertBefore(note, main.firstChild);
      rewriteTimes(main);
      main.setAttribute('data-live-updated', now.toISOString());
    }).catch(function () { note.textContent = 'Could not reach Vigil just now; trying again.'; });
  }
  setInterval(refresh, seconds * 1000);
})();
`;
