/** The report page's styles (uPlot's own are added before these). Laid out for a screen 1,400 pixels wide; narrower ones wrap. */
export const REPORT_CSS = `
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0;color:#1b1b1b;background:#f6f7f9}
main{max-width:1360px;margin:0 auto;padding:1.2rem 1.5rem 2rem}
h1{font-size:1.35rem;margin:0;display:inline}h2{font-size:1.05rem;margin:1.6rem 0 .5rem}
header{display:flex;align-items:baseline;gap:.8rem;flex-wrap:wrap;margin-bottom:.4rem}
.mode{font-weight:700;letter-spacing:.06em;padding:.15rem .55rem;border-radius:4px;color:#fff;font-size:.95rem}
.mode-paper{background:#1a73e8}.mode-rehearsal{background:#e37400}.mode-live{background:#c5221f}.mode-unknown{background:#70757a}
.asof{color:#444;margin:0}.asof time{font-weight:600;color:#1b1b1b}
.banner{padding:.6rem .8rem;border-radius:4px;margin:.5rem 0;word-break:break-word}
.chain-ok{background:#e6f4ea;border:1px solid #34a853;font-size:.85rem;padding:.3rem .8rem}
.chain-broken{background:#fde7e7;border:2px solid #d93025;color:#a50e0e;font-weight:bold;font-size:1.05rem}
.warn{background:#fef7e0;border:1px solid #f9ab00}
.cards{display:grid;grid-template-columns:repeat(6,1fr);gap:.7rem;margin:.8rem 0 .3rem}
.card{background:#fff;border:1px solid #dadce0;border-radius:6px;padding:.6rem .8rem}
.card .label{color:#5f6368;font-size:.8rem;text-transform:uppercase;letter-spacing:.04em}
.card .value{font-size:1.45rem;font-weight:600;font-variant-numeric:tabular-nums}
.card .sub{color:#5f6368;font-size:.8rem}
.note{color:#5f6368;margin:.2rem 0}
.panel{background:#fff;border:1px solid #dadce0;border-radius:6px;padding:.6rem .8rem}
.grid{display:grid;grid-template-columns:repeat(3,1fr);gap:.7rem}
.grid2{display:grid;grid-template-columns:2fr 3fr;gap:1rem}
figure{margin:0;background:#fff;border:1px solid #dadce0;border-radius:6px;padding:.4rem .5rem}
figcaption{font-weight:600;margin:0 0 .2rem .3rem}figcaption span{font-weight:400;color:#5f6368}
table{border-collapse:collapse;background:#fff;width:100%;border:1px solid #dadce0}
th,td{border-bottom:1px solid #e8eaed;padding:.3rem .6rem;text-align:left;vertical-align:top}
th{background:#f1f3f4;font-weight:600;white-space:nowrap}
.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
td[title]{cursor:help}
td[data-field=at],td[data-field=expires]{white-space:nowrap}
th[scope=row]{background:#fff}
.u-legend{font-size:.8rem}figure .u-legend{font-size:.75rem}
.pos{color:#137333}.neg{color:#c5221f}
.buy{color:#137333;font-weight:600}.sell{color:#c5221f;font-weight:600}
.reason{max-width:34rem;color:#333}.small{color:#5f6368;font-size:.8rem}
.empty{color:#5f6368;background:#fff;border:1px dashed #dadce0;padding:.5rem .8rem;border-radius:6px}
code{font-size:.85em}
footer{margin-top:2rem;color:#5f6368;font-size:.85rem}
`;
