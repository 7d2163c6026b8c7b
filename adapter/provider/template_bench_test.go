package provider

import "testing"

// BenchmarkOpenAITemplateOverhead is BenchmarkOpenAIOverhead with a template: a system part
// with a placeholder and a user part placing both fields. The target for "adapter" (the
// adapter's own work per call, without the network) is at most 50 µs.
func BenchmarkOpenAITemplateOverhead(b *testing.B) {
	benchmarkOverhead(b, "You answer questions about the context. Reply with JSON only.\nThe question: {{question}}\n"+
		"---user---\nContext:\n{{context}}\n\nQuestion: {{question}}\nAnswer with {{{{\"answer\": ...}}.\n")
}
