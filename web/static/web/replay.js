// The replay: steps the table through a game with its buttons and the arrow keys, without
// asking the server. The page holds the whole game (a JSON timeline written by
// web/replays.py) and the words of the status line in the reader's language; the server
// rendered the first moment, so the page works without this script too. Where moments have
// addresses (a stored game), the address follows each step, so any moment can be shared.
// The stepping order is web/steps.py's.
(function () {
  "use strict";

  function lengths(line, deal) {
    return line.deals[deal - 1].tricks.map(function (t) { return t.plays.length; });
  }

  function start(line, deal) {
    if (deal < 1 || deal > line.deals.length) return null;
    return lengths(line, deal).length ? [deal, 1, 0] : [deal, null, null];
  }

  function end(line, deal) {
    if (deal < 1 || deal > line.deals.length) return null;
    var counts = lengths(line, deal);
    return counts.length ? [deal, counts.length, counts[counts.length - 1]] : [deal, null, null];
  }

  function same(a, b) {
    return a !== null && b !== null && a[0] === b[0] && a[1] === b[1] && a[2] === b[2];
  }

  function steps(line, pos) {
    var deal = pos[0], trick = pos[1], play = pos[2];
    if (trick === null || play === null) {
      return {
        prev_deal: start(line, deal - 1),
        prev_trick: end(line, deal - 1),
        prev_play: end(line, deal - 1),
        next_play: start(line, deal + 1),
        next_trick: start(line, deal + 1),
        next_deal: start(line, deal + 1)
      };
    }
    var counts = lengths(line, deal);
    var count = counts[trick - 1], last = counts.length;
    var atStart = trick === 1 && play === 0;
    var nextPlay, nextTrick, prevPlay, prevTrick;
    if (play < count) {
      nextPlay = [deal, trick, play + 1];
      nextTrick = [deal, trick, count];
    } else if (trick < last) {
      nextPlay = [deal, trick + 1, Math.min(1, counts[trick])];
      nextTrick = [deal, trick + 1, counts[trick]];
    } else {
      nextPlay = nextTrick = start(line, deal + 1);
    }
    if (play > 1 || (play === 1 && trick === 1)) prevPlay = [deal, trick, play - 1];
    else if (trick > 1) prevPlay = [deal, trick - 1, counts[trick - 2]];
    else prevPlay = end(line, deal - 1);
    if (trick > 1) prevTrick = [deal, trick - 1, counts[trick - 2]];
    else if (play > 0) prevTrick = [deal, 1, 0];
    else prevTrick = end(line, deal - 1);
    var nextDeal = start(line, deal + 1);
    if (nextDeal === null && !same(pos, end(line, deal))) nextDeal = end(line, deal);
    return {
      prev_deal: atStart ? start(line, deal - 1) : [deal, 1, 0],
      prev_trick: prevTrick,
      prev_play: prevPlay,
      next_play: nextPlay,
      next_trick: nextTrick,
      next_deal: nextDeal
    };
  }

  function query(line, pos) {
    if (pos[1] === null) return "deal=" + pos[0];
    if (pos[2] === lengths(line, pos[0])[pos[1] - 1]) return "deal=" + pos[0] + "&trick=" + pos[1];
    return "deal=" + pos[0] + "&trick=" + pos[1] + "&play=" + pos[2];
  }

  // A query such as "deal=3&trick=2&play=1" as a position; null if the game lacks it.
  function parse(line, text) {
    var params = new URLSearchParams(text);
    var deal = parseInt(params.get("deal"), 10);
    if (!(deal >= 1 && deal <= line.deals.length)) return null;
    var counts = lengths(line, deal);
    if (!counts.length) return [deal, null, null];
    var trick = params.has("trick") ? parseInt(params.get("trick"), 10) : counts.length;
    if (!(trick >= 1 && trick <= counts.length)) return null;
    var play = params.has("play") ? parseInt(params.get("play"), 10) : counts[trick - 1];
    if (!(play >= 0 && play <= counts[trick - 1])) return null;
    return [deal, trick, play];
  }

  function escape(text) {
    var span = document.createElement("span");
    span.textContent = String(text);
    return span.innerHTML;
  }

  // A word template with its values: the template escaped, the values already HTML.
  function fill(template, values) {
    var text = escape(template);
    Object.keys(values).forEach(function (name) {
      text = text.split("{" + name + "}").join(values[name]);
    });
    return text;
  }

  // The table at a position, as web/replays.py's _table computes it.
  function table(line, pos) {
    var data = line.deals[pos[0] - 1];
    var n = line.players.length;
    var gone = [], taken = [], i;
    for (i = 0; i < n; i++) { gone.push([]); taken.push(0); }
    var onTable = [], notes = [], complete = false, done = false, winner = null;
    var trick = pos[1], play = pos[2];
    if (trick === null) {
      done = true;
    } else {
      for (var t = 1; t <= trick; t++) {
        var entry = data.tricks[t - 1], plays = entry.plays, last = t === trick;
        var count = last ? play : plays.length;
        for (var k = 0; k < count; k++) {
          // A play is [seat, play, card] and, when it has findings, their notes.
          var item = plays[k];
          if (item[2] !== null) gone[item[0]].push(item[2]);
          if (last) { onTable.push(item); notes = notes.concat(item[3] || []); }
        }
        if (count === plays.length) {
          if (entry.winner !== null) taken[entry.winner] += 1;
          if (last) { complete = true; winner = entry.winner; notes = notes.concat(entry.notes || []); }
        }
      }
      done = complete && trick === data.tricks.length;
    }
    var leader = trick === null ? null : data.tricks[trick - 1].leader;
    // The seat whose play comes next in the trick on the table; null once it is complete.
    var next = null;
    if (trick !== null && play < data.tricks[trick - 1].plays.length) {
      next = data.tricks[trick - 1].plays[play][0];
    }
    return {
      data: data, gone: gone, taken: taken, onTable: onTable, notes: notes,
      complete: complete, done: done, winner: winner, leader: leader, next: next
    };
  }

  function statusHtml(line, words, pos, state) {
    var data = state.data, players = line.players;
    var parts = [
      fill(words.deal, { deal: String(pos[0]), deals: String(line.deals.length) }),
      fill(words.cards, { cards: String(data.cards) }),
      escape(data.kind_words),
      fill(words.trump, { trump: data.trump })
    ];
    if (data.trump_card) parts.push(fill(words.turned, { card: data.trump_card }));
    parts.push(fill(words.dealer, { name: escape(players[data.dealer]) }));
    var tricks = data.tricks.length;
    if (pos[1] === null) parts.push(escape(words.sheet));
    else if (pos[1] === 1 && pos[2] === 0) parts.push(escape(words.start));
    else if (state.complete && state.winner !== null) {
      parts.push(fill(words.won, {
        trick: String(pos[1]), tricks: String(tricks), name: escape(players[state.winner])
      }));
    } else {
      parts.push(fill(words.play, {
        trick: String(pos[1]), tricks: String(tricks), play: String(pos[2]),
        plays: String(data.tricks[pos[1] - 1].plays.length)
      }));
    }
    if (state.done && pos[1] !== null) parts.push(escape(words.over));
    return parts.join(" · ");
  }

  function noteItem(note) {
    return '<li class="severity-' + escape(note.severity) + '"><span class="severity severity-' +
      escape(note.severity) + '">' + escape(note.label) + "</span> " + note.html + "</li>";
  }

  function Replay(root) {
    this.root = root;
    this.line = JSON.parse(document.getElementById(root.dataset.replay).textContent);
    this.words = JSON.parse(document.getElementById(root.dataset.words).textContent);
    this.address = root.hasAttribute("data-address");
    // The moment the server rendered, which the address asked for.
    this.pos = parse(this.line, root.dataset.moment) || start(this.line, 1);
  }

  Replay.prototype.go = function (pos) {
    if (pos === null) return;
    this.pos = pos;
    this.render();
    if (this.address) {
      var url = new URL(window.location.href);
      url.search = "?" + query(this.line, pos);
      url.hash = this.root.id;
      window.history.replaceState(null, "", url.toString());
    }
  };

  Replay.prototype.render = function () {
    var line = this.line, pos = this.pos, words = this.words, root = this.root;
    var state = table(line, pos), data = state.data;
    root.dataset.moment = query(line, pos);
    root.querySelector("[data-field=status]").innerHTML = statusHtml(line, words, pos, state);
    var rows = root.querySelectorAll("tr[data-seat]");
    Array.prototype.forEach.call(rows, function (row) {
      var seat = parseInt(row.dataset.seat, 10);
      var hand = data.hands[seat].slice();
      state.gone[seat].forEach(function (card) {
        var at = hand.indexOf(card);
        if (at >= 0) hand.splice(at, 1);
      });
      var roles = [];
      if (seat === data.dealer) roles.push(words.deals);
      if (seat === state.leader) roles.push(words.leads);
      if (seat === state.next) roles.push(words.next);
      if (state.complete && seat === state.winner) roles.push(words.takes);
      row.classList.toggle("next", seat === state.next);
      row.querySelector("[data-field=roles]").textContent = roles.join(", ");
      row.querySelector("[data-field=bid]").textContent = data.bids[seat];
      row.querySelector("[data-field=taken]").textContent =
        pos[1] === null ? data.taken[seat] : String(state.taken[seat]);
      var running = (state.done ? data.after : data.before)[seat];
      row.querySelector("[data-field=running]").innerHTML = escape(running) +
        (state.done && data.scores[seat] !== "" ? ' <span class="score">(' + escape(data.scores[seat]) + ")</span>" : "");
      var played = "";
      state.onTable.forEach(function (item) {
        if (item[0] !== seat) return;
        var classes = [];
        if (item[3]) classes.push("offending");
        if (state.complete && state.winner === seat) classes.push("won");
        played += '<span class="' + classes.join(" ") + '">' + line.faces["play:" + item[1]] + "</span>";
      });
      row.querySelector("[data-field=played]").innerHTML = played;
      row.querySelector("[data-field=hand]").innerHTML = hand.map(function (card) {
        return line.faces[card] || escape(card);
      }).join(" ");
    });
    var notes = state.notes.concat(data.notes);
    root.querySelector("[data-field=notes]").innerHTML = notes.length
      ? '<ul class="findings">' + notes.map(noteItem).join("") + "</ul>" : "";
    var to = steps(line, pos), self = this;
    Array.prototype.forEach.call(root.querySelectorAll("[data-step]"), function (button) {
      var target = to[button.dataset.step];
      if (target === null) {
        button.removeAttribute("href");
        button.removeAttribute("data-moment");
        button.setAttribute("aria-disabled", "true");
      } else {
        var text = query(line, target);
        button.setAttribute("href", (self.address ? "?" + text : "") + "#" + root.id);
        button.dataset.moment = text;
        button.removeAttribute("aria-disabled");
      }
    });
  };

  Replay.prototype.step = function (name) {
    this.go(steps(this.line, this.pos)[name]);
  };

  var KEYS = {
    ArrowLeft: "prev_play", ArrowRight: "next_play",
    ArrowUp: "prev_trick", ArrowDown: "next_trick",
    PageUp: "prev_deal", PageDown: "next_deal"
  };

  function typing(element) {
    return element && (element.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(element.tagName));
  }

  var replays = {};
  Array.prototype.forEach.call(document.querySelectorAll("[data-replay]"), function (root) {
    replays[root.id] = new Replay(root);
  });
  var ids = Object.keys(replays);
  if (!ids.length) return;

  document.addEventListener("click", function (event) {
    var link = event.target.closest("a[data-moment]");
    if (!link || event.ctrlKey || event.metaKey || event.shiftKey || event.button !== 0) return;
    var root = link.closest("[data-replay]");
    var replay = root ? replays[root.id] : replays[link.dataset.replayTarget];
    if (!replay) return;
    var pos = parse(replay.line, link.dataset.moment);
    if (pos === null) return;
    event.preventDefault();
    replay.go(pos);
    if (!root) {
      replay.root.scrollIntoView({ block: "start" });
      replay.root.focus({ preventScroll: true });
    }
  });

  // The keys drive the replay that holds the focus, else the page's only (or first) one.
  document.addEventListener("keydown", function (event) {
    var name = KEYS[event.key];
    if (!name || event.altKey || event.ctrlKey || event.metaKey || typing(document.activeElement)) return;
    var root = document.activeElement && document.activeElement.closest
      ? document.activeElement.closest("[data-replay]") : null;
    if (!root && ids.length > 1) return;
    var replay = root ? replays[root.id] : replays[ids[0]];
    event.preventDefault();
    replay.step(name);
  });
})();
