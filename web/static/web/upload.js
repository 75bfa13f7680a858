// An upload's page while the workers verify it: every second, ask the server for the part
// of the page that changes (rendered in the reader's language) and put it in place, until
// the upload is finished. Without JavaScript the page refreshes itself (<noscript>).
(function () {
  "use strict";
  var box = document.querySelector("[data-upload-status]");
  if (!box) return;
  var url = box.getAttribute("data-upload-status");
  var every = parseInt(box.getAttribute("data-poll"), 10) || 1000;

  function finished() {
    var state = box.querySelector("[data-finished]");
    return !state || state.getAttribute("data-finished") === "true";
  }

  function poll() {
    if (finished()) {
      box.removeAttribute("aria-busy");
      return;
    }
    box.setAttribute("aria-busy", "true");
    fetch(url, { credentials: "same-origin", headers: { Accept: "text/html" } })
      .then(function (response) {
        if (!response.ok) throw new Error(response.status);
        return response.text();
      })
      .then(function (html) {
        box.innerHTML = html;
        window.setTimeout(poll, every);
      })
      .catch(function () {
        window.setTimeout(poll, every * 3);
      });
  }

  window.setTimeout(poll, every);
})();
