package web_test

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/benchy-eval/benchy/web/form"
)

// TestBrowserForm14UnknownKey guards the loss issue 14 opens with: typing a weight into the
// form while the YAML misspells weights (weigths:) rewrote the YAML with default weights
// (total: 5 became total: 1), dropped the misspelt section and showed "valid". Now the
// weights are locked while scoring holds the unknown key: the text keeps every value, the
// diagnostic stays, and a form edit elsewhere (the domain) changes only the domain.
func TestBrowserForm14UnknownKey(t *testing.T) {
	requireBrowser(t)
	srv := sharedServer(t)
	b := newBrowser(t, 60*time.Second)
	editor(t, b, srv)
	misspelt := strings.Replace(invoiceYAML(t), "  weights:\n", "  weigths:\n", 1)
	b.setYAML(misspelt)
	poll[bool](b, "the unknown key to be reported", `document.body.innerText.includes("unknown_key")`, 3*time.Second, editorStateJS)
	// The form says which part it leaves alone, and why.
	poll[bool](b, "the locked weights to be explained", `(() => {
		const l = document.getElementById("form-locked");
		return l !== null && l.textContent.includes("scoring.weights") && l.textContent.includes("weigths");
	})()`, 3*time.Second, editorStateJS)

	// The form writes canonical YAML (the unknown key sorted after the known ones), with
	// every value kept.
	keeps := func(what string) string {
		t.Helper()
		got := eval[string](b, `document.getElementById("yaml").value`)
		for _, s := range []string{"  weigths:\n", "    total: 5\n", "    subtotal: 1\n", "# The paper's invoice example"} {
			if !strings.Contains(got, s) {
				t.Errorf("after %s the text lacks %q:\n%s", what, s, got)
			}
		}
		if strings.Contains(got, "weights:") || strings.Contains(got, "total: 7") || strings.Contains(got, "\n    total: 1\n") {
			t.Errorf("after %s the form wrote weights of its own:\n%s", what, got)
		}
		return got
	}
	// A weight typed into the form (its input is disabled: a script's event) is not
	// written; the domain edit after it, which waits for its own change, checks that.
	b.setControl(`#weights input[data-path="total"]`, "7")

	b.setControl("#domain", "legal")
	poll[bool](b, "the domain edit", `document.getElementById("yaml").value.includes("domain: legal")`, 3*time.Second,
		`"YAML: " + JSON.stringify(document.getElementById("yaml").value)`)
	keeps("a domain edit")
	if !strings.Contains(eval[string](b, `document.body.innerText`), "unknown_key") {
		t.Error("the unknown key is no longer reported")
	}
}

// TestBrowserForm14DuplicateKey: a duplicate key pauses the form with the CLI's words
// (duplicate_key at its line), not "does not parse".
func TestBrowserForm14DuplicateKey(t *testing.T) {
	requireBrowser(t)
	srv := sharedServer(t)
	b := newBrowser(t, 60*time.Second)
	editor(t, b, srv)
	b.setYAML(strings.Replace(invoiceYAML(t), "benchmark:\n", "benchmark:\n  task: extract\n", 1))
	poll[bool](b, "the form to pause with duplicate_key", `(() => {
		const p = document.getElementById("form-paused");
		return p !== null && p.textContent.includes("duplicate_key");
	})()`, 3*time.Second, editorStateJS)
}

