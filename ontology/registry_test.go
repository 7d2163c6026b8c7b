package ontology

import (
	"regexp"
	"slices"
	"strings"
	"testing"
)

// iso6391 is the full list of the 183 current ISO 639-1 codes (bh withdrawn; iw, in, ji, jw,
// mo, sh long withdrawn).
const iso6391 = `aa ab ae af ak am an ar as av ay az ba be bg bi bm bn bo br bs ca ce ch co cr cs cu
cv cy da de dv dz ee el en eo es et eu fa ff fi fj fo fr fy ga gd gl gn gu gv ha he hi ho hr ht hu
hy hz ia id ie ig ii ik io is it iu ja jv ka kg ki kj kk kl km kn ko kr ks ku kv kw ky la lb lg li
ln lo lt lu lv mg mh mi mk ml mn mr ms mt my na nb nd ne ng nl nn no nr nv ny oc oj om or os pa pi
pl ps pt qu rm rn ro ru rw sa sc sd se sg si sk sl sm sn so sq sr ss st su sv sw ta te tg th ti tk
tl tn to tr ts tt tw ty ug uk ur uz ve vi vo wa wo xh yi yo za zh zu`

func mustV1(t *testing.T) *Registry {
	t.Helper()
	r, ok := Lookup(Version)
	if !ok || r == nil {
		t.Fatalf("Lookup(%q) = %v, %v; want the embedded registry", Version, r, ok)
	}
	return r
}

func TestLookup(t *testing.T) {
	tests := []struct {
		version string
		ok      bool
	}{
		{"1.0", true},
		{"2.0", false},
		{"1", false},
		{"1.0.0", false},
		{"v1.0", false},
		{" 1.0", false},
		{"", false},
	}
	for _, tt := range tests {
		r, ok := Lookup(tt.version)
		if ok != tt.ok {
			t.Errorf("Lookup(%q) ok = %v, want %v", tt.version, ok, tt.ok)
			continue
		}
		if !ok && r != nil {
			t.Errorf("Lookup(%q) = %v, want nil registry", tt.version, r)
		}
		if ok && (r == nil || r.Version != tt.version) {
			t.Errorf("Lookup(%q) returned registry %+v, want version %q", tt.version, r, tt.version)
		}
	}
	if Version != "1.0" {
		t.Errorf("Version = %q, want 1.0", Version)
	}
}

func TestVersions(t *testing.T) {
	got := Versions()
	if want := []string{"1.0"}; !slices.Equal(got, want) {
		t.Fatalf("Versions() = %v, want %v", got, want)
	}
	for _, v := range got {
		if _, ok := Lookup(v); !ok {
			t.Errorf("Versions() lists %q but Lookup(%q) fails", v, v)
		}
	}
}

func TestTasks(t *testing.T) {
	r := mustV1(t)
	want := []string{"extract", "classify", "transcribe", "translate"}
	if got := r.TaskIDs(); !slices.Equal(got, want) {
		t.Errorf("TaskIDs() = %v, want %v", got, want)
	}
	if len(r.Tasks) != len(want) {
		t.Fatalf("len(Tasks) = %d, want %d", len(r.Tasks), len(want))
	}
	for i, task := range r.Tasks {
		if task.ID != want[i] {
			t.Errorf("Tasks[%d].ID = %q, want %q", i, task.ID, want[i])
		}
		if !task.Supported {
			t.Errorf("task %q is not Supported", task.ID)
		}
		if len(task.Rules) == 0 {
			t.Errorf("task %q has no Rules", task.ID)
		}
		for j, rule := range task.Rules {
			if strings.TrimSpace(rule) == "" {
				t.Errorf("task %q rule %d is blank", task.ID, j)
			}
		}
		if strings.TrimSpace(task.Description) == "" {
			t.Errorf("task %q has an empty description", task.ID)
		}
	}
}

func TestDomains(t *testing.T) {
	r := mustV1(t)
	ids := r.DomainIDs()
	if len(ids) < 20 {
		t.Errorf("registry has %d domains, want at least 20", len(ids))
	}
	if len(ids) != len(r.Domains) {
		t.Errorf("DomainIDs() has %d ids, Domains has %d entries", len(ids), len(r.Domains))
	}
	for _, id := range []string{"general", "finance", "legal", "medical", "retail", "education", "science", "government", "customer_support", "news"} {
		if !r.HasDomain(id) {
			t.Errorf("HasDomain(%q) = false, want true", id)
		}
	}
	idRE := regexp.MustCompile(`^[a-z][a-z_]*[a-z]$`)
	for _, d := range r.Domains {
		if !idRE.MatchString(d.ID) {
			t.Errorf("domain id %q is not lower snake_case", d.ID)
		}
		if strings.TrimSpace(d.Description) == "" {
			t.Errorf("domain %q has an empty description", d.ID)
		}
	}
}

