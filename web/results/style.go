package results

// css is the results page's own layout beside benchy.css (a page is a folder): the
// example view, the filters, the charts and the health banner.
const css = `
.health-banner { background: var(--bad); color: #fff; padding: 10px 14px; border-radius: 6px; margin: 0 0 12px; font-size: 15px; white-space: pre-wrap; }
.score-card.not-meaningful .score { color: #9aa3ad; text-decoration: line-through; }
.filters { display: flex; flex-wrap: wrap; gap: 10px 14px; align-items: flex-end; margin-bottom: 10px; }
.filters .filter { display: flex; flex-direction: column; }
.filters .filter label { margin: 0 0 2px; }
.filters input[type=search] { width: 300px; }
.toggle { display: inline-flex; align-items: center; gap: 4px; margin: 0; padding: 6px 12px; border: 2px solid var(--accent-2); border-radius: 6px; font-size: 14px; font-weight: 600; color: var(--accent); background: #eef5fc; cursor: pointer; }
.toggle input { width: 16px; height: 16px; margin: 0 4px 0 0; }
.toggle .count { margin-left: 6px; background: var(--accent-2); color: #fff; border-radius: 10px; padding: 0 8px; font-size: 12px; }
.toggle:has(input:checked) { background: var(--accent-2); color: #fff; }
.toggle:has(input:checked) .count { background: #fff; color: var(--accent-2); }
.match-count { font-weight: 600; font-variant-numeric: tabular-nums; }
table.results tr.result { cursor: pointer; }
table.results td.marks .wrong-values { margin-top: 3px; }
table.results .wrong-value { white-space: nowrap; overflow: hidden; text-overflow: ellipsis; max-width: 320px; }
table.results .wrong-value .expected-value { color: var(--ok); }
table.results .wrong-value .predicted-value { color: var(--bad); font-weight: 600; }
table.results tr.result:hover td { background: #f3f7fc; }
mark.diff { background: #fbd5d1; color: var(--bad); font-weight: 600; border-radius: 2px; padding: 0 1px; }
table.results tr.result:focus { outline: 2px solid var(--accent-2); outline-offset: -2px; }
table.results tr.result:focus td { background: #fff4cc; }
#example-view { margin-bottom: 12px; }
.example-cols { display: grid; grid-template-columns: minmax(300px, 1fr) minmax(0, 1fr); gap: 16px; align-items: start; }
@media (max-width: 1000px) { .example-cols { grid-template-columns: 1fr; } }
.example-part h3 { margin-top: 4px; }
.input-field { margin-bottom: 10px; }
.field-name { margin-bottom: 3px; }
.value.text, .pre-wrap { white-space: pre-wrap; overflow-wrap: anywhere; }
.value.mono { font-family: var(--mono); font-size: 12px; white-space: pre-wrap; overflow-wrap: anywhere; }
.artifact-image { max-width: 100%; max-height: 85vh; border: 1px solid var(--line); border-radius: 4px; background: #fff; display: block; }
.artifact-audio { width: 100%; max-width: 420px; display: block; }
.artifact-path { margin-top: 2px; overflow-wrap: anywhere; }
.artifact-note { overflow-wrap: anywhere; }
pre.artifact-command { font: 12px/1.4 var(--mono); white-space: pre-wrap; overflow-wrap: anywhere; margin: 6px 0; }
.artifact-url { overflow-wrap: anywhere; }
table.compare-fields th { white-space: nowrap; }
table.compare-fields td.expected, table.compare-fields td.prediction { width: 40%; }
table.compare-fields td.mark { display: table-cell; font-size: 18px; font-weight: 700; text-align: center; }
table.compare-fields td.mark.ok { color: var(--ok); }
table.compare-fields td.mark.bad { color: var(--bad); }
table.compare-fields tr.field-bad td.prediction { background: #fdf3f2; }
table.compare-fields td.weight { color: var(--muted); font-variant-numeric: tabular-nums; }
.missing { font-style: italic; }
pre.request { font: 12px/1.45 var(--mono); background: #f3f5f8; border: 1px solid var(--line); border-radius: 5px; padding: 8px; max-height: 420px; overflow: auto; white-space: pre-wrap; }
.charts { display: flex; flex-wrap: wrap; gap: 18px; align-items: flex-start; }
.chart h3 { margin-top: 0; }
.chart svg { display: block; overflow: visible; font: 11px var(--sans); }
.chart svg .axis { fill: var(--muted); }
.chart svg .count, .chart svg .legend { fill: var(--ink); }
.chart svg .mono { font-family: var(--mono); }
.chart svg .bin { fill: var(--accent-2); }
.chart svg .bin.perfect { fill: var(--ok); }
.chart svg .baseline { stroke: var(--line); }
.chart svg .track { fill: #e8edf3; }
.chart svg .fill { fill: var(--accent-2); }
.chart svg .hit { fill: transparent; }
.chart svg .hit:hover { fill: rgba(47, 111, 174, .08); }
.chart svg .seg.valid { fill: var(--ok); }
.chart svg .seg.invalid { fill: var(--bad); }
.chart svg .seg.exec { fill: var(--warn); }
.chart svg .seg.empty { fill: #e8edf3; }
.chart svg .clickable { cursor: pointer; }
.chart svg .clickable:hover { opacity: .8; }
.chart svg .cell rect { fill: var(--bad); }
.chart svg .cell.diagonal rect { fill: var(--ok); }
.chart svg .cell.zero rect { fill: #f3f5f8; }
.chart svg .cell.mixed rect { fill: #d5dae1; stroke: #9aa3ad; stroke-dasharray: 3 2; }
.chart svg .cell-count { fill: var(--ink); font-weight: 600; }
.chart svg .cell-count.light { fill: #fff; }
.chart svg .cell.selected rect, .chart svg .bin.selected { stroke: var(--ink); stroke-width: 3px; }
.filters .chip { font-size: 13px; padding: 2px 0 2px 10px; align-self: flex-end; margin-bottom: 4px; }
.filters .chip button.chip-x { border: 0; background: transparent; color: inherit; padding: 0 8px; font-size: 15px; line-height: 20px; cursor: pointer; }
.filters .chip button.chip-x:hover { color: var(--bad); }
.chart svg .cell.zero .cell-count { fill: #b8c0ca; font-weight: 400; }
`
