/// The triage view's only script, inline: zoom and pan (the tracks are widened and shifted, the
/// bars inside keep their percent places), the axis's ticks for what is visible, and what a
/// click shows. Nothing is fetched; the page reads the same without it, less the interaction.
enum ReportScript {
    static let source = #"""
(function () {
  var root = document.getElementById('triage');
  if (!root || !root.dataset.span) return;
  var span = Number(root.dataset.span), startMs = Number(root.dataset.startMs);
  var startSub = Number(root.dataset.startNs.slice(-6)) / 1e6;
  var view = { a: 0, b: span };
  var tracks = root.querySelectorAll('.tv-track');
  var axis = root.querySelector('.tv-axis');
  var detail = document.getElementById('tv-detail');
  var rows = Array.prototype.slice.call(root.querySelectorAll('table.records tbody tr'));
  var filterInput = document.getElementById('tv-filter');
  var countLabel = document.getElementById('tv-count');
  var range = null;
  var steps = [1e3, 2e3, 5e3, 1e4, 2e4, 5e4, 1e5, 2e5, 5e5, 1e6, 2e6, 5e6, 1e7, 2e7, 5e7, 1e8, 2e8, 5e8,
               1e9, 2e9, 5e9, 1e10, 15e9, 3e10, 6e10, 12e10, 3e11, 6e11, 9e11, 18e11, 36e11, 72e11, 216e11, 432e11, 864e11];
  function pad(n, w) { n = String(n); while (n.length < w) n = '0' + n; return n; }
  function clock(offset, step) {
    var ms = startMs + startSub + offset / 1e6, d = new Date(Math.floor(ms));
    var text = pad(d.getUTCHours(), 2) + ':' + pad(d.getUTCMinutes(), 2);
    if (step < 6e10) text += ':' + pad(d.getUTCSeconds(), 2);
    if (step < 1e9) text += '.' + pad(d.getUTCMilliseconds(), 3);
    if (step < 1e6) text += pad(Math.floor((ms % 1) * 1000), 3);
    return text;
  }
  function duration(ns) {
    if (ns < 1e6) return Math.round(ns / 1e3) + ' µs';
    if (ns < 1e9) return (ns / 1e6).toFixed(1) + ' ms';
    if (ns < 12e10) return (ns / 1e9).toFixed(3) + ' s';
    return Math.floor(ns / 6e10) + ' min ' + pad(Math.floor(ns / 1e9) % 60, 2) + ' s';
  }
  function drawAxis() {
    var width = view.b - view.a, step = steps[steps.length - 1];
    for (var i = 0; i < steps.length; i++) if (width / steps[i] <= 8) { step = steps[i]; break; }
    var html = '';
    for (var t = Math.ceil(view.a / step) * step; t <= view.b; t += step) {
      html += '<span class="tick" style="left:' + ((t - view.a) / width * 100).toFixed(3) + '%">' + clock(t, step) + '</span>';
    }
    axis.innerHTML = html;
    document.getElementById('tv-range').textContent = 'showing ' + duration(width) + ' of ' + duration(span);
  }
  function apply() {
    var width = view.b - view.a;
    for (var i = 0; i < tracks.length; i++) {
      tracks[i].style.width = (span / width * 100) + '%';
      tracks[i].style.left = (-view.a / width * 100) + '%';
    }
    drawAxis();
  }
  function zoomTo(a, b) {
    var width = Math.max(1000, Math.min(span, b - a));
    a = Math.max(0, Math.min(span - width, a));
    view = { a: a, b: a + width };
    apply();
  }
  function zoom(factor, at) {
    var width = view.b - view.a;
    var center = view.a + (at === undefined ? 0.5 : at) * width;
    zoomTo(center - (center - view.a) * factor, center - (center - view.a) * factor + width * factor);
  }
  function showRows(text) {
    var needle = (filterInput.value || '').toLowerCase(), shown = 0;
    for (var i = 0; i < rows.length; i++) {
      var t = Number(rows[i].dataset.t);
      var visible = (!range || (t >= range[0] && t <= range[1])) && (!needle || rows[i].textContent.toLowerCase().indexOf(needle) >= 0);
      rows[i].style.display = visible ? '' : 'none';
      if (visible) shown++;
    }
    countLabel.textContent = shown + ' of ' + rows.length + ' records in the page' + (range ? ' · ' + text : '');
  }
  function select(element, info, a, b, text) {
    var old = root.querySelectorAll('.selected');
    for (var i = 0; i < old.length; i++) old[i].classList.remove('selected');
    if (element) element.classList.add('selected');
    detail.textContent = info;
    range = [a, b];
    showRows(text);
  }
  var lanes = root.querySelector('.tv-lanes'), drag = null, moved = false;
  lanes.addEventListener('wheel', function (event) {
    var body = root.querySelector('.lane-body').getBoundingClientRect();
    event.preventDefault();
    zoom(event.deltaY > 0 ? 1.25 : 0.8, Math.max(0, Math.min(1, (event.clientX - body.left) / body.width)));
  }, { passive: false });
  lanes.addEventListener('mousedown', function (event) { drag = { x: event.clientX, a: view.a, b: view.b }; moved = false; });
  window.addEventListener('mousemove', function (event) {
    if (!drag) return;
    var body = root.querySelector('.lane-body').getBoundingClientRect();
    var shift = (drag.x - event.clientX) / body.width * (drag.b - drag.a);
    if (Math.abs(drag.x - event.clientX) > 3) moved = true;
    zoomTo(drag.a + shift, drag.b + shift);
  });
  window.addEventListener('mouseup', function () { drag = null; });
  lanes.addEventListener('click', function (event) {
    if (moved) return;
    var target = event.target;
    if (target.classList.contains('bar')) {
      var a = Number(target.dataset.start), b = Number(target.dataset.end), margin = Math.max((b - a) * 0.1, 5e7);
      select(target, target.dataset.info, a - margin, b + margin, 'the records during ' + target.dataset.name + ' (±' + duration(margin) + ')');
    } else if (target.classList.contains('mark')) {
      var t = Number(target.dataset.t);
      select(target, target.dataset.info, t - 1e9, t + 1e9, 'the records within 1 s of the ' + target.className.replace('mark ', ''));
      for (var i = 0; i < rows.length; i++) if (Number(rows[i].dataset.t) === t) { rows[i].classList.add('selected'); rows[i].scrollIntoView({ block: 'nearest' }); break; }
    }
  });
  lanes.addEventListener('dblclick', function (event) {
    if (!event.target.classList.contains('bar')) return;
    var a = Number(event.target.dataset.start), b = Number(event.target.dataset.end), margin = (b - a) * 0.25 + 1e6;
    zoomTo(a - margin, b + margin);
  });
  root.querySelectorAll('[data-zoom]').forEach(function (button) {
    button.addEventListener('click', function () {
      if (button.dataset.zoom === 'fit') zoomTo(0, span); else zoom(button.dataset.zoom === 'in' ? 0.5 : 2);
    });
  });
  root.querySelectorAll('tr.slow').forEach(function (row) {
    row.addEventListener('click', function () {
      var a = Number(row.dataset.start), b = Number(row.dataset.end), margin = (b - a) * 0.25 + 1e6;
      zoomTo(a - margin, b + margin);
      select(row, row.textContent, a - margin, b + margin, 'the records during this interval');
    });
  });
  filterInput.addEventListener('input', function () { showRows('the span clicked'); });
  document.getElementById('tv-clear').addEventListener('click', function () { range = null; filterInput.value = ''; showRows(''); });
  apply();
  showRows('');
  root.dataset.ready = '1';
})();
"""#
}