func TestLanguages(t *testing.T) {
	r := mustV1(t)
	codes := r.LanguageCodes()
	if len(codes) != 183 {
		t.Errorf("registry has %d languages, want the 183 current ISO 639-1 codes", len(codes))
	}
	if len(codes) != len(r.Languages) {
		t.Errorf("LanguageCodes() has %d codes, Languages has %d entries", len(codes), len(r.Languages))
	}
	codeRE := regexp.MustCompile(`^[a-z]{2}$`)
	for i, c := range codes {
		if !codeRE.MatchString(c) {
			t.Errorf("language code %q does not match ^[a-z]{2}$", c)
		}
		if i > 0 && codes[i-1] >= c {
			t.Errorf("language codes not sorted and unique: %q then %q", codes[i-1], c)
		}
	}
	if want := strings.Fields(iso6391); !slices.Equal(codes, want) {
		t.Errorf("language codes differ from ISO 639-1:\n got %v\nwant %v", codes, want)
	}
	for _, l := range r.Languages {
		if strings.TrimSpace(l.Name) == "" || strings.TrimSpace(l.Native) == "" {
			t.Errorf("language %q has an empty name or native name: %+v", l.Code, l)
		}
	}

	tests := []struct {
		code string
		want bool
	}{
		{"en", true}, {"es", true}, {"zh", true}, {"ar", true}, {"sw", true}, {"zu", true}, {"aa", true},
		{"he", true}, {"id", true}, {"yi", true}, {"jv", true}, {"ro", true},
		// withdrawn codes
		{"iw", false}, {"in", false}, {"ji", false}, {"jw", false}, {"mo", false}, {"sh", false}, {"bh", false},
		// not lower-case ISO 639-1
		{"EN", false}, {"En", false}, {"eng", false}, {"es-ES", false}, {"en_US", false}, {"", false}, {"e", false},
	}
	for _, tt := range tests {
		if got := r.HasLanguage(tt.code); got != tt.want {
			t.Errorf("HasLanguage(%q) = %v, want %v", tt.code, got, tt.want)
		}
	}
}

func TestIDsUnique(t *testing.T) {
	r := mustV1(t)
	for kind, ids := range map[string][]string{"task": r.TaskIDs(), "domain": r.DomainIDs(), "language": r.LanguageCodes()} {
		seen := map[string]bool{}
		for _, id := range ids {
			if id == "" {
				t.Errorf("empty %s id", kind)
			}
			if seen[id] {
				t.Errorf("%s id %q listed twice", kind, id)
			}
			seen[id] = true
		}
	}
}

func TestMembershipCaseSensitive(t *testing.T) {
	r := mustV1(t)
	tests := []struct {
		name string
		has  func(string) bool
		id   string
		want bool
	}{
		{"task", r.HasTask, "classify", true},
		{"task", r.HasTask, "Classify", false},
		{"task", r.HasTask, "CLASSIFY", false},
		{"task", r.HasTask, "classify ", false},
		{"task", r.HasTask, "summarize", false},
		{"task", r.HasTask, "", false},
		{"domain", r.HasDomain, "legal", true},
		{"domain", r.HasDomain, "Legal", false},
		{"domain", r.HasDomain, "customer_support", true},
		{"domain", r.HasDomain, "customer-support", false},
		{"domain", r.HasDomain, "Customer_Support", false},
		{"domain", r.HasDomain, "", false},
		{"language", r.HasLanguage, "de", true},
		{"language", r.HasLanguage, "DE", false},
		{"language", r.HasLanguage, "De", false},
	}
	for _, tt := range tests {
		if got := tt.has(tt.id); got != tt.want {
			t.Errorf("Has%s(%q) = %v, want %v", tt.name, tt.id, got, tt.want)
		}
	}
}

func TestSuggest(t *testing.T) {
	r := mustV1(t)
	tests := []struct {
		name    string
		suggest func(string) string
		in      string
		want    string
	}{
		{"Task", r.SuggestTask, "clasify", "classify"},
		{"Task", r.SuggestTask, "Classify", "classify"},
		{"Task", r.SuggestTask, "transalte", "translate"},
		{"Task", r.SuggestTask, "summarize", ""},
		{"Task", r.SuggestTask, "", ""},
		{"Domain", r.SuggestDomain, "finanse", "finance"},
		{"Domain", r.SuggestDomain, "Legal", "legal"},
		{"Domain", r.SuggestDomain, "customer-support", "customer_support"},
		{"Domain", r.SuggestDomain, "astrology", ""},
		{"Language", r.SuggestLanguage, "Spanish", "es"},
		{"Language", r.SuggestLanguage, "spanish", "es"},
		{"Language", r.SuggestLanguage, "español", "es"},
		{"Language", r.SuggestLanguage, "Español", "es"},
		{"Language", r.SuggestLanguage, "es-ES", "es"},
		{"Language", r.SuggestLanguage, "en_US", "en"},
		{"Language", r.SuggestLanguage, "zh-Hant-TW", "zh"},
		{"Language", r.SuggestLanguage, "EN", "en"},
		{"Language", r.SuggestLanguage, "deutsch", "de"},
		{"Language", r.SuggestLanguage, "German", "de"},
		{"Language", r.SuggestLanguage, "中文", "zh"},
		{"Language", r.SuggestLanguage, "Kiswahili", "sw"},
		{"Language", r.SuggestLanguage, "klingon", ""},
		{"Language", r.SuggestLanguage, "", ""},
		{"Language", r.SuggestLanguage, "xx-YY", ""},
	}
	for _, tt := range tests {
		if got := tt.suggest(tt.in); got != tt.want {
			t.Errorf("Suggest%s(%q) = %q, want %q", tt.name, tt.in, got, tt.want)
		}
	}
}
