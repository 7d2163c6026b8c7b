package runs

import (
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/benchy-eval/benchy/api"
	"github.com/benchy-eval/benchy/web/client"
	"github.com/benchy-eval/benchy/web/live"
)

// renderBudget offers to resume a run its budget stopped with a larger one: its max cost
// and max tokens, filled in at twice the run's (as benchy run's hint does), each to be
// raised only (the server refuses a smaller one). Nothing for another run.
func (p *Page) renderBudget(l *live.Run) app.UI {
	r := l.Record
	if r.Reason != api.ReasonBudget || !api.Resumable(r.Status) {
		return app.Div().ID("budget-resume").Hidden(true)
	}
	if p.budgetOf != r.ID {
		p.budgetOf, p.maxCost, p.maxTokens = r.ID, "", ""
		if c := r.Options.MaxCost; c > 0 {
			p.maxCost = strconv.FormatFloat(2*c, 'f', -1, 64)
		}
		if n := r.Options.MaxTokens; n > 0 {
			p.maxTokens = strconv.Itoa(2 * n)
		}
	}
	var body []app.UI
	field := func(id, label, value, now string, set *string) {
		body = append(body, app.Label().For(id).Text(label),
			app.Input().ID(id).Type("number").Min(0).Step(0.000001).Value(value).
				Title("The run's budget is "+now+"; a resume only raises it").OnInput(p.ValueTo(set)))
	}
	if c := r.Options.MaxCost; c > 0 {
		field("max-cost", "Max cost (USD)", p.maxCost, "$"+strconv.FormatFloat(c, 'f', -1, 64), &p.maxCost)
	}
	if n := r.Options.MaxTokens; n > 0 {
		field("max-tokens", "Max tokens", p.maxTokens, strconv.Itoa(n)+" tokens", &p.maxTokens)
	}
	body = append(body, app.Button().ID("resume-budget").Type("submit").Class("primary").Text("Resume with this budget").
		Title("Go on with the examples this run has no result for, within the larger budget"))
	return app.Form().ID("budget-resume").Class("toolbar").NoValidate(true).OnSubmit(p.onResumeBudget).Body(body...)
}

// onResumeBudget resumes the followed run with the budget typed.
func (p *Page) onResumeBudget(ctx app.Context, e app.Event) {
	e.PreventDefault()
	if len(p.followed) != 1 {
		return
	}
	var req api.Resume
	var err error
	if s := strings.TrimSpace(p.maxCost); s != "" {
		if req.MaxCost, err = strconv.ParseFloat(s, 64); err != nil || req.MaxCost <= 0 {
			p.runErr = &client.Error{Code: "bad_input", Message: "the max cost must be a number of US dollars above 0"}
			return
		}
	}
	if req.MaxTokens, err = positive(p.maxTokens, "the max tokens"); err != nil {
		p.runErr = err
		return
	}
	p.resume(ctx, p.followed[0].ID, req)
}