// TestBrowserForm14LockedDisabled: a part the form leaves alone while the YAML has a problem
// there is greyed out, its controls disabled with the reason as their title, so that nobody
// types into a control whose edit would not be written (they could, and nothing took). The
// other parts stay usable, and fixing the YAML unlocks the part.
func TestBrowserForm14LockedDisabled(t *testing.T) {
	requireBrowser(t)
	srv := sharedServer(t)
	b := newBrowser(t, 60*time.Second)
	editor(t, b, srv)
	valid := invoiceYAML(t)
	b.setYAML(strings.Replace(valid, "  weights:\n", "  weigths:\n", 1))
	poll[bool](b, "the locked weights to be explained", `document.getElementById("form-locked") !== null`, 3*time.Second, editorStateJS)
	state := func() map[string]string {
		return eval[map[string]string](b, `(() => {
			const out = {};
			for (const sel of ["#weights input", "#domain", "#task", "#data-path", "#output-fields input.name", "#add-output", "#system-id"]) {
				const el = document.querySelector(sel);
				if (!el) { out[sel] = "missing"; continue; }
				const fs = el.closest("fieldset.part");
				out[sel] = el.matches(":disabled") ? "disabled: " + (fs ? fs.title : "") : "enabled";
			}
			return out;
		})()`)
	}
	got := state()
	if w := got["#weights input"]; !strings.HasPrefix(w, "disabled: ") || !strings.Contains(w, "weigths") {
		t.Errorf("the weights of a text with weigths: are %q, want disabled with the reason", w)
	}
	for sel, s := range got {
		if sel != "#weights input" && s != "enabled" {
			t.Errorf("%s is %s, want enabled: only the weights are locked", sel, s)
		}
	}
	b.screenshot("form-locked-weights")

	// A model whose section misspells model: the model input is locked, the provider not.
	model := strings.Replace(valid, "ai-system:\n  type: external\n  id: invoice-extractor-v7\n",
		"ai-system:\n  type: model\n  provider: openai\n  modle: gpt-4o-mini\n", 1)
	if model == valid {
		t.Fatal("the example's ai-system is not the external one this test rewrites")
	}
	b.setYAML(model)
	poll[bool](b, "the model input to be locked", `(() => {
		const m = document.getElementById("model"), p = document.getElementById("provider");
		return m !== null && p !== null && m.matches(":disabled") && !p.matches(":disabled");
	})()`, 3*time.Second, editorStateJS)

	// Fixed, nothing is locked.
	b.setYAML(valid)
	poll[bool](b, "every control enabled", `document.getElementById("form-locked") === null &&
		document.querySelectorAll("#form :disabled:not(button.up)").length === 0`, 3*time.Second,
		`"disabled: " + [...document.querySelectorAll("#form :disabled")].map(e => e.outerHTML.slice(0, 80)).join(" | ")`)
}

// TestBrowserForm14Chips: an enum's members edit as chips. Enter adds what was typed as one
// member, commas and all (the input split on commas, so "neutral, mixed" became two
// members); a member already there is refused with a message; × removes one; Backspace in
// the empty input removes the last.
func TestBrowserForm14Chips(t *testing.T) {
	requireBrowser(t)
	srv := sharedServer(t)
	b := newBrowser(t, 60*time.Second)
	editor(t, b, srv)
	b.setYAML(form.New("classify").Canonical())
	const input = `[data-field="output.0"] input.members`
	chips := func() []string {
		return eval[[]string](b, `[...document.querySelectorAll('[data-field="output.0"] .chip-text')].map(c => c.textContent)`)
	}
	waitChips := func(what string, want ...string) {
		t.Helper()
		poll[bool](b, what, `[...document.querySelectorAll('[data-field="output.0"] .chip-text')].map(c => c.textContent).join("\n") === `+js(strings.Join(want, "\n")),
			3*time.Second, `"chips: " + JSON.stringify([...document.querySelectorAll('[data-field="output.0"] .chip-text')].map(c => c.textContent)) + "; YAML: " + JSON.stringify(document.getElementById("yaml").value)`)
	}
	waitChips("the classify template's members", "positive", "negative")

	b.run(chromedp.SendKeys(chromedp.CSS(input), "neutral, mixed"+kb.Enter))
	waitChips("a member with a comma", "positive", "negative", "neutral, mixed")
	b.waitValid("")
	if got := b.yamlText(); !strings.Contains(got, "neutral, mixed") {
		t.Errorf("the YAML lacks the member:\n%s", got)
	}
	if got := eval[string](b, `document.querySelector(`+js(input)+`).value`); got != "" {
		t.Errorf("after Enter the input still holds %q", got)
	}
	b.screenshot("form-enum-chips")

	b.run(chromedp.SendKeys(chromedp.CSS(input), "positive"+kb.Enter))
	poll[bool](b, "a member typed twice to be refused", `document.querySelector(`+js(input)+`).validationMessage.includes("member already")`, 3*time.Second,
		`"message: " + document.querySelector(`+js(input)+`).validationMessage`)
	if got := chips(); len(got) != 3 {
		t.Errorf("a member typed twice: chips %q", got)
	}

	// Typed on without a pause: the input stays the one element, focused, so no key is lost.
	eval[bool](b, `(() => { document.querySelector(`+js(input)+`).value = ""; return true; })()`) // the refused "positive"
	b.run(chromedp.SendKeys(chromedp.CSS(input), "up"+kb.Enter+"down"+kb.Enter))
	waitChips("two members typed at once", "positive", "negative", "neutral, mixed", "up", "down")
	if !eval[bool](b, `document.activeElement === document.querySelector(`+js(input)+`)`) {
		t.Error("after Enter the member input lost the focus")
	}
	b.run(chromedp.SendKeys(chromedp.CSS(input), kb.Backspace+kb.Backspace))
	waitChips("two removed by Backspace", "positive", "negative", "neutral, mixed")

	b.clickJS(`[data-field="output.0"] .chip-x[title="remove negative"]`)
	waitChips("negative removed", "positive", "neutral, mixed")
	b.run(chromedp.SendKeys(chromedp.CSS(input), kb.Backspace))
	waitChips("the last removed by Backspace", "positive")
	if got := b.yamlText(); strings.Contains(got, "negative") || strings.Contains(got, "neutral") {
		t.Errorf("removed members are still in the YAML:\n%s", got)
	}
}

