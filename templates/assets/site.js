// release-tracker: optional enhancements. Every page works without this script:
// sorting and filtering are plain links to pre-rendered pages, search lists everything.
"use strict";
(function () {
  // The Hub's gated setting in words: tracker/website/observed.py GATED_WORDS
  // (tests/test_site_exports.py checks the two agree).
  var GATED_WORDS = {"false": "no", "auto": "yes, access granted automatically",
                     "manual": "yes, access granted by the repo's owners"};
  // "checked 3 h ago" from a <time data-ago>; the UTC time stays in its title.
  function ago(iso) {
    var s = (Date.now() - Date.parse(iso)) / 1000;
    if (!(s >= 0)) { return null; }
    if (s < 90) { return "just now"; }
    if (s < 5400) { return Math.round(s / 60) + " min ago"; }
    if (s < 129600) { return Math.round(s / 3600) + " h ago"; }
    return Math.round(s / 86400) + " days ago";
  }
  // Worked out from each <time>'s own datetime when the page is read, never at build
  // time (a published page would go stale), and again every minute and whenever the tab
  // comes back into view: a page left open still says how long ago. Without JavaScript
  // the UTC time the build wrote stays.
  function refreshAgo() {
    document.querySelectorAll("time[data-ago]").forEach(function (t) {
      var text = ago(t.getAttribute("datetime"));
      if (text) { t.textContent = text; }
    });
  }
  refreshAgo();
  window.setInterval(refreshAgo, 60000);
  document.addEventListener("visibilitychange", refreshAgo);
  // The footer's "Data as of" link gets its time from assets/as-of.js (that time moves
  // with every check, so pages other than the index's do not carry it: asof.py).
  var asOf = window.TRACKER_AS_OF;
  document.querySelectorAll("a[data-as-of]").forEach(function (a) {
    if (!asOf) { return; }
    if (!asOf.data_as_of) { a.textContent = "no successful watch check yet"; return; }
    var t = document.createElement("time");
    t.setAttribute("datetime", asOf.data_as_of);
    t.textContent = asOf.text;
    a.textContent = "the latest successful watch check, ";
    a.appendChild(t);
  });

  // A link to a claim inside a closed <details> opens it (Chromium does so itself on
  // fragment navigation; this covers other browsers and links within the page).
  function reveal() {
    var id = decodeURIComponent(location.hash.slice(1));
    var target = id && document.getElementById(id);
    for (var el = target; el; el = el.parentElement) {
      if (el.tagName === "DETAILS") { el.open = true; }
    }
    if (target) { target.scrollIntoView(); }
  }
  window.addEventListener("hashchange", reveal);
  if (location.hash) { reveal(); }

  // The subjects table: a name filter and in-place sorting by a column's data-sort.
  var table = document.getElementById("subjects");
  if (table) {
    var body = table.tBodies[0];
    var count = table.querySelector("[data-count]");
    var total = body.querySelectorAll("tr[data-slug]").length;
    var input = document.querySelector("input[data-filter-table]");
    if (input) {
      input.closest("p").hidden = false;
      input.addEventListener("input", function () {
        var needle = input.value.trim().toLowerCase(), shown = 0;
        body.querySelectorAll("tr[data-filter-text]").forEach(function (row) {
          row.hidden = needle !== "" && row.dataset.filterText.toLowerCase().indexOf(needle) === -1;
          if (!row.hidden) { shown += 1; }
        });
        if (count) {
          count.textContent = (shown === total ? total : shown + " of " + total) +
            (total === 1 ? " subject" : " subjects");
        }
      });
    }
    var heads = table.tHead.rows[0].cells;
    Array.prototype.forEach.call(heads, function (th, col) {
      var link = th.querySelector("a");
      if (!link || !th.dataset.key) { return; }
      link.addEventListener("click", function (ev) {
        ev.preventDefault();
        var ascending = th.getAttribute("aria-sort") === "descending" ||
          (!th.hasAttribute("aria-sort") && /^(name|price-)/.test(th.dataset.key));
        var rows = Array.prototype.slice.call(body.querySelectorAll("tr[data-slug]"));
        rows.sort(function (a, b) {
          var x = a.cells[col].dataset.sort, y = b.cells[col].dataset.sort;
          if (col === 0) { x = a.cells[0].textContent; y = b.cells[0].textContent; }
          if (x === undefined) { return y === undefined ? 0 : 1; }
          if (y === undefined) { return -1; }
          var nx = parseFloat(x), ny = parseFloat(y);
          var cmp = isNaN(nx) || isNaN(ny) ? x.localeCompare(y) : nx - ny;
          return ascending ? cmp : -cmp;
        });
        rows.forEach(function (r) { body.appendChild(r); });
        Array.prototype.forEach.call(heads, function (h) { h.removeAttribute("aria-sort"); });
        th.setAttribute("aria-sort", ascending ? "ascending" : "descending");
        // the arrow and caption say the order shown (▴ ascending, ▾ descending)
        table.querySelectorAll("thead .sort-arrow").forEach(function (a) { a.remove(); });
        var arrow = document.createElement("span");
        arrow.className = "sort-arrow";
        arrow.setAttribute("aria-hidden", "true");
        arrow.textContent = ascending ? " ▴" : " ▾";
        th.appendChild(arrow);
        var sortedBy = table.querySelector("[data-sorted-by]");
        if (sortedBy) {
          sortedBy.textContent = "sorted by " + link.textContent +
            (ascending ? " (ascending)" : " (descending)");
        }
        table.dataset.sorted = th.dataset.key;
      });
    });
  }

  function params(name) {
    return new URLSearchParams(location.search).getAll(name).filter(Boolean);
  }
  function el(tag, text, cls) {
    var e = document.createElement(tag);
    if (text !== undefined) { e.textContent = text; }
    if (cls) { e.className = cls; }
    return e;
  }
  function link(href, text) { var a = el("a", text); a.href = href; return a; }

  // compare.html: the chosen subjects side by side, from assets/table-data.js.
  var compare = document.getElementById("compare");
  if (compare && window.TRACKER_TABLE) {
    var data = window.TRACKER_TABLE, root = compare.dataset.root || "";
    var chosen = params("s").join(",").split(",").filter(Boolean).slice(0, 4);
    var picked = data.subjects.filter(function (s) { return chosen.indexOf(s.slug) !== -1; });
    var note = document.getElementById("compare-note");
    // slugs no subject has (a typo, a renamed subject): named, not silently left out
    var known = data.subjects.map(function (s) { return s.slug; });
    var unknown = chosen.filter(function (slug, i) {
      return known.indexOf(slug) === -1 && chosen.indexOf(slug) === i;
    });
    if (unknown.length) {
      var warn = el("p", (unknown.length === 1 ? "No subject has the slug " :
        "No subjects have the slugs ") + unknown.map(function (u) {
          return "\u201c" + u + "\u201d"; }).join(", ") + ": check the address, or choose on the ",
        "compare-unknown");
      warn.id = "compare-unknown";
      warn.setAttribute("role", "status");
      warn.appendChild(link(root + "index.html", "Subjects"));
      warn.appendChild(document.createTextNode(" page."));
      compare.insertBefore(warn, compare.firstChild);
    }
    // the built page shows a default comparison (compare.py); a choice of two or more
    // known subjects replaces it and ticks their boxes in the picker
    var builtIn = document.getElementById("compare-default");
    if (picked.length < 2) {
      // the page's own note, with its link to the Subjects page, when nothing is shown
      note.hidden = !!builtIn && !chosen.length;
    } else {
      note.hidden = true;
      if (builtIn) { builtIn.remove(); }
      document.querySelectorAll("#compare-pick input[name=s]").forEach(function (box) {
        box.checked = chosen.indexOf(box.value) !== -1;
      });
      // a phone shows each cell under its attribute with the subject's name (site.css)
      var named = function (td, s) { td.setAttribute("data-label", s.name); return td; };
      // a table cell (api/table.json): its best-supported figure, verdict, note and
      // how many sources stated a contradicted figure (noted, never the value)
      // "—" (no figure: none stated that holds) reads "no figure" to a screen reader,
      // as the index's and the card's empty cells
      var none = function (td) {
        var dash = el("span", "—"); dash.setAttribute("aria-hidden", "true");
        td.appendChild(dash); td.appendChild(el("span", "no figure", "visually-hidden"));
      };
      var fill = function (td, cell) {
        if (!cell) { none(td); return; }
        if (cell.text === "—") { none(td); } else { td.textContent = cell.text; }
        if (cell.status && cell.text !== "—") {
          td.appendChild(el("span", " " + cell.status, "verdict-word"));
        }
        if (cell.observed) { td.appendChild(el("span", " observed", "verdict-word")); }
        // notes as the built table writes them (compare.py cell_parts): each on its line
        var small = function (text) { td.appendChild(el("small", " (" + text + ")", "verdict-word cmp-note")); };
        if (cell.note) { small(cell.note); }
        if (cell.observed_text && cell.observed_text !== cell.text) {
          small("observed " + cell.observed_text);
        }
        if (cell.contradicted) {
          small("✗ " + cell.contradicted + (cell.contradicted === 1 ? " source" : " sources") +
            " contradicted");
        }
        if (cell.aside) { small("not compared here: " + cell.aside); }
      };
      // a cell that fill draws as a bare "—" (no figure, no note): a row of them all is
      // left out, as the built table leaves it out (compare.py compare_rows)
      var bare = function (cell) {
        return !cell || (cell.text === "—" && !cell.observed && !cell.note &&
          !(cell.observed_text && cell.observed_text !== cell.text) && !cell.contradicted &&
          !cell.aside);
      };
      var figureRow = function (label, cellOf) {
        if (picked.every(function (s) { return bare(cellOf(s)); })) { return; }
        var tr = tb.insertRow(), th = el("th", label); th.scope = "row"; tr.appendChild(th);
        picked.forEach(function (s) { fill(named(tr.insertCell(), s), cellOf(s)); });
      };
      var t = el("table", undefined, "side-by-side");
      var cap = t.createCaption();
      cap.textContent = "Your choice (choose others above)";
      var cols = el("colgroup"); cols.appendChild(el("col", undefined, "fig"));
      picked.forEach(function () { cols.appendChild(el("col")); });
      t.appendChild(cols);
      var head = t.createTHead().insertRow();
      // the corner names its column for screen readers (axe: empty-table-header)
      head.appendChild(el("th")).appendChild(el("span", "Figure", "visually-hidden"));
      head.cells[0].scope = "col";
      picked.forEach(function (s) {
        var th = el("th"); th.scope = "col";
        th.appendChild(link(root + "subjects/" + s.slug + "/index.html", s.name));
        head.appendChild(th);
      });
      var tb = t.createTBody();
      // Weights, licence and gating first: the questions the index answers first.
      [["Weights", function (s) { return s.weights.text; }],
       ["Licence", function (s) {
         var st = s.license_stated;  // the sources' licence while none is observed
         var n = s.license_contradicted;  // noted as every cell notes it
         return (s.license || (st ? st.text + " (stated, " + (st.status || "no verdict yet") +
           (st.disputed ? ": sources disagree" : "") + ")" : "unknown")) +
           (n ? " (✗ " + n + (n === 1 ? " source" : " sources") + " contradicted)" : "");
       }],
       // gated as the Hub gives it (false, "auto", "manual", null), in the page's words
       ["Gated", function (s) { return GATED_WORDS[String(s.gated)] || "unknown"; }]].forEach(function (row) {
        var tr = tb.insertRow(), th = el("th", row[0]); th.scope = "row"; tr.appendChild(th);
        picked.forEach(function (s) {
          var td = named(tr.insertCell(), s);
          // dates kept whole (span.nobr, as marks.nobreak does in the pages' HTML)
          row[1](s).split(/(\d{4}-\d{2}(?:-\d{2})?)/).forEach(function (part, i) {
            td.appendChild(i % 2 ? el("span", part, "nobr") : document.createTextNode(part));
          });
          // sources promising different dates: what each promised, on hover
          if (row[0] === "Weights" && s.weights.promise_detail) { td.title = s.weights.promise_detail; }
        });
      });
      data.columns.forEach(function (c) {
        figureRow(c.label, function (s) { return s.cells[c.key]; });
      });
      // every benchmark any compared subject has, beyond the index's score columns
      var shown = data.columns.map(function (c) { return c.label; }), more = [];
      picked.forEach(function (s) {
        Object.keys(s.scores || {}).forEach(function (name) {
          if (shown.indexOf(name) === -1 && more.indexOf(name) === -1) { more.push(name); }
        });
      });
      more.forEach(function (name) {
        figureRow(name, function (s) { return (s.scores || {})[name]; });
      });
      compare.appendChild(t);
    }
  }

  // search.html: filter the full list of entries (assets/search-index.js) by words.
  var results = document.getElementById("search-results");
  if (results && window.TRACKER_SEARCH) {
    var q = (params("q")[0] || "").trim();
    var box = document.getElementById("q");
    if (box) { box.value = q; }
    var words = q.toLowerCase().split(/\s+/).filter(Boolean);
    var status = document.getElementById("search-status");
    if (words.length) {
      var base = results.dataset.root || "";
      var rank = { s: 0, o: 1, c: 2 }, kinds = { s: "subject", o: "source", c: "claim" };
      // a claim's fifth item is its verdict's mark; its word (search.py) is searched
      var marks = window.TRACKER_MARKS || {};
      var more = function (e) { return e[0] === "c" ? marks[e[4]] || "" : e[4] || ""; };
      // the verdict as the site's badges show it: mark and word, never colour alone
      var verdict = function (mark) {
        var word = marks[mark], b = el("span", undefined, "verdict verdict-" + (word || "none"));
        if (!word) { b.textContent = "no verdict yet"; return b; }
        var m = el("span", mark); m.setAttribute("aria-hidden", "true");
        b.appendChild(m); b.appendChild(document.createTextNode(" " + word));
        return b;
      };
      // a claim matches on its own words and its subject's (the entry it follows), not
      // on its source's title (its sixth item, shown only): that is the source's entry
      var subject = "";
      var hits = window.TRACKER_SEARCH.filter(function (e) {
        var own = e[1] + " " + e[3] + " " + more(e);
        if (e[0] === "s") { subject = own; }
        var text = (e[0] === "c" ? own + " " + subject : own).toLowerCase();
        return words.every(function (w) { return text.indexOf(w) !== -1; });
      }).sort(function (a, b) { return rank[a[0]] - rank[b[0]]; });  // stable: built order
      var list = document.getElementById("search-all");
      if (list) { list.hidden = true; }
      status.textContent = hits.length + (hits.length === 1 ? " result" : " results") + " for “" + q + "”";
      var ul = el("ul", undefined, "hits");
      hits.slice(0, 200).forEach(function (h) {
        var li = el("li");
        li.appendChild(el("span", kinds[h[0]], "kind"));
        li.appendChild(document.createTextNode(" "));
        li.appendChild(link(base + h[2], h[1]));
        if (h[0] === "c") { li.appendChild(document.createTextNode(" ")); li.appendChild(verdict(h[4])); }
        var detail = [h[3], h[0] === "c" ? h[5] : ""].filter(Boolean).join(" · ");
        if (detail) { li.appendChild(el("small", " " + detail, "muted")); }
        ul.appendChild(li);
      });
      results.appendChild(ul);
    }
  }
})();
