/**
 * The page's one script, as text (the project compiles without the DOM's types): it draws the
 * charts from the JSON the page carries, with uPlot, and nothing else — every figure is already in
 * the HTML. Times are drawn in UTC whatever the reader's zone. The floats it draws are the exact
 * figures rounded for drawing; the legend shows them rounded, the tables the exact ones on hover.
 * Each chart drawn is listed in `window.jupbotCharts` (id, points, points drawn, fill markers).
 */
export const CHART_SCRIPT = `
(function () {
  var data = JSON.parse(document.getElementById('report-data').textContent);
  window.jupbotCharts = [];
  function utc(ts) { return uPlot.tzDate(new Date(ts * 1e3), 'Etc/UTC'); }
  function money(v) {
    if (v == null) return '\\u2014';
    var a = Math.abs(v);
    var s = a >= 1000 ? a.toLocaleString('en-US', { maximumFractionDigits: 0 })
      : a >= 1 ? a.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })
      : a === 0 ? '0' : a.toPrecision(4);
    return (v < 0 ? '-$' : '$') + s;
  }
  /** Axis ticks: fewer digits than the legend (four significant under a dollar, trailing zeros dropped). */
  function tick(v) {
    if (v == null) return '';
    var a = Math.abs(v);
    var s = a >= 1000 ? a.toLocaleString('en-US', { maximumFractionDigits: 0 })
      : a >= 1 ? a.toLocaleString('en-US', { maximumFractionDigits: 2 }) : a === 0 ? '0' : String(Number(a.toPrecision(4)));
    return (v < 0 ? '-$' : '$') + s;
  }
  /** Time ticks in UTC as ISO reads them: 01-31 for days, 14:30 within a day (with its date where the day changes). */
  function timeTicks(u, splits, axis, space, incr) {
    var day = null;
    return splits.map(function (ts) {
      var iso = new Date(ts * 1000).toISOString();
      var date = iso.slice(5, 10);
      if (incr >= 86400) return date;
      var label = iso.slice(11, 16) + (date !== day ? '\\n' + date : '');
      day = date;
      return label;
    });
  }
  function axes() {
    return [{ values: timeTicks }, { values: function (u, vals) { return vals.map(tick); }, size: axisSize }];
  }
  function axisSize(u, values) {
    var longest = 0;
    (values || []).forEach(function (v) { longest = Math.max(longest, String(v).length); });
    return 18 + longest * 7;
  }
  var time = { value: '{YYYY}-{MM}-{DD} {HH}:{mm} UTC' };
  function record(id, chart, points, markers) {
    window.jupbotCharts.push({ id: id, points: points, drawn: chart ? chart.data[0].length : 0, markers: markers });
  }

  function equity() {
    var id = 'equity-chart';
    var el = document.getElementById(id);
    var pts = data.equity.points;
    if (pts.length === 0) { el.textContent = 'nothing to chart yet: no balances or fills valued at a kept price'; record(id, null, 0, 0); return; }
    var opts = {
      width: el.clientWidth || 1300, height: 300, tzDate: utc,
      series: [time, {
        label: data.equity.source === 'wallet' ? 'equity' : 'equity (fills only)', stroke: '#1a73e8', width: 2,
        fill: 'rgba(26,115,232,0.08)', value: function (u, v) { return money(v); },
        points: { show: pts.length <= 150, size: 6 }, paths: uPlot.paths.stepped({ align: 1 })
      }],
      axes: axes()
    };
    var chart = new uPlot(opts, [pts.map(function (p) { return p[0]; }), pts.map(function (p) { return p[1]; })], el);
    record(id, chart, pts.length, 0);
  }

  function price(c, i) {
    var id = 'price-chart-' + i;
    var el = document.getElementById(id);
    var at = {};
    c.points.forEach(function (p) { at[p[0]] = true; });
    c.fills.forEach(function (f) { at[f[0]] = true; });
    var xs = Object.keys(at).map(Number).sort(function (a, b) { return a - b; });
    function column(list, pick) {
      var by = {};
      list.forEach(function (p) { if (pick(p)) by[p[0]] = p[1]; });
      return xs.map(function (x) { return x in by ? by[x] : null; });
    }
    var marker = function (label, color) {
      return { label: label, stroke: color, fill: color, paths: function () { return null; }, points: { show: true, size: 9, width: 1, stroke: color, fill: color },
        value: function (u, v) { return money(v); } };
    };
    var series = [time, { label: c.symbol, stroke: '#5f6368', width: 1.5, spanGaps: true, value: function (u, v) { return money(v); }, points: { show: false }, paths: uPlot.paths.stepped({ align: 1 }) }];
    var columns = [xs, column(c.points, function () { return true; })];
    // A marker series only for a side the token was traded on: the legend lists nothing empty.
    [['buy', '#188038'], ['sell', '#d93025']].forEach(function (side) {
      if (!c.fills.some(function (f) { return f[2] === side[0]; })) return;
      series.push(marker(side[0], side[1]));
      columns.push(column(c.fills, function (f) { return f[2] === side[0]; }));
    });
    var opts = { width: el.clientWidth || 420, height: 200, tzDate: utc, series: series, axes: axes() };
    var chart = new uPlot(opts, columns, el);
    record(id, chart, c.points.length, c.fills.length);
  }

  equity();
  data.prices.forEach(price);
})();
`;