// TestBrowserForm14Focus: a field added with "+ input field", "+ output field" or "+ nested"
// has the focus, its name selected, so that what is typed next names it (the focus stayed
// on the button).
func TestBrowserForm14Focus(t *testing.T) {
	requireBrowser(t)
	srv := sharedServer(t)
	b := newBrowser(t, 60*time.Second)
	editor(t, b, srv)
	b.setYAML(invoiceYAML(t))
	b.waitValid("")
	for _, c := range []struct{ button, name string }{
		{"#add-input", "scan_back"},
		{"#add-output", "currency"},
	} {
		b.run(chromedp.Click(chromedp.CSS(c.button)))
		poll[bool](b, "the new field's name to have the focus after "+c.button, `(() => {
			const a = document.activeElement;
			return a && a.matches("input.name") && a.value === "field" && a.selectionStart === 0 && a.selectionEnd === 5;
		})()`, 3*time.Second, `"focus: " + (document.activeElement && document.activeElement.outerHTML.slice(0, 120))`)
		b.run(chromedp.KeyEvent(c.name))
		poll[bool](b, c.name+" typed into the new field", `document.getElementById("yaml").value.includes(`+js("    "+c.name+": string")+`)`, 3*time.Second,
			`"YAML: " + JSON.stringify(document.getElementById("yaml").value)`)
	}
	// + nested, on an object field: the new child's name (an object starts with "field").
	last := outputRow(eval[int](b, `document.querySelectorAll("#output-fields > li").length`))
	b.setControl(last+"select.type", "object")
	poll[bool](b, "currency to be an object", `document.querySelector(`+js(last+".add-child")+`) !== null`, 3*time.Second, editorStateJS)
	b.run(chromedp.Click(chromedp.CSS(last + ".add-child")))
	poll[bool](b, "the nested field's name to have the focus", `(() => {
		const a = document.activeElement;
		return a && a.matches("input.name") && a.value === "field_2" && a.closest(".fieldtree .fieldtree") !== null;
	})()`, 3*time.Second, `"focus: " + (document.activeElement && document.activeElement.outerHTML.slice(0, 120))`)

	// + parameter, on a model: the new parameter's name.
	b.setControl("#system-type", "model")
	poll[bool](b, "the parameters", `document.getElementById("add-param") !== null`, 3*time.Second, editorStateJS)
	for _, want := range []string{"temperature", "max_tokens"} {
		b.run(chromedp.Click(chromedp.ID("add-param")))
		poll[bool](b, "the new parameter's name to have the focus", `(() => {
			const a = document.activeElement;
			return a && a.closest("#params") !== null && a.matches("input.name") && a.value === `+js(want)+` && a.selectionEnd === `+js(want)+`.length;
		})()`, 3*time.Second, `"focus: " + (document.activeElement && document.activeElement.outerHTML.slice(0, 120))`)
	}
	// A parameter key another parameter has is not written (a duplicate key paused the form).
	second := "#params .field:nth-of-type(2) input.name"
	eval[bool](b, `(() => { const el = document.querySelector(`+js(second)+`); el.focus(); el.value = "temperature"; el.dispatchEvent(new Event("input", {bubbles: true})); return true; })()`)
	poll[bool](b, "a taken parameter key to be refused", `document.querySelector(`+js(second)+`).validationMessage.includes("another parameter is named temperature")`, 3*time.Second,
		`"message: " + document.querySelector(`+js(second)+`).validationMessage`)
	if y := b.yamlText(); strings.Count(y, "temperature:") != 1 || !strings.Contains(y, "max_tokens:") {
		t.Errorf("a taken parameter key was written:\n%s", y)
	}
	eval[bool](b, `(() => { const el = document.querySelector(`+js(second)+`); el.value = "temperature_2"; el.dispatchEvent(new Event("input", {bubbles: true})); return true; })()`)
	poll[bool](b, "the new key", `document.getElementById("yaml").value.includes("temperature_2:")`, 3*time.Second, `"YAML: " + JSON.stringify(document.getElementById("yaml").value)`)

	// The model's inputs write their own keys (go-app keeps an element's first handler).
	b.setControl("#provider", "openai")
	b.setControl("#model", "gpt-4o-mini")
	poll[bool](b, "provider and model in the YAML", `(() => {
		const v = document.getElementById("yaml").value;
		return v.includes("  provider: openai\n") && v.includes("  model: gpt-4o-mini\n") && !v.includes("  id: ");
	})()`, 3*time.Second, `"YAML: " + JSON.stringify(document.getElementById("yaml").value)`)
}

