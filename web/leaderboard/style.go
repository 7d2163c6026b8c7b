package leaderboard

// boardCSS is the leaderboard's own layout, over the kit's panels, tables and badges.
const boardCSS = `
#board-head h2.mono, #grid-panel h2.mono { font-size: 15px; }
.board-meta { gap: 14px; }
.board-meta code { font: 12px var(--mono); }
.board-meta select { font-size: 12px; }
table.board td { vertical-align: middle; }
table.board td.rank { font-weight: 700; font-size: 15px; color: var(--accent); width: 28px; }
table.board td.system { --clip: 13em; }
table.board td.system strong { font-size: 13px; }
.board-scroll { overflow-x: auto; }
table.heatmap th .system-name { --clip: 16em; }
table.board .entry-score { font-size: 15px; font-weight: 700; }
table.board th.forest-head, table.board td.forest-cell { width: 32%; min-width: 180px; }
.forest-axis { position: relative; height: 14px; margin: 0 6px; }
.forest-axis .tick { position: absolute; transform: translateX(-50%); font: 11px var(--mono); color: var(--muted); }
.forest { position: relative; height: 22px; margin: 0 6px; }
.forest .grid-line { position: absolute; top: 0; bottom: 0; border-left: 1px solid #e6eaf0; }
.forest .leader-line { position: absolute; top: -4px; bottom: -4px; border-left: 1px dashed var(--accent); }
.forest .whisker { position: absolute; top: 10px; height: 2px; background: var(--accent-2); }
.forest .whisker::before, .forest .whisker::after { content: ""; position: absolute; top: -5px; height: 12px; width: 2px; background: var(--accent-2); }
.forest .whisker::before { left: 0; }
.forest .whisker::after { right: 0; }
.forest .point { position: absolute; top: 5px; width: 12px; height: 12px; margin-left: -6px; border-radius: 50%; background: var(--accent); border: 2px solid #fff; box-shadow: 0 0 0 1px var(--accent); }
table.board tr.entry:first-child .forest .point { background: var(--ok); box-shadow: 0 0 0 1px var(--ok); }
table.board td.delta .verdict { margin-top: 2px; }
table.heatmap { width: auto; }
table.heatmap th.dim { text-align: center; }
table.heatmap td.heat { text-align: center; font: 600 12px var(--mono); min-width: 90px; border: 2px solid #fff; }
table.heatmap td.heat.none { background: #f3f5f8; color: var(--muted); }
.heat-legend { display: inline-flex; gap: 6px; align-items: center; }
.heat-scale { display: inline-block; width: 120px; height: 10px; border-radius: 3px; background: linear-gradient(90deg, hsl(0,62%,86%), hsl(62,62%,83%), hsl(125,62%,80%)); }
#board-list td a.board-link { margin-right: 2px; }
`
