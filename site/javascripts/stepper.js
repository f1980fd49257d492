/* The stepper of a drawn scenario: Previous / Next and the arrow keys show, one after
   another, the positions the site generator computed with the reference engine and wrote
   into the page as <template> elements.  Nothing about the game is decided here, and no
   word is written here: the controls' words and the status line come from the page.
   Without this script the page shows the start position and the steps table. */
(function () {
  "use strict";

  function setUp(box) {
    var stage = box.querySelector(".fh-stage");
    var templates = box.querySelectorAll("template.fh-frame");
    var controls = box.querySelector(".fh-controls");
    if (!stage || !controls || templates.length === 0) {
      return null;
    }
    var frames = [stage.innerHTML];
    templates.forEach(function (t) { frames.push(t.innerHTML); });
    var status = box.querySelector(".fh-status");
    var said = box.querySelector(".fh-said");
    var previous = box.querySelector(".fh-prev");
    var next = box.querySelector(".fh-next");
    var rows = null;
    if (box.hasAttribute("data-rows")) {
      var found = document.querySelector(box.getAttribute("data-rows"));
      rows = found ? found.querySelectorAll("tbody tr") : null;
    }
    var at = 0;

    function show(index, moved) {
      at = Math.max(0, Math.min(frames.length - 1, index));
      stage.innerHTML = frames[at];
      box.setAttribute("data-at", String(at));
      status.textContent = at === 0
        ? box.getAttribute("data-start")
        : box.getAttribute("data-status").replace("{number}", String(at));
      if (said && moved) {
        // read out to a screen reader: where we are and what the step did
        var caption = stage.querySelector(".fh-caption");
        said.textContent = status.textContent + ". " + (caption ? caption.textContent : "");
      }
      previous.disabled = at === 0;
      next.disabled = at === frames.length - 1;
      if (rows) {
        rows.forEach(function (row, i) {
          row.classList.toggle("fh-current", i === at - 1);
        });
      }
    }

    previous.addEventListener("click", function () { show(at - 1, true); });
    next.addEventListener("click", function () { show(at + 1, true); });
    box.addEventListener("keydown", function (event) {
      if (step(event)) {
        event.stopPropagation();
      }
    });

    function step(event) {
      if (event.altKey || event.ctrlKey || event.metaKey) {
        return false;
      }
      if (event.key === "ArrowRight") {
        show(at + 1, true);
      } else if (event.key === "ArrowLeft") {
        show(at - 1, true);
      } else if (event.key === "Home") {
        show(0, true);
      } else if (event.key === "End") {
        show(frames.length - 1, true);
      } else {
        return false;
      }
      event.preventDefault();
      return true;
    }

    controls.hidden = false;
    box.classList.add("fh-live");
    show(0, false);
    return step;
  }

  function start() {
    var steppers = [];
    document.querySelectorAll(".fh-stepper").forEach(function (box) {
      var step = setUp(box);
      if (step) {
        steppers.push(step);
      }
    });
    // A page with one stepper (a scenario page) steps with the arrow keys wherever the
    // focus is, except in a field; with several, the focused one steps.
    if (steppers.length === 1) {
      document.addEventListener("keydown", function (event) {
        var target = event.target;
        if (target && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName))) {
          return;
        }
        steppers[0](event);
      });
    }
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
