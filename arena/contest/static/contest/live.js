// A page's live part (the ladder's standings, a challenge's games and its SPRT line): every few seconds it
// asks the site (the element's data-source) whether its version changed and, when it did, puts the new
// part (rendered and escaped by the site) in place of the old.
(function () {
  "use strict";
  var box = document.querySelector("[data-live]");
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
