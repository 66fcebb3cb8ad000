/**
 * /live.js on a status page's host: progressive enhancement only (the page reads the same
 * without it). Every `data-live-seconds` while the tab is visible it fetches the page again — a
 * conditional request the browser answers from its cache on 304 — and swaps in the main content,
 * the title and the footer's "Last updated" when they changed, so a reader sees an incident posted
 * or resolved without reloading. It runs nothing else and sends nothing but that GET.
 *
 * Times: the page renders every `<time datetime>` in the page's zone, named. Where the browser
 * tells its zone, this rewrites each into the visitor's zone (the short name in the text, the IANA
 * name as the tooltip, as console.js does) and the footer's zone note says which zone that is;
 * without script the page stays in its own zone.
 */
export const STATUS_LIVE_JS = `(function () {
  'use strict';
  var main = document.getElementById('main');
  var zone = null, format = null;
  try {
    zone = Intl.DateTimeFormat().resolvedOptions().timeZone || null;
    if (zone) format = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone: zone, timeZoneName: 'short' });
  } catch (e) { zone = null; format = null; }
  function rewriteTimes(root) {
    if (!zone || !format) return;
    var times = root.querySelectorAll('time[datetime]');
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
    var notes = root.querySelectorAll('[data-zone-note]');
    for (var j = 0; j < notes.length; j++) notes[j].textContent = 'Times are shown in your time zone, ' + zone + '.';
  }
  rewriteTimes(document);
  var seconds = main ? Number(main.getAttribute('data-live-seconds')) : 0;
  if (!main || !(seconds > 0) || !window.fetch || !window.DOMParser) return;
  var served = main.innerHTML;
  function refresh() {
    if (document.hidden) return;
    fetch(location.href, { credentials: 'same-origin' }).then(function (res) {
      return res.status === 200 ? res.text() : null;
    }).then(function (html) {
      if (!html) return;
      var next = new DOMParser().parseFromString(html, 'text/html');
      var nextMain = next.getElementById('main');
      if (!nextMain || nextMain.innerHTML === served) return;
      served = nextMain.innerHTML;
      main.innerHTML = served;
      document.title = next.title;
      var footer = document.querySelector('.site-footer');
      var nextFooter = next.querySelector('.site-footer');
      if (footer && nextFooter) footer.innerHTML = nextFooter.innerHTML;
      rewriteTimes(document);
      main.setAttribute('data-live-updated', new Date().toISOString());
    }).catch(function () {});
  }
  setInterval(refresh, seconds * 1000);
})();
`;
