/**
 * /live.js on a status page's host: progressive enhancement only (the page reads the same
 * without it). Every `data-live-seconds` while the tab is visible it fetches the page again — a
 * conditional request the browser answers from its cache on 304 — and swaps in the main content,
 * the title and the footer's "Last updated" when they changed, so a reader sees an incident posted
 * or resolved without reloading. It runs nothing else and sends nothing but that GET.
 */
export const STATUS_LIVE_JS = `(function () {
  'use strict';
  var main = document.getElementById('main');
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
      main.setAttribute('data-live-updated', new Date().toISOString());
    }).catch(function () {});
  }
  setInterval(refresh, seconds * 1000);
})();
`;
