/**
 * /console/assets/console.js: progressive enhancement only, served from the console's own origin
 * (CSP `script-src 'self'`). For a user who chose no time zone (`<body data-time-zone="browser">`)
 * it rewrites every `<time datetime>` into the browser's zone, naming it (the short name in the
 * text, the IANA name as the tooltip). Without script the page stays in UTC and says UTC.
 */
export const CONSOLE_JS = `(function () {
  'use strict';
  if (!document.body || document.body.getAttribute('data-time-zone') !== 'browser') return;
  var zone;
  try { zone = Intl.DateTimeFormat().resolvedOptions().timeZone; } catch (e) { return; }
  if (!zone) return;
  var format = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone: zone, timeZoneName: 'short' });
  var times = document.querySelectorAll('time[datetime]');
  for (var i = 0; i < times.length; i++) {
    var t = times[i];
    var iso = t.getAttribute('datetime');
    if (!iso || iso.indexOf('T') < 0) continue;
    var d = new Date(iso);
    if (isNaN(d.getTime())) continue;
    t.textContent = format.format(d);
    t.setAttribute('title', zone);
    t.setAttribute('data-zone', zone);
  }
  var notes = document.querySelectorAll('[data-zone-note]');
  for (var j = 0; j < notes.length; j++) notes[j].textContent = 'Times are shown in your browser\\u2019s time zone, ' + zone + '.';
})();
`;
