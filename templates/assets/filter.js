// Optional name filter for the subjects table; the page works without it.
"use strict";
document.querySelectorAll("input[data-filter-table]").forEach(function (input) {
  var table = document.getElementById(input.dataset.filterTable);
  if (!table) { return; }
  input.closest("p").hidden = false;
  input.addEventListener("input", function () {
    var needle = input.value.trim().toLowerCase();
    table.querySelectorAll("tbody tr[data-filter-text]").forEach(function (row) {
      row.hidden = needle !== "" && row.dataset.filterText.toLowerCase().indexOf(needle) === -1;
    });
  });
});
