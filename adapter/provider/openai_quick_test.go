package provider

import (
	"reflect"
	"testing"

	"github.com/benchy-eval/benchy/engine"
)

// quickBodies are chat completions of the usual shape and of odd ones: quickReply must read
// each as fullReply does, or leave it to fullReply.
var quickBodies = []string{
	`{"choices":[{"message":{"role":"assistant","content":"{\"answer\":\"42\"}"},"finish_reason":"stop"}],"usage":{"prompt_tokens":12,"completion_tokens":4}}`,
	`{"choices":[{"message":{"content":"{\"answer\":\"42\"}"},"finish_reason":"stop"}],"usage":{"prompt_tokens":12,"completion_tokens":4,"prompt_tokens_details":{"cached_tokens":5}}}`,
	`{"choices":[{"message":{"content":"{\"answer\":\"42\"}"},"finish_reason":"stop"}]}`,
	`{"choices":[{"message":{"content":"{\"answer\":\"42\"}"},"finish_reason":"stop"}],"usage":null}`,
	`{"choices":[{"message":{"content":"{\"answer\":\"42\"}"},"finish_reason":"stop"}],"usage":{"prompt_tokens":-5,"completion_tokens":4}}`,
	`{"choices":[{"message":{"content":"{\"answer\":\"42\"}"},"finish_reason":"stop"}],"usage":{"prompt_tokens":1.5,"completion_tokens":4}}`,
	`{"choices":[{"message":{"content":"{\"answer\":\"42\"}"},"finish_reason":"stop"}],"usage":{"prompt_tokens":"12","completion_tokens":4}}`,
	`{"choices":[{"message":{"content":"{\"answer\":\"42\"}"},"finish_reason":"stop"}],"usage":{"completion_tokens":4}}`,
	`{"choices":[{"message":{"content":"{\"answer\":\"42\"}"},"finish_reason":"stop"}],"Usage":{"prompt_tokens":1,"completion_tokens":1}}`,
	`{"Choices":[{"message":{"content":"{\"answer\":\"1\"}"}}],"choices":[{"message":{"content":"{\"answer\":\"2\"}"}}]}`,
	`{"choices":[{"message":{"content":"{\"answer\":\"42\"}","Content":"x"},"finish_reason":"stop"}]}`,
	`{"choices":[{"message":{"content":null,"refusal":"I can't help."},"finish_reason":"stop"}]}`,
	`{"choices":[{"message":{"content":"{\"answer\":\"4"},"finish_reason":"length"}]}`,
	`{"choices":[{"message":{"content":"no json here"},"finish_reason":"content_filter"}]}`,
	`{"choices":[{"message":{"content":"I think the answer is {\"answer\":\"42\"} indeed"},"finish_reason":"stop"}]}`,
	`{"choices":[{"message":{"content":"no json here"},"finish_reason":"stop"}]}`,
	`{"choices":[{"message":{"content":[{"type":"text","text":"{\"answer\":"},{"type":"text","text":"\"42\"}"},{"type":"image_url"}]},"finish_reason":"stop"}]}`,
	`{"choices":[{"message":{"content":[{"type":5}]},"finish_reason":"stop"}]}`,
	`{"choices":[{"message":{"content":[null]},"finish_reason":"stop"}]}`,
	`{"choices":[{"message":{"content":5},"finish_reason":"stop"}]}`,
	`{"choices":[{"message":{"content":"{\"answer\":\"42\"}"},"finish_reason":null}]}`,
	`{"choices":[{"message":{"content":"{\"answer\":\"42\"}"}},7]}`,
	`{"choices":[{"message":null}]}`,
	`{"choices":[]}`,
	`{"choices":{}}`,
	`{}`,
	`[]`,
	`{"choices":[{"message":{"content":"{\"answer\":\"42\"}"},"finish_reason":"stop"}]} trailing`,
	`{"choices":[{"message":{"content":"{\"answer\":\"42\"}"},"finish_reason":"stop"}],"choices":[]}`,
	"{\"choices\":[{\"message\":{\"content\":\"{\\\"answer\\\":\\\"\xff\\\"}\"},\"finish_reason\":\"stop\"}]}",
	`{"choices":[{"message":{"content":"{\"answer\":\"42\",\"answer\":\"43\"}"},"finish_reason":"stop"}]}`,
	`{"choices":[{"message":{"content":"{\"answer\":\"\ud800\"}"},"finish_reason":"stop"}]}`,
	`<html>gateway</html>`,
}

// TestQuickReply: every body reads the same through quickReply (when it takes it) and
// through fullReply, and the usual shapes take the quick path.
func TestQuickReply(t *testing.T) {
	o := openAI{price: &Price{InputPerMTok: 1, OutputPerMTok: 2, CachedInputPerMTok: ptr(0.5)}}
	for i, body := range quickBodies {
		agree(t, o, []byte(body))
		if _, _, _, ok := o.quickReply([]byte(body)); i < 2 && !ok {
			t.Errorf("body %d, of the usual shape, does not take the quick path", i)
		}
	}
}

// agree checks quickReply against fullReply for one body.
func agree(t *testing.T, o openAI, body []byte) {
	t.Helper()
	out, usage, f, ok := o.quickReply(body)
	if !ok {
		return
	}
	wantOut, wantUsage, wantF := o.fullReply(body, "")
	if !reflect.DeepEqual(out, wantOut) || !reflect.DeepEqual(usage, wantUsage) || !sameFailure(f, wantF) {
		t.Errorf("%s:\nquick %#v %#v %#v\nfull  %#v %#v %#v", body, out, usage, f, wantOut, wantUsage, wantF)
	}
}

func sameFailure(a, b *engine.Failure) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.Status == b.Status && a.Code == b.Code && a.Message == b.Message && reflect.DeepEqual(a.Prediction, b.Prediction)
}

func FuzzQuickReply(f *testing.F) {
	for _, b := range quickBodies {
		f.Add([]byte(b))
	}
	o := openAI{price: &Price{InputPerMTok: 1, OutputPerMTok: 2}}
	f.Fuzz(func(t *testing.T, body []byte) { agree(t, o, body) })
}
