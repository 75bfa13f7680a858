// The rummy replay's keys: each step of the table is a page of its own (web/rummy.py writes
// the buttons as links), so a key follows the link of its button: ← → a turn, Page Up /
// Page Down a deal. Without this script the links work alike.
(function () {
  "use strict";
  var root = document.querySelector("[data-rummy-replay]");
  if (!root) return;
  var KEYS = {
    ArrowLeft: "prev_turn", ArrowRight: "next_turn", PageUp: "prev_deal", PageDown: "next_deal"
  };

  function typing(element) {
    return element && (element.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(element.tagName));
  }

  document.addEventListener("keydown", function (event) {
    var name = KEYS[event.key];
    if (!name || event.altKey || event.ctrlKey || event.metaKey || typing(document.activeElement)) return;
    var link = root.querySelector('[data-step="' + name + '"][href]');
    event.preventDefault();
    if (link) window.location.assign(link.href);
  });

  // Back at the replay after a step: the keys go on from where they were.
  if (window.location.hash === "#" + root.id) root.focus({ preventScroll: true });
})();
