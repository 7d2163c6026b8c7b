package report

import "html/template"

// page is the report's one template, in the parts Write writes in turn (head, then each
// section, its runs, each run's examples one by one, their ends, and the tail), so the
// report streams. It names nothing outside the file: no script, no stylesheet, no font
// or image by URL; the SVG is inline HTML (no xmlns needed).
var page = template.Must(template.New("report").Funcs(funcs).Parse(`{{define "head"}}<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}}</title>
<style>
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0 auto;max-width:1100px;padding:1rem 1.5rem;color:#1d1d1f;background:#fff}
h1{font-size:1.5rem}h2{font-size:1.25rem;border-bottom:2px solid #ddd;padding-bottom:.2rem;margin-top:2.5rem}h3{font-size:1.1rem;margin-top:2rem}h4{margin:1.2rem 0 .4rem}
table{border-collapse:collapse;margin:.4rem 0}th,td{border:1px solid #ddd;padding:.2rem .5rem;text-align:left;vertical-align:top}th{background:#f5f5f7}
code,.v{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:12.5px;white-space:pre-wrap;word-break:break-word}
.score{font-size:1.6rem;font-weight:600}.muted{color:#666}.note{background:#f5f5f7;padding:.4rem .6rem;border-left:3px solid #999}
.banner{background:#fde8e8;border:1px solid #d33;color:#8a1111;padding:.6rem .8rem;border-radius:4px;font-weight:600}
.ok{color:#1a7f37}.bad{color:#c62828}.example{border:1px solid #ddd;border-radius:4px;padding:.5rem .8rem;margin:.8rem 0}
.charts{display:flex;flex-wrap:wrap;gap:1.5rem}.charts figure{margin:0}figcaption{font-weight:600;margin-bottom:.3rem}
svg text{font-size:11px;fill:#333}.bar{fill:#4a7fd4}.valid{fill:#2e9b4f}.invalid{fill:#e0a800}.error{fill:#d33}
.cell{fill:#f2f2f2}.s0{fill:#dbe7fb}.s1{fill:#b5cdf5}.s2{fill:#8eb2ef}.s3{fill:#6797e8}.s4{fill:#3f7ce0}.diag{stroke:#1a7f37;stroke-width:2}.cell.mixed{fill:#e2e2e2;stroke:#999;stroke-dasharray:3 2}svg text.light{fill:#fff}
.dim{display:inline-block;height:10px;background:#4a7fd4;vertical-align:middle}
nav a{margin-right:.8rem}.legend{margin:.3rem 0}.legend span{margin-right:1rem;white-space:nowrap}td.delta code{white-space:nowrap}
</style>
</head>
<body>
<h1>{{.Title}}</h1>
<p class="muted">A self-contained report written by benchy: it needs no server or network. Values longer than 2000 bytes and names longer than 80 characters are cut; <code>benchy runs export</code> has them whole.</p>
{{if .Mixed}}<p class="note" id="mixed">These runs are of different benchmarks: each has its own section, and no leaderboard ranks runs of different benchmarks together.</p>{{end}}
<nav>{{range .Sections}}{{$s := .}}{{range .Runs}}<a href="#{{.Anchor}}">{{label $s.Benchmark}} · {{.Label}}</a>{{end}}{{end}}{{with .MoreLinks}} <span class="muted" data-more-links="{{.}}">and {{.}} more runs</span>{{end}}</nav>
{{end}}{{define "section"}}{{$s := .}}
<section class="benchmark" id="{{.Anchor}}">
<h2>{{label .Benchmark}}</h2>
<p>benchmark hash <code>{{.BenchmarkHash}}</code></p>
{{range .Boards}}
<h3>Leaderboard on dataset <code>{{short .DatasetDigest}}</code></h3>
<table class="leaderboard">
<tr><th>rank</th><th>system</th><th>score</th><th>95% interval</th><th>vs leader</th><th>examples</th><th>valid/invalid/errors</th><th>run</th></tr>
{{range .Entries}}<tr{{if given $s.Section.Runs .Run}} class="given"{{end}}><td>{{.Rank}}</td><td>{{label .System}}</td><td>{{f4 .Score}}</td><td>[{{f4 .Interval.Low}}, {{f4 .Interval.High}}]</td>{{with versus .}}<td class="delta" data-verdict="{{.Verdict}}">{{if .Delta}}<code>{{.Delta}}</code> <code class="muted">{{.Interval}}</code> {{end}}<span class="{{.Class}}">{{.Verdict}}</span></td>{{end}}<td>{{.Examples}}</td><td>{{.Valid}}/{{.InvalidOutputs}}/{{.ExecutionErrors}}</td><td><code>{{.Run}}</code></td></tr>
{{end}}</table>
<p class="muted">The latest full run of each AI-system on this dataset, from the workspace's store; vs leader is the score minus the leader's, paired over the examples, with its interval: significant when the interval excludes 0.{{range .NotRanked}} Not ranked: {{label .System}} ({{clip .Reason}}).{{end}}</p>
{{end}}
{{end}}{{define "run"}}<article class="run" id="{{.Anchor}}" data-run="{{.Run.Run.ID}}">
<h3>{{.Label}} <span class="muted">run <code>{{.Run.Run.ID}}</code> · {{.Run.Run.Status}}</span></h3>
{{if .Health.Failed}}<p class="banner" data-health>Failed infrastructure, not a score: {{.Sentence}}</p>{{end}}
{{if .Health.Failed}}<p class="muted"><span class="score muted" data-score>{{.Score}}</span> <span data-interval>{{.Interval}}</span> <span data-not-meaningful>not meaningful: the setup failed, not the system</span></p>{{else}}<p><span class="score" data-score>{{.Score}}</span> <span data-interval>{{.Interval}}</span></p>{{end}}
<table class="identity">
<tr><th>benchmark hash</th><td><code>{{.Run.Run.BenchmarkHash}}</code></td></tr>
<tr><th>dataset digest</th><td><code>{{if .Run.Run.DatasetDigest}}{{.Run.Run.DatasetDigest}}{{else}}not recorded{{end}}</code></td></tr>
<tr><th>IR hash</th><td><code>{{.Run.Run.IRHash}}</code></td></tr>
{{with .Run.Run.System}}<tr><th>AI-system</th><td>{{label .Label}} <code>{{.Hash}}</code>{{if .Binding}} · binding {{label .Binding}}{{end}}{{if .PromptSHA256}} · prompt sha256 <code>{{short .PromptSHA256}}</code>{{end}}</td></tr>{{end}}
{{with .Rep}}<tr><th>finished</th><td data-finished>{{when .FinishedAt}}{{if .Limit}} · first {{.Limit}} examples{{end}}</td></tr>{{with .Usage}}<tr><th>usage</th><td>{{.InputTokens}} input tokens, {{.OutputTokens}} output tokens</td></tr>{{if .CostUSD}}<tr><th>cost</th><td data-cost>{{usd .CostUSD}} ({{.PricedExamples}} examples priced{{with .CachedCostUSD}}; {{usd .}} of it replayed from the response cache, not paid again{{end}})</td></tr>{{end}}{{end}}{{with .Cache}}<tr><th>response cache</th><td data-cache>{{.Hits}} hits, {{.Misses}} misses</td></tr>{{end}}{{end}}
</table>
<table class="counts">
<tr><th>examples</th>{{range .Status}}<th>{{.Name}}</th>{{end}}</tr>
<tr><td data-count="examples">{{.Charts.Summary.Examples}}</td>{{$n := .Charts.Summary.Examples}}{{range .Status}}<td data-count="{{.Name}}">{{.Count}} <span class="muted">({{pct .Count $n}})</span></td>{{end}}</tr>
</table>
<div class="charts">
<figure><figcaption>Status</figcaption>
<svg width="400" height="24" viewBox="0 0 400 24" role="img" aria-label="status breakdown">{{range .StatusBar}}<rect class="{{.Class}}" x="{{.X}}" y="{{.Y}}" width="{{.W}}" height="{{.H}}"><title>{{.Title}}</title></rect>{{end}}</svg>
<p class="legend">{{range .Status}}<span data-legend="{{.Name}}"><svg width="10" height="10" aria-hidden="true"><rect class="{{.Class}}" x="0" y="0" width="10" height="10"></rect></svg> {{.Name}}: {{.Count}}</span>{{end}}</p>
</figure>
<figure><figcaption>Scores of valid examples</figcaption>
{{with .Histogram}}{{if .Empty}}<p class="muted">no valid example</p>{{else}}<svg width="{{.W}}" height="{{.H}}" viewBox="0 0 {{.W}} {{.H}}" role="img" aria-label="score histogram">{{range .Bars}}<rect class="{{.Class}}" x="{{.X}}" y="{{.Y}}" width="{{.W}}" height="{{.H}}"><title>{{.Title}}</title></rect><text x="{{.X}}" y="{{.Y}}" dy="-2">{{.Label}}</text>{{end}}{{range .Labels}}<text x="{{.X}}" y="{{.Y}}" text-anchor="middle">{{.Label}}</text>{{end}}</svg>{{end}}{{end}}
</figure>
{{if .Dimensions}}<figure><figcaption>Accuracy by dimension</figcaption>
<table class="dimensions"><tr><th>dimension</th><th>weight</th><th>accuracy</th><th></th><th>correct/valid</th></tr>
{{range .Dimensions}}<tr><td>{{.Path}}</td><td>{{.Weight}}</td><td>{{.Accuracy}}</td><td><svg width="100" height="10" role="img" aria-label="{{.Accuracy}}"><rect class="bar" x="0" y="0" width="{{.Width}}" height="10"></rect></svg></td><td>{{.Correct}}/{{.Valid}}</td></tr>
{{end}}</table>{{with .MoreDims}}<p class="muted" data-more-dimensions>{{.}}.</p>{{end}}</figure>{{end}}
{{range .Confusion}}<figure data-confusion="{{.Path}}"><figcaption>Confusion: {{.Path}} <span class="muted">(rows expected, columns predicted{{if .Others}}; the most frequent members, {{.Others}} others counted together{{end}})</span></figcaption>
{{if .TooMany}}<p class="muted">{{.TooMany}} labels: too many to draw here.</p>{{else}}<svg width="{{.W}}" height="{{.H}}" viewBox="0 0 {{.W}} {{.H}}" role="img" aria-label="confusion matrix of {{.Path}}">{{range .Heads}}<text x="{{.X}}" y="{{.Y}}" text-anchor="start" transform="rotate(-45 {{.X}} {{.Y}})">{{.Label}}</text>{{end}}{{range .Rows}}<text x="{{.X}}" y="{{.Y}}" text-anchor="end">{{.Label}}</text>{{end}}{{range .Cells}}<g><rect class="{{.Class}}" x="{{.X}}" y="{{.Y}}" width="{{.W}}" height="{{.H}}"><title>{{.Title}}</title></rect><text{{if .Text}} class="{{.Text}}"{{end}} x="{{.X}}" y="{{.Y}}" dx="4" dy="20">{{.Label}}</text></g>{{end}}</svg>{{end}}{{with .Legend}}<p class="legend muted" data-members="{{len .}}">{{range .}}<span><b>{{.Short}}</b> {{.Name}}</span> {{end}}</p>{{end}}
</figure>{{end}}
{{if .MoreMatrix}}<p class="muted" data-more-matrices>{{.MoreMatrix}} more enum dimensions have a confusion matrix not drawn here; the results page draws each.</p>{{end}}
</div>
<h4 data-failing-total="{{.FailingTotal}}">Failing examples ({{.FailingTotal}})</h4>
{{end}}{{define "example"}}<div class="example" data-example="{{.Index}}">
<p><b>example {{.Index}}</b> · {{.Status}} · score {{.Score}}{{with .Usage}} · {{.InputTokens}}+{{.OutputTokens}} tokens, {{.LatencyMS}} ms{{with .CostUSD}}, {{usd .}}{{end}}{{if .Cached}}{{if deref .Cached}} · <span data-cached>cached</span>{{end}}{{end}}{{end}}</p>
{{with .Error}}<p class="bad"><code>{{.Code}}</code>{{if .Path}} at <code>{{key .Path}}</code>{{end}}: <span class="v">{{.Message}}</span></p>{{end}}
{{if .NoInput}}<p class="muted">The run recorded no input or expected output for this example.</p>{{else}}{{$art := .Artifact}}<table class="input"><tr><th>input</th><th>value</th></tr>
{{range .Inputs}}<tr><td>{{key .Path}}</td><td class="v">{{.Expected}}{{if index $art (path .Path)}} <span class="muted">(a file, relative to the dataset)</span>{{end}}</td></tr>{{end}}</table>{{if .MoreIn}}<p class="muted" data-more-fields>and {{.MoreIn}} more input fields.</p>{{end}}{{end}}
<table class="fields"><tr><th></th><th>field</th><th>expected</th><th>prediction</th><th>weight</th></tr>
{{range .Fields}}<tr><td class="{{if eq .Mark "✓"}}ok{{else if eq .Mark "✗"}}bad{{end}}">{{.Mark}}</td><td>{{key .Path}}</td><td class="v">{{.Expected}}</td><td class="v">{{.Predicted}}</td><td>{{if .Scored}}{{.Weight}}{{end}}</td></tr>{{end}}</table>{{with .MoreOut}}<p class="muted" data-more-fields>{{.}}; <code>benchy runs show --example</code> has them all.</p>{{end}}
{{if .Clipped}}<p class="muted">Some values were cut by the store; the export has them whole.</p>{{end}}
</div>
{{end}}{{define "runEnd"}}{{if .None}}<p class="muted" data-failing="0">No example failed: every one was valid and scored 1.</p>{{else if .Cut}}<p class="note" data-cut="{{.NotShown}}">Cut here: {{.Text}}; {{if .Full}}the report reached its bound of {{.Bound}} MiB{{else}}a report lists at most {{.Budget}} MiB of examples{{end}} (<code>benchy runs export</code> has them all).</p>{{else if .NotShown}}<p class="muted" data-not-listed="{{.NotShown}}">{{.Text}} (benchy report --examples N lists more).</p>{{end}}
</article>
{{end}}{{define "sectionEnd"}}</section>
{{end}}{{define "reportCut"}}<p class="note" data-report-cut="{{.NotShown}}">Cut here: the report reached its bound of {{.Bound}} MiB; {{.NotShown}} more {{if eq .NotShown 1}}run is{{else}}runs are{{end}} not shown, from <code>{{.First}}</code> on (a report of fewer runs shows them).</p>
{{end}}{{define "tail"}}</body>
</html>
{{end}}`))
