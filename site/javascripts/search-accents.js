/* Search that ignores accents: "misere" finds what "misère" finds, and the other way round.

   Material's search (lunr in a web worker) matches words as they are written, and its
   settings offer no accent folding (its pipeline is stemmer, stop words and trimmer only).
   So each query is widened before it reaches the worker: every word is sent as its
   unaccented form followed by every accented form of it that the site's search index holds
   ("misere" and "misère" both become "misere misère"); lunr then finds the pages holding
   any of them, in the same order whichever form was typed.  The
   accented forms are read once from the same index the worker loads, on the first query.
   The words shown in the results stay as the pages write them. */
(function () {
  "use strict";

  var QUERY = 2; // the type of Material's message that sends a query to its search worker
  var forms = null;

  function fold(word) {
    return word.normalize("NFD").replace(/[\u0300-\u036f]/g, "");
  }

  function indexAddress() {
    var config = document.getElementById("__config");
    var base = config ? JSON.parse(config.textContent).base : ".";
    return new URL(base.replace(/\/?$/, "/") + "search/search_index.json", location.href).href;
  }

  function accentedForms() {
    if (forms === null) {
      forms = fetch(indexAddress())
        .then(function (response) { return response.json(); })
        .then(function (index) {
          var found = new Map();
          index.docs.forEach(function (doc) {
            var words = ((doc.title || "") + " " + (doc.text || "")).toLowerCase()
              .match(/[\p{L}\p{M}]*[^\x00-\x7f][\p{L}\p{M}]*/gu) || [];
            words.forEach(function (word) {
              var plain = fold(word);
              if (plain !== word) {
                if (!found.has(plain)) { found.set(plain, new Set()); }
                found.get(plain).add(word);
              }
            });
          });
          return found;
        });
    }
    return forms;
  }

  function widen(query, found) {
    if (query.indexOf('"') >= 0) { return query; } // a phrase: left as typed
    return query.split(/\s+/).map(function (term) {
      if (!/^[\p{L}\p{M}\p{N}]+$/u.test(term)) { return term; }
      // the same words whichever form was typed, so both find the same pages in the same order
      var plain = fold(term.toLowerCase());
      return [plain].concat(Array.from(found.get(plain) || []).sort()).join(" ");
    }).join(" ");
  }

  var post = Worker.prototype.postMessage;
  Worker.prototype.postMessage = function (message) {
    var worker = this;
    var sent = arguments;
    if (message && message.type === QUERY && typeof message.data === "string" && message.data.trim()) {
      accentedForms().then(
        function (found) { post.call(worker, { type: QUERY, data: widen(message.data, found) }); },
        function () { post.apply(worker, sent); }
      );
      return undefined;
    }
    return post.apply(this, arguments);
  };
})();
