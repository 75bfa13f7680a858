// The keys of a poker hand's replay: each follows the button of the same step, a link the
// server wrote (web/poker.py), so that the keys do what the buttons do.
(function () {
  "use strict";
  var KEYS = {
    ArrowLeft: "prev_action", ArrowRight: "next_action",
    ArrowUp: "prev_stage", ArrowDown: "next_stage",
    PageUp: "prev_hand", PageDown: "next_hand"
  };
  var root = document.querySelector("[data-poker-replay]");
  if (!root) return;
  document.addEventListener("keydown", function (event) {
    var name = KEYS[event.key];
    var active = document.activeElement;
    if (!name || event.altKey || event.ctrlKey || event.metaKey) return;
    if (active && (active.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(active.tagName))) return;
    var link = root.querySelector('[data-step="' + name + '"][href]');
    event.preventDefault();
    if (link) window.location.assign(link.href);
  });
})();