// TestBrowserForm14TypedThenForm: the form catches up with typing in the YAML only once
// the typing pauses; a form edit made before that (in the same moment) starts from what
// was typed, and never writes the form's older document over it.
func TestBrowserForm14TypedThenForm(t *testing.T) {
	requireBrowser(t)
	srv := sharedServer(t)
	b := newBrowser(t, 60*time.Second)
	editor(t, b, srv)
	valid := invoiceYAML(t)
	b.setYAML(valid)
	b.waitValid("")
	typed := strings.Replace(valid, "domain: finance", "domain: legal", 1)
	eval[bool](b, `(() => {
		const y = document.getElementById("yaml");
		y.value = `+js(typed)+`;
		y.dispatchEvent(new Event("input", {bubbles: true}));
		const w = document.querySelector('#weights input[data-path="total"]');
		w.value = "7";
		w.dispatchEvent(new Event("input", {bubbles: true}));
		return true;
	})()`)
	poll[bool](b, "the weight and the typed domain both in the YAML", `(() => {
		const v = document.getElementById("yaml").value;
		return v.includes("domain: legal") && v.includes("    total: 7\n");
	})()`, 3*time.Second, `"YAML: " + JSON.stringify(document.getElementById("yaml").value)`)
	time.Sleep(300 * time.Millisecond) // past the form's catching up
	if got := b.yamlText(); !strings.Contains(got, "domain: legal") || !strings.Contains(got, "    total: 7\n") {
		t.Errorf("after the form caught up the YAML is:\n%s", got)
	}
	if got := eval[string](b, `document.getElementById("domain").value`); got != "legal" {
		t.Errorf("the form's domain shows %q", got)
	}
}

// TestBrowserForm14RenameCollision: a name typed into the form passes through another
// field's name ("supplier" on the way to "supplier_name"): that step is not written (the
// form wrote a duplicate key, paused, dropped the focus and lost "_name"), the input says
// why, and the name typed in the end is written whole. Removing a field puts the focus on
// the one that took its place, not on the page.
func TestBrowserForm14RenameCollision(t *testing.T) {
	requireBrowser(t)
	srv := sharedServer(t)
	b := newBrowser(t, 60*time.Second)
	editor(t, b, srv)
	b.setYAML(invoiceYAML(t))
	b.waitValid("")
	date := outputRow(2) + "input.name"
	b.run(chromedp.Click(chromedp.CSS(date)))
	eval[bool](b, `(document.querySelector(`+js(date)+`).select(), true)`)
	// Two keys in one moment: "e" is written, "r" makes a taken name; the render of "e"
	// must not put "supplie" back under the cursor (it did: "_name" then made supplie_name).
	eval[bool](b, `(() => {
		const el = document.querySelector(`+js(date)+`);
		el.value = "supplie"; el.dispatchEvent(new Event("input", {bubbles: true}));
		el.value = "supplier"; el.dispatchEvent(new Event("input", {bubbles: true}));
		return true;
	})()`)
	time.Sleep(300 * time.Millisecond)
	if got := eval[string](b, `document.querySelector(`+js(date)+`).value`); got != "supplier" {
		t.Errorf("after a taken name the input shows %q, want what was typed", got)
	}
	if msg := eval[string](b, `document.querySelector(`+js(date)+`).validationMessage`); !strings.Contains(msg, "another field here is named supplier") {
		t.Errorf("at the taken name the input says %q", msg)
	}
	b.run(chromedp.KeyEvent("_name"))
	poll[bool](b, "the whole name in the YAML", `(() => {
		const v = document.getElementById("yaml").value;
		return v.includes("    supplier_name: date\n") && v.includes("    supplier: string\n") && v.includes("    supplier_name: 1\n");
	})()`, 3*time.Second, `"YAML: " + JSON.stringify(document.getElementById("yaml").value)`)
	b.waitValid("")
	if !eval[bool](b, `document.activeElement === document.querySelector(`+js(date)+`)`) {
		t.Error("the renamed input lost the focus")
	}

	// × on supplier_name (the second output): the focus goes to the field now second.
	b.run(chromedp.Click(chromedp.CSS(outputRow(2) + "button.remove")))
	poll[bool](b, "the next field's name to have the focus", `(() => {
		const a = document.activeElement;
		return a && a.matches("input.name") && a.value === "supplier";
	})()`, 3*time.Second, `"focus: " + (document.activeElement && document.activeElement.outerHTML.slice(0, 120))`)
}
