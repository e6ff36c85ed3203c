/* The replay page's one script: shows the game at the chosen step from the JSON block
   the page carries. It fetches nothing. Texts are lists of numbered lines (each line is
   HTML the page's maker escaped), so a long game repeats no line; pictures are SVG frames
   made of numbered shapes (runs of shape numbers), drawn into the page's <svg> elements.
   A tap on a picture opens it full-screen at its drawn size, to pan and pinch. */
(function () {
  "use strict";
  var D = JSON.parse(document.getElementById("data").textContent);
  var last = D.steps - 1;
  var step = 0;
  var shown = {}; // player index -> their private panel is open
  var privateSvgs = []; // player index -> the <svg> of their own picture
  var opened = null; // the picture shown full-screen: {svg, home (the element it came from), title}
  var $ = function (id) { return document.getElementById(id); };
  var slider = $("slider");

  function text(id) {
    var out = [], lines = D.texts[id] || [];
    for (var i = 0; i < lines.length; i++) out.push(D.lines[lines[i]]);
    return out.join("");
  }

  function esc(s) {
    return String(s).replace(/[&<>"]/g, function (c) {
      return { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }[c];
    });
  }

  function lineAt(list, k) { // the lines of `list` ([[step, html], ...]) up to step k
    var out = [];
    for (var i = 0; i < list.length && list[i][0] <= k; i++) {
      out.push('<div class="entry' + (list[i][0] === k ? " current" : "") + '" data-step="' +
        list[i][0] + '">' + list[i][1] + "</div>");
    }
    return out;
  }

  function where(k) {
    var period = D.period[k] ? " · " + esc(D.period[k]) : "";
    var head = k === 0 ? "The start: the table as it was set up" : "Step " + k + " of " + last;
    var who = D.actor[k] >= 0 ? D.players[D.actor[k]].who : "";
    var did = "";
    if (k > 0 && who) did = '<div class="did">' + esc(who) + (D.did[k] ? ": “" + esc(D.did[k]) + "”" : " acted") + "</div>";
    return '<div class="step"><strong>' + head + "</strong>" + period + "</div>" + did;
  }

  function picture(svg, index) { // draw picture `index` into `svg`; false where there is none
    var figure = svg.closest("figure");
    if (figure) figure.hidden = index < 0;
    if (index < 0) { // none at this step (enlarged, it stays open, empty)
      svg.removeAttribute("data-picture");
      svg.innerHTML = "";
      return false;
    }
    if (svg.getAttribute("data-picture") === String(index)) return true;
    var pic = D.pictures[index], frame = D.frames[pic[0]], parts = [];
    for (var i = 2; i < frame.length; i += 2) {
      for (var j = 0; j < frame[i + 1]; j++) parts.push(D.shapes[frame[i] + j]);
    }
    svg.setAttribute("viewBox", "0 0 " + frame[0] + " " + frame[1]);
    svg.setAttribute("width", frame[0]);
    svg.setAttribute("height", frame[1]);
    svg.innerHTML = parts.join("");
    svg.setAttribute("aria-label", D.alts[pic[1]].map(function (n) { return D.sentences[n]; }).join(" "));
    svg.setAttribute("data-picture", String(index));
    return true;
  }

  function scores(k) {
    var items = [];
    for (var p = 0; p < D.players.length; p++) {
      var value = D.scores.length ? D.scores[p][k] : null;
      items.push('<li data-player="' + p + '">' + D.players[p].swatch + '<span class="name">' +
        esc(D.players[p].who) + '</span> <span class="score">' + (value === null ? "" : value) + "</span></li>");
    }
    $("legend").innerHTML = items.join("");
    var cursor = document.getElementById("cursor");
    if (cursor) {
      var x = D.chart.x0 + (D.chart.x1 - D.chart.x0) * k / Math.max(last, 1);
      cursor.setAttribute("x1", x);
      cursor.setAttribute("x2", x);
    }
  }

  function privates(k) {
    if (D.publicOnly) return;
    for (var p = 0; p < D.players.length; p++) {
      var panel = $("private-" + p);
      panel.hidden = !shown[p];
      if (!shown[p]) continue;
      var own = text(D.private[p][k]);
      var told = lineAt(D.told[p], k).filter(function (h) { return h.indexOf(' current"') >= 0; });
      panel.querySelector(".own").innerHTML = own || '<div class="faint">Nothing beyond the public board at this step.</div>';
      panel.querySelector(".told").innerHTML = told.length ? "<h5>Told at this step</h5>" + told.join("") : "";
      picture(privateSvgs[p], D.privatePicture[p][k]);
    }
  }

  function stepName(k) { return k === 0 ? "The start" : "Step " + k + " of " + last; }

  function show(k) {
    step = Math.max(0, Math.min(last, k));
    slider.value = step;
    slider.setAttribute("aria-valuetext", stepName(step));
    $("where").innerHTML = where(step);
    var log = lineAt(D.log, step);
    $("now").innerHTML = log.filter(function (h) { return h.indexOf(' current"') >= 0; }).join("");
    var box = $("log");
    box.innerHTML = log.join("") || '<div class="faint">Nothing yet.</div>';
    box.scrollTop = box.scrollHeight;
    picture($("boardSvg"), D.picture[step]);
    if (opened) $("viewerTitle").textContent = viewerTitle();
    $("card").innerHTML = text(D.card[step]);
    $("board").innerHTML = text(D.board[step]);
    scores(step);
    privates(step);
    $("first").disabled = $("prev").disabled = $("prevRound").disabled = step === 0;
    $("last").disabled = $("next").disabled = $("nextRound").disabled = step === last;
    try { history.replaceState(null, "", "#step=" + step); } catch (e) { /* a file viewer may refuse */ }
  }

  function round(direction) { // the start of the round before or after the one shown
    var starts = D.periods.map(function (p) { return p[0]; });
    if (direction > 0) {
      for (var i = 0; i < starts.length; i++) if (starts[i] > step) return show(starts[i]);
      return show(last);
    }
    for (var j = starts.length - 1; j >= 0; j--) if (starts[j] < step) return show(starts[j]);
    show(0);
  }

  function toggles() {
    if (D.publicOnly) {
      $("secrets").innerHTML = '<h3>What each player alone saw</h3><p class="help">This game was ' +
        "abandoned, so its hands, sheets, screens and secret orders stay secret.</p>";
      return;
    }
    var buttons = [], panels = [];
    for (var p = 0; p < D.players.length; p++) {
      var name = esc(D.players[p].who);
      buttons.push('<button type="button" class="toggle" aria-pressed="false" aria-controls="private-' + p +
        '" data-player="' + p + '">' + D.players[p].swatch + "Show " + name + "</button>");
      panels.push('<article class="private" id="private-' + p + '" hidden aria-label="What ' + name +
        ' alone saw"><h4>' + name + ' alone saw</h4><figure class="board" hidden><div class="zoom" title="Enlarge">' +
        '<svg class="pic" role="img" fill="#191919"></svg></div><figcaption class="hint"><span>Tap the picture to ' +
        'enlarge it.</span> <button type="button" class="enlarge" aria-label="Enlarge what ' + name +
        ' alone saw">⤢ Enlarge</button></figcaption></figure>' +
        '<div class="own text"></div><div class="told"></div></article>');
    }
    $("toggles").innerHTML = buttons.join("");
    $("privates").innerHTML = panels.join("");
    for (var q = 0; q < D.players.length; q++) privateSvgs.push($("private-" + q).querySelector("svg"));
    $("toggles").addEventListener("click", function (event) {
      var button = event.target.closest("button.toggle");
      if (!button) return;
      var p = Number(button.getAttribute("data-player"));
      shown[p] = !shown[p];
      button.setAttribute("aria-pressed", String(!!shown[p]));
      button.lastChild.textContent = (shown[p] ? "Hide " : "Show ") + D.players[p].who;
      privates(step);
    });
  }

  function keys(event) {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    var target = event.target;
    if (opened && event.key === "Escape") { closeViewer(); event.preventDefault(); return; }
    var typing = target && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName));
    if (target === slider) typing = event.key !== "PageUp" && event.key !== "PageDown";
    if (typing) return; // the slider moves itself with the arrows, Home and End
    var moves = { ArrowLeft: -1, ArrowRight: 1 };
    if (event.key in moves) show(step + moves[event.key]);
    else if (event.key === "Home") show(0);
    else if (event.key === "End") show(last);
    else if (event.key === "PageUp") round(-1);
    else if (event.key === "PageDown") round(1);
    else return;
    event.preventDefault();
  }

  function chartClicks() { // a click or tap on the chart goes to that step
    var svg = document.getElementById("chart");
    if (!svg) return;
    svg.addEventListener("click", function (event) {
      var box = svg.getBoundingClientRect();
      var scale = box.width / svg.viewBox.baseVal.width;
      var x = (event.clientX - box.left) / scale;
      show(Math.round((x - D.chart.x0) / (D.chart.x1 - D.chart.x0) * last));
    });
  }

  function viewerTitle() { // "The board at step 150 of 354", "What Anna (Germany) alone saw at the start"
    return opened.title + (step === 0 ? " at the start" : " at step " + step + " of " + last);
  }

  function behind(inert) { // while a picture is enlarged, the page behind it takes no focus or tap
    var parts = document.querySelectorAll("body > header, body > main, body > footer, body > .skip");
    for (var i = 0; i < parts.length; i++) parts[i].inert = inert;
  }

  function openViewer(zoom) { // the picture in `zoom` full-screen, at the size it was drawn
    var svg = zoom.querySelector("svg");
    if (!svg || !svg.getAttribute("data-picture")) return;
    var article = zoom.closest("article");
    opened = { svg: svg, home: zoom, title: article ? "What " + article.querySelector("h4").textContent : "The board" };
    $("viewerTitle").textContent = viewerTitle();
    $("viewerBox").appendChild(svg);
    $("viewer").hidden = false;
    document.body.classList.add("viewing");
    behind(true);
    $("viewerClose").focus();
  }

  function closeViewer() {
    if (!opened) return;
    opened.home.appendChild(opened.svg);
    $("viewer").hidden = true;
    document.body.classList.remove("viewing");
    behind(false);
    var button = opened.home.closest("figure").querySelector(".enlarge");
    opened = null;
    show(step); // its figure hidden if there is no picture at this step
    button.focus();
  }

  function zooms() {
    document.addEventListener("click", function (event) { // a tap on a picture or its Enlarge button
      var figure = event.target.closest(".zoom, .enlarge") && event.target.closest("figure");
      if (figure && !opened) openViewer(figure.querySelector(".zoom"));
    });
    $("viewerClose").addEventListener("click", closeViewer);
    $("viewerFit").addEventListener("click", function () {
      var fit = $("viewerBox").classList.toggle("fit");
      $("viewerFit").setAttribute("aria-pressed", String(fit));
    });
  }

  slider.max = last;
  slider.addEventListener("input", function () { show(Number(slider.value)); });
  $("first").addEventListener("click", function () { show(0); });
  $("last").addEventListener("click", function () { show(last); });
  $("prev").addEventListener("click", function () { show(step - 1); });
  $("next").addEventListener("click", function () { show(step + 1); });
  $("prevRound").addEventListener("click", function () { round(-1); });
  $("nextRound").addEventListener("click", function () { round(1); });
  document.addEventListener("keydown", keys);
  if (!D.scores.length) $("h-scores").hidden = true;
  toggles();
  chartClicks();
  zooms();
  var asked = /step=(\d+)/.exec(location.hash);
  show(asked ? Number(asked[1]) : 0);
})();
