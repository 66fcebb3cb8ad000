/**
 * /console/assets/console.js: progressive enhancement only, served from the console's own origin
 * (CSP `script-src 'self'`). For a user who chose no time zone (`<body data-time-zone="browser">`)
 * it rewrites every `<time datetime>` into the browser's zone, naming it (the short name in the
 * text, the IANA name as the tooltip). For a user who chose one (`data-time-zone="Europe/Berlin"`)
 * it rewrites only the times a page still renders in UTC. Without script times stay as rendered,
 * each naming its zone.
 */
export const CONSOLE_JS = `(function () {
  'use strict';
  var chosen = document.body && document.body.getAttribute('data-time-zone');
  if (!chosen) return;
  var browser = chosen === 'browser';
  var zone, format;
  try {
    zone = browser ? Intl.DateTimeFormat().resolvedOptions().timeZone : chosen;
    format = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone: zone, timeZoneName: 'short' });
  } catch (e) { return; }
  if (!zone) return;
  var times = document.querySelectorAll('time[datetime]');
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
  var notes = document.querySelectorAll('[data-zone-note]');
  for (var j = 0; j < notes.length; j++) notes[j].textContent = 'Times are shown in your browser\\u2019s time zone, ' + zone + '.';
})();
`;
