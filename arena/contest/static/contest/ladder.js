// The ladder page's live part: every few seconds it asks the site whether the standings changed and,
// when they did, puts the new ones (rendered and escaped by the site) in place of the old.
(function () {
  "use strict";
  var box = document.getElementById("ladder");
  if (!box || !window.fetch) {
    return;
  }
  var EVERY = 3000;
  function poll() {
    if (document.hidden) {
      setTimeout(poll, EVERY);
      return;
    }
    var address = box.dataset.source + "?since=" + encodeURIComponent(box.dataset.version);
    fetch(address, { credentials: "same-origin", headers: { Accept: "application/json" } })
      .then(function (answer) { return answer.ok ? answer.json() : null; })
      .then(function (data) {
        if (data && typeof data.html === "string" && data.version !== box.dataset.version) {
          box.innerHTML = data.html;
          box.dataset.version = data.version;
        }
      })
      .catch(function () { /* the site is away for a moment: ask again later */ })
      .then(function () { setTimeout(poll, EVERY); });
  }
  setTimeout(poll, EVERY);
})();
